import { z } from 'zod';
import {
  canSeeConversation,
  comparePositions,
  conversationVerification,
  errorAnswers,
  historyExport,
  historyExportQuery,
  historyPage,
  historyQuery,
  historyState,
  idParams,
  parsePosition,
  positionToken,
  SIGNED_IN_ERRORS,
  type ConversationVerification,
} from '@pf/events';
import {
  NotFound,
  sessionViewer,
  signedInBeforeValidation,
  verifyStreams,
  type EventStore,
  type FastifyPluginAsyncZod,
  type StoredEvent,
  type ServiceContext,
} from '@pf/infra';
import { historyCsv, historyJson } from './export';
import { toHistoryEvents } from './history-events';
import { HistoryCache } from './history-cache';
import { loadHistory, type LoadedHistory } from './load-history';
import { personNames } from './people';
import { personPhotos } from './photos';
import { withoutDeleted } from './erasure';
import { stateAt, type Moment } from './state-at';

const DEFAULT_PAGE = 100;
const params = idParams('Conversation');
const errors = errorAnswers(...SIGNED_IN_ERRORS, 404);

type Loader = (id: number) => Promise<LoadedHistory | null>;

/**
 * The same rule as the conversation (visibility.ts): its agents' firms see it, every member whatever their role
 * (an auditor reads, verifies and exports); anyone else is told it does not exist.
 */
async function visibleHistory(load: Loader, firmId: string, id: number): Promise<LoadedHistory> {
  const history = await load(id);
  if (!history || !canSeeConversation(history.started, firmId)) throw new NotFound(`Conversation ${id} not found`);
  return history;
}

async function verifyConversation(store: EventStore<StoredEvent>, history: LoadedHistory): Promise<ConversationVerification> {
  const streams = await verifyStreams(store, history.streams);
  return { conversationId: history.conversationId, intact: streams.every((s) => s.intact), streams, verifiedAt: new Date().toISOString() };
}

/**
 * The auditor's API (docs/behaviour/history.md), answered from the event store through its port, never from the read models:
 * the history (paged, or as it stood `?at=` a position or time), the hash-chain verdict, and the export.
 */
export const historyRoutes: FastifyPluginAsyncZod<ServiceContext> = async (app, { storedEvents: store, pool }) => {
  // The screen's reads (paging, and ?at= at every scrub step) reuse a loaded history while its streams stand
  // still; verify and export read the store afresh, as an auditor expects.
  const cache = new HistoryCache(store);
  // A party who deleted their account is erased from every answer, from the moment the deletion is answered.
  const erased = async (history: LoadedHistory | null) => history && withoutDeleted(pool, history);
  const cached: Loader = async (id) => erased(await cache.load(id));
  const fresh: Loader = async (id) => erased(await loadHistory(store, id));
  app.get(
    '/api/conversations/:id/history',
    {
      preValidation: signedInBeforeValidation,
      schema: {
        summary: "A conversation's history from the event store: a page of events, or its state at a position or time (?at=)",
        params,
        querystring: historyQuery,
        response: { 200: z.union([historyPage, historyState]), ...errors },
      },
    },
    async (request) => {
      // Read as the firm (visibility.ts): any member, whatever their role.
      const { firmId } = sessionViewer(request);
      const id = request.params.id;
      const query = request.query;
      const history = await visibleHistory(cached, firmId, id);
      const names = await personNames(pool, history.records);
      if (query.at !== undefined) {
        const moment: Moment = positionToken.safeParse(query.at).success
          ? { position: parsePosition(query.at) }
          : { time: new Date(query.at) };
        return stateAt(id, history.records, moment, query.at, firmId, new Date(), names);
      }
      const after = query.after ? parsePosition(query.after) : null;
      const limit = query.limit ?? DEFAULT_PAGE;
      const remaining = after ? history.records.filter((r) => comparePositions(r.recorded.position, after) > 0) : history.records;
      const events = toHistoryEvents(
        remaining.slice(0, limit),
        history.started.participants,
        firmId,
        names,
        history.records,
        await personPhotos(pool, history.records),
      );
      return {
        conversationId: id,
        events,
        nextAfter: remaining.length > limit ? events[events.length - 1]!.position : null,
        total: history.records.length,
      };
    },
  );

  app.get(
    '/api/conversations/:id/verify',
    {
      preValidation: signedInBeforeValidation,
      schema: {
        summary: "Recomputes the hash chains of the conversation's streams and names the first broken link",
        params,
        response: { 200: conversationVerification, ...errors },
      },
    },
    async (request) => {
      // Read as the firm (visibility.ts): any member, whatever their role.
      const { firmId } = sessionViewer(request);
      return verifyConversation(store, await visibleHistory(fresh, firmId, request.params.id));
    },
  );

  app.get(
    '/api/conversations/:id/history/export',
    {
      preValidation: signedInBeforeValidation,
      schema: {
        summary: 'The full history as JSON (events, hashes, verdict) or messages and offers as CSV',
        params,
        querystring: historyExportQuery,
        response: { 200: z.union([historyExport, z.string()]), ...errors },
      },
    },
    async (request, reply) => {
      // Read as the firm (visibility.ts): any member, whatever their role.
      const { firmId } = sessionViewer(request);
      const id = request.params.id;
      const history = await visibleHistory(fresh, firmId, id);
      const events = toHistoryEvents(history.records, history.started.participants, firmId, await personNames(pool, history.records));
      if (request.query.format === 'csv') {
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="conversation-${id}-history.csv"`)
          .send(historyCsv(events));
      }
      const body = historyJson(id, events, await verifyConversation(store, history), new Date().toISOString());
      return reply.header('content-disposition', `attachment; filename="conversation-${id}-history.json"`).send(body);
    },
  );
};
