import { PassThrough } from 'node:stream';
import { z } from 'zod';
import {
  comparePositions,
  errorAnswers,
  eventFeedQuery,
  FEED_PAGE_MAX,
  parsePosition,
  START,
  type FeedEnvelope,
  type Position,
} from '@pf/events';
import { ApiTokenStore, NotCaughtUp, requireToken, type FastifyPluginAsyncZod, type StoredEvent, type ServiceContext } from '@pf/infra';
import type { ReadModelProgress } from '../../projection-kit/progress';
import { feedBatch } from './batch';

/** How often an open feed with nothing to send writes a blank line, so proxies keep the connection. */
const FEED_HEARTBEAT_MS = 15_000;
const BATCH_SIZE = 500;

/**
 * GET /api/events (docs/event-feed.md): the token's firm's events, in global order, as newline-delimited JSON in
 * the Kafka topic's envelope. It reads from the position asked with the store's gap-safe reads (an event that
 * commits late is never skipped) and, with follow (the default), stays open and streams new events as they are
 * stored. Only an API token with events:read opens it; a session cookie does not.
 */
export const eventFeedRoutes: FastifyPluginAsyncZod<ServiceContext & { progress: ReadModelProgress }> = async (app, options) => {
  const { pool, storedEvents: store, progress, config, log } = options;
  const tokens = new ApiTokenStore(pool);
  /** The open feeds: a stopping server ends them, or it would wait for every job to hang up. */
  const openFeeds = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of openFeeds) end();
  });

  /** The batch as the firm reads it, once the feed's read model has applied it. */
  const visible = async (batch: readonly StoredEvent[], firmId: string, types: ReadonlySet<string> | null, open: () => boolean) => {
    const last = batch[batch.length - 1]!.position;
    for (;;) {
      try {
        await progress.waitFor(last, config.READ_WAIT_TIMEOUT_MS);
        break;
      } catch (error) {
        // The projector is behind (a rebuild, a restart): keep waiting while the job stays connected.
        if (!(error instanceof NotCaughtUp) || !open()) throw error;
      }
    }
    return feedBatch(pool, batch, firmId, types);
  };

  app.get(
    '/api/events',
    {
      schema: {
        summary: "The firm's events as newline-delimited JSON, from a position, streaming while open (API token with events:read)",
        security: [{ apiToken: [] }],
        querystring: eventFeedQuery,
        response: {
          200: z.string().describe('application/x-ndjson: one event envelope per line (see /docs/asyncapi.json)'),
          ...errorAnswers(400, 401, 403, 503),
        },
      },
    },
    async (request, reply) => {
      const principal = await requireToken(tokens, request, 'events:read');
      const { after, types, follow, limit } = request.query;
      const from: Position = after ? parsePosition(after) : START;
      const wanted = types ? new Set(types) : null;
      const body = new PassThrough();
      // Fastify sends a stream as it is (no serialiser); the declared 200 documents its lines.
      const answer = body as unknown as string;
      let open = true;
      const write = async (events: readonly FeedEnvelope[]) => {
        for (const event of events) {
          if (!open) return;
          // A slow job holds the batch here (back-pressure); a job that hangs up ends the wait (close).
          if (!body.write(`${JSON.stringify(event)}\n`))
            await new Promise<void>((resolve) => body.once('drain', resolve).once('close', resolve));
        }
      };
      reply.header('content-type', 'application/x-ndjson; charset=utf-8').header('cache-control', 'no-store');

      if (follow === 'false') {
        const most = limit ?? FEED_PAGE_MAX;
        reply.raw.once('close', () => {
          open = false;
          body.destroy();
        });
        void (async () => {
          let position = from;
          let sent = 0;
          const head = await store.headPosition();
          while (open && sent < most) {
            // readAll may answer fewer than asked (it shares the tail read of other followers): read on until
            // nothing is left up to the head as it stood when the request came.
            const read = await store.readAll(position, BATCH_SIZE);
            const batch = read.filter((event) => comparePositions(event.position, head) <= 0);
            if (batch.length === 0) break;
            const events = (await visible(batch, principal.firmId, wanted, () => open)).slice(0, most - sent);
            await write(events);
            sent += events.length;
            position = batch[batch.length - 1]!.position;
            if (batch.length < read.length) break;
          }
        })()
          .catch((error: unknown) => log.warn({ err: error }, 'The event feed stopped'))
          .finally(() => body.end());
        return reply.send(answer);
      }

      const end = () => {
        if (!open) return;
        open = false;
        clearInterval(heartbeat);
        body.end();
        void subscription.close();
      };
      // A revoked token reads nothing more, even on a connection it opened before: checked before each batch,
      // and at each heartbeat while nothing happens.
      const heartbeat = setInterval(() => {
        void tokens.inForce(principal.tokenId).then(
          (inForce) => (inForce ? open && body.writableLength === 0 && body.write('\n') : end()),
          () => end(),
        );
      }, FEED_HEARTBEAT_MS);
      const subscription = store.subscribe(
        from,
        async (batch) => {
          if (!open) return;
          if (!(await tokens.inForce(principal.tokenId))) return end();
          const events = await visible(batch, principal.firmId, wanted, () => open);
          if (open) await write(events);
        },
        {
          batchSize: BATCH_SIZE,
          onError: (error) => {
            if (open) log.warn({ err: error }, 'The event feed stopped; the job resumes from its last position');
            end();
          },
        },
      );
      reply.raw.once('close', () => {
        end();
        body.destroy();
      });
      openFeeds.add(end);
      body.once('close', () => openFeeds.delete(end));
      // A blank line at once sends the headers, so a job knows it is connected before the first event.
      body.write('\n');
      return reply.send(answer);
    },
  );
};
