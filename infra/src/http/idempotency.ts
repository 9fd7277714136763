import { createHash, randomUUID, type Hash } from 'node:crypto';
import { Transform } from 'node:stream';
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type pg from 'pg';
import { backoffDelay, IDEMPOTENCY_KEY_PATTERN } from '@pf/events';
import type { Migration } from '../db/migrate';

/**
 * Idempotent commands: a client that sends `Idempotency-Key` with a write may send it again (a timeout,
 * a dropped connection) and gets the first answer back, status, body and x-position, while nothing is
 * stored twice. Keys belong to the signed-in user and live in PostgreSQL, so every copy of the
 * command-service sees them; they expire IDEMPOTENCY_KEY_TTL_HOURS after first use.
 */
export const idempotencyMigrations: Migration[] = [
  {
    name: 'infra/002-idempotency-keys',
    sql: `
      create table idempotency_keys (
        user_id text not null,
        key text not null,
        -- method, URL and body of the first request: the same key with another request is refused
        fingerprint text not null,
        -- null while the first request is being handled
        status_code int,
        headers jsonb,
        body text,
        created_at timestamptz not null default now(),
        expires_at timestamptz not null,
        primary key (user_id, key)
      );
      create index idempotency_keys_expiry on idempotency_keys (expires_at);
    `,
  },
  {
    // Which claim a pending row is: a request frees only its own claim, never one a retry took over later.
    name: 'infra/003-idempotency-claim-ids',
    sql: `alter table idempotency_keys add column claim_id uuid`,
  },
];

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** A first request still unanswered after this long is taken to have died with its process. */
const ABANDONED_AFTER_S = 30;
const POLL_MS = 25;
const SWEEP_MS = 10 * 60_000;
/** Answers a retry can get past, so they are not kept: our own failures, a conflict, a rate limit. */
const transient = (status: number) => status >= 500 || status === 409 || status === 429;
const REPLAYED_HEADERS = ['content-type', 'x-position', 'location'] as const;

export interface IdempotencyOptions {
  readonly pool: pg.Pool;
  readonly ttlHours: number;
  /** How long a duplicate waits for the first request to be answered before answering 409. */
  readonly waitMs?: number;
}

interface Claim {
  readonly userId: string;
  readonly key: string;
  readonly id: string;
}

interface StoredAnswer {
  fingerprint: string;
  status_code: number | null;
  headers: Record<string, string> | null;
  body: string | null;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route reads its body itself, streamed (an upload): the key is claimed once the route has read it and
     * calls `request.idempotentAfterBody` with a digest of what it read, not before the handler runs.
     */
    readonly idempotency?: 'after-body';
  }
  interface FastifyRequest {
    idempotencyClaim: Claim | null;
    /**
     * On an `idempotency: 'after-body'` route sent with a key by a signed-in user: claims the key for the request
     * whose body has this digest. True: carry out the command (its answer is recorded); false: the answer has been
     * sent (the first answer again, or 422 or 409), and the route only returns the reply. Null without a key.
     */
    idempotentAfterBody: ((bodyDigest: string) => Promise<boolean>) | null;
    /** The SHA-256 of the body's bytes as they arrived (not of the parsed value: re-serialising a deeply nested body would overflow the stack). */
    bodyHash: Hash | null;
  }
}

const isKeyedWrite = (request: FastifyRequest) =>
  !READS.has(request.method) && request.url.startsWith('/api/') && request.headers[IDEMPOTENCY_HEADER] !== undefined;
const readsBodyItself = (request: FastifyRequest) => request.routeOptions.config.idempotency === 'after-body';

const fingerprint = (request: FastifyRequest, body: string) =>
  createHash('sha256').update(`${request.method} ${request.url}\n${body}`).digest('hex');

function fingerprintOf(request: FastifyRequest): string {
  // A body no parser read (no content type) is not part of the request the route sees.
  const hash = request.body === undefined ? null : request.bodyHash;
  request.bodyHash = null;
  return fingerprint(request, hash?.digest('hex') ?? 'no body');
}

/** How a key left pending by a failed request is freed while the database cannot be reached (see onSend). */
const FREE_RETRY = { baseMs: 100, maxMs: 2000 } as const;

function replay(reply: FastifyReply, stored: StoredAnswer): FastifyReply {
  reply.status(stored.status_code!).header('idempotent-replayed', 'true');
  for (const [name, value] of Object.entries(stored.headers ?? {})) reply.header(name, value);
  return reply.send(stored.body ?? undefined);
}

/** Registered once in the HTTP shell, after the sessions plugin; covers every non-GET /api route. */
export const idempotencyPlugin = fp<IdempotencyOptions>(
  async (app, { pool, ttlHours, waitMs = 10_000 }) => {
    app.decorateRequest('idempotencyClaim', null);
    app.decorateRequest('idempotentAfterBody', null);
    app.decorateRequest('bodyHash', null);
    let closed = false;

    app.addHook('preParsing', async (request, _reply, payload) => {
      // A route that streams its body reads it from the request itself: a second reader here would race it.
      if (!isKeyedWrite(request) || readsBodyItself(request)) return payload;
      const hash = createHash('sha256');
      request.bodyHash = hash;
      const hashing = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          // An unread body is drained after the answer, when the fingerprint was already taken.
          if (request.bodyHash === hash) hash.update(chunk);
          done(null, chunk);
        },
      });
      payload.on('error', (error) => hashing.destroy(error));
      return payload.pipe(hashing);
    });

    /** Lets the key go (the request failed in a way a retry can get past), if it is still this request's claim. */
    const free = (claimed: Claim) =>
      pool.query('delete from idempotency_keys where user_id = $1 and key = $2 and claim_id = $3 and status_code is null', [
        claimed.userId,
        claimed.key,
        claimed.id,
      ]);

    /**
     * A command that failed for want of the database cannot free its key then either: the key would block every
     * retry (409) until taken for abandoned. It is freed as soon as the database answers again, so a retry that
     * comes then and waits (below) runs at once.
     */
    const freeWhenBack = async (claimed: Claim) => {
      // Past the abandonment time a retry takes the key over anyway (and the claim id keeps this from freeing it).
      const until = Date.now() + ABANDONED_AFTER_S * 1000;
      for (let attempt = 0; !closed && Date.now() < until; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, backoffDelay(attempt, FREE_RETRY, Math.random)).unref());
        if (closed) return;
        try {
          await free(claimed);
          return;
        } catch {
          // Still unreachable: try again.
        }
      }
    };

    const claim = async (userId: string, key: string, fingerprint: string): Promise<Claim | null> => {
      // A new key, or one whose earlier use expired or was abandoned mid-request, is ours to run.
      const ours: Claim = { userId, key, id: randomUUID() };
      const claimed = await pool
        .query(
          `insert into idempotency_keys (user_id, key, fingerprint, expires_at, claim_id)
           values ($1, $2, $3, now() + make_interval(secs => $4), $6)
           on conflict (user_id, key) do update
             set fingerprint = excluded.fingerprint, status_code = null, headers = null, body = null,
                 created_at = now(), expires_at = excluded.expires_at, claim_id = excluded.claim_id
             where idempotency_keys.expires_at < now()
                or (idempotency_keys.status_code is null and idempotency_keys.created_at < now() - make_interval(secs => $5))
           returning 1`,
          [userId, key, fingerprint, ttlHours * 3600, ABANDONED_AFTER_S, ours.id],
        )
        .catch((error: unknown) => {
          // The claim may have been stored with its answer lost (the connection dropped): let it go once we can.
          void freeWhenBack(ours);
          throw error;
        });
      return claimed.rowCount === 1 ? ours : null;
    };

    /** Claims the key for this request, or answers it (the first answer again, 422, or 409); true when claimed. */
    const settle = async (request: FastifyRequest, reply: FastifyReply, userId: string, header: string, fingerprint: string) => {
      const deadline = Date.now() + waitMs;
      for (;;) {
        const claimed = await claim(userId, header, fingerprint);
        if (claimed) {
          request.idempotencyClaim = claimed;
          return true;
        }
        const found = await pool.query<StoredAnswer>(
          'select fingerprint, status_code, headers, body from idempotency_keys where user_id = $1 and key = $2',
          [userId, header],
        );
        const stored = found.rows[0];
        if (!stored) continue; // the first request failed and let the key go: run this one
        if (stored.fingerprint !== fingerprint) {
          await reply.status(422).send({
            message: `Idempotency-Key: "${header.slice(0, 60)}" was already used for a different request (method, URL or body); use a new key for a new request`,
          });
          return false;
        }
        if (stored.status_code !== null) {
          await replay(reply, stored);
          return false;
        }
        if (Date.now() >= deadline) {
          await reply
            .status(409)
            .send({ message: 'Idempotency-Key: the first request with this key is still being handled; try again shortly' });
          return false;
        }
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    };

    app.addHook('preHandler', async (request, reply) => {
      if (!isKeyedWrite(request)) return;
      const header = request.headers[IDEMPOTENCY_HEADER];
      if (typeof header !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(header)) {
        // Routes that declare commandHeaders refuse it first, in the same words; this covers any that do not.
        return reply.status(400).send({
          message:
            'idempotency-key: Idempotency-Key must be 1 to 255 visible ASCII characters; a retry with the same key gets the first answer again',
        });
      }
      // Without a user the route answers 401 itself; there is nothing to remember.
      if (!request.user) return;
      const userId = request.user.id;
      if (readsBodyItself(request)) {
        request.idempotentAfterBody = (bodyDigest) => settle(request, reply, userId, header, fingerprint(request, bodyDigest));
        return;
      }
      if (!(await settle(request, reply, userId, header, fingerprintOf(request)))) return reply;
    });

    app.addHook('onSend', async (request, reply, payload) => {
      const claimed = request.idempotencyClaim;
      if (!claimed) return payload;
      request.idempotencyClaim = null;
      const storable = typeof payload === 'string' || Buffer.isBuffer(payload) || payload === null || payload === undefined;
      if (transient(reply.statusCode) || !storable) {
        await free(claimed).catch((error: unknown) => {
          request.log.warn({ err: error }, 'could not free an idempotency key yet; it is freed once the database answers');
          void freeWhenBack(claimed);
        });
        return payload;
      }
      try {
        const headers: Record<string, string> = {};
        for (const name of REPLAYED_HEADERS) {
          const value = reply.getHeader(name);
          if (value !== undefined) headers[name] = String(value);
        }
        await pool.query(
          'update idempotency_keys set status_code = $4, headers = $5, body = $6 where user_id = $1 and key = $2 and claim_id = $3',
          [claimed.userId, claimed.key, claimed.id, reply.statusCode, JSON.stringify(headers), payload == null ? null : payload.toString()],
        );
      } catch (error) {
        // The answer still goes out; the key stays pending and is taken over once abandoned.
        request.log.warn({ err: error }, 'could not record the answer to an idempotent request');
      }
      return payload;
    });

    const sweep = setInterval(() => {
      void pool.query('delete from idempotency_keys where expires_at < now()').catch(() => undefined);
    }, SWEEP_MS);
    sweep.unref();
    app.addHook('onClose', async () => {
      closed = true;
      clearInterval(sweep);
    });
  },
  { name: 'idempotency', dependencies: ['sessions'] },
);
