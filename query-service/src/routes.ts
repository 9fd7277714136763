import type { FastifyReply } from 'fastify';
import {
  agentListView,
  agentPage,
  agentPageQuery,
  agentView,
  comparePositions,
  conversationListView,
  conversationPage,
  conversationPageQuery,
  conversationView,
  errorAnswers,
  formatPosition,
  idParams,
  messageListView,
  readHeaders,
  SIGNED_IN_ERRORS,
  START,
  statsView,
  streams,
  versionETag,
} from '@pf/events';
import { NotFound, sessionViewer, type FastifyPluginAsyncZod, type ServiceContext } from '@pf/infra';
import type { ReadModelProgress } from './projection-kit/progress';
import { afterPosition, waitUntilApplied } from './read-wait';
import { readModelRoutes } from './read-models';
import { ReadCache } from './projection-kit/read-cache';
import { findAgent, listAgents, pageAgents } from './read-models/agents';
import {
  findConversation,
  findConversationWithVersion,
  listConversations,
  listMessages,
  pageConversations,
} from './read-models/conversations';
import { userStats } from './read-models/stats/queries';
import { weeklyTrends } from './read-models/stats/trends';
import { streamVersion } from './read-models/versions';
import { notificationReadRoutes } from './read-models/notifications/routes';
import { billingReadRoutes } from './billing/routes';

/** The errors of a read: those of any signed-in route, and 503 when x-after-position is not reached in time. */
const READ_ERRORS = [...SIGNED_IN_ERRORS, 503] as const;
const ONE_ERRORS = [...READ_ERRORS, 404] as const;

function withVersion(reply: FastifyReply, version: number | null): void {
  if (version !== null) reply.header('etag', versionETag(version));
}

export const readRoutes: FastifyPluginAsyncZod<ServiceContext & { progress: ReadModelProgress }> = async (app, options) => {
  const { pool, progress, config, store } = options;
  const cache = new ReadCache(progress);
  // Read your writes: a read that names a position waits (bounded) until the read models include it. Every answer
  // then says which position it reflects (docs/architecture.md "A read"): the tables hold everything up to the
  // progress taken here (the projector moves it after committing), so the answer is at least that fresh.
  app.addHook('preHandler', async (request, reply) => {
    const after = afterPosition(request);
    if (after) await waitUntilApplied(progress, store, after, config.READ_WAIT_TIMEOUT_MS);
    if (comparePositions(progress.position, START) > 0) reply.header('x-position', formatPosition(progress.position));
  });

  // Registered inside this plugin so the read-your-writes hook above applies to them too.
  await app.register(notificationReadRoutes, options);
  await app.register(readModelRoutes, { pool, cache });
  await app.register(billingReadRoutes, options);

  app.get(
    '/api/stats',
    { schema: { summary: 'Your dashboard figures', headers: readHeaders, response: { 200: statsView, ...errorAnswers(...READ_ERRORS) } } },
    async (request) => {
      const { firmId } = sessionViewer(request);
      return cache.read(firmId, request.url, async () => ({
        ...(await userStats(pool, firmId)),
        trends: await weeklyTrends(pool, firmId, new Date()),
      }));
    },
  );

  app.get(
    '/api/agents',
    {
      schema: {
        summary: 'Your agents, newest first',
        headers: readHeaders,
        response: { 200: agentListView, ...errorAnswers(...READ_ERRORS) },
      },
    },
    async (request) => {
      const { firmId } = sessionViewer(request);
      return cache.read(firmId, request.url, () => listAgents(pool, firmId));
    },
  );

  app.get(
    '/api/agents/page',
    {
      schema: {
        summary: 'One page of your agents, newest first, searched by name (q) and filtered by type; pass nextCursor as cursor for the next',
        querystring: agentPageQuery,
        headers: readHeaders,
        response: { 200: agentPage, ...errorAnswers(400, ...READ_ERRORS) },
      },
    },
    async (request) => {
      const { firmId } = sessionViewer(request);
      return cache.read(firmId, request.url, () => pageAgents(pool, firmId, request.query));
    },
  );

  app.get(
    '/api/agents/:id',
    {
      schema: {
        summary: 'One of your agents, with its version in the ETag (send it back in If-Match to change it)',
        params: idParams('Agent'),
        headers: readHeaders,
        response: { 200: agentView, ...errorAnswers(...ONE_ERRORS) },
      },
    },
    async (request, reply) => {
      const { firmId } = sessionViewer(request);
      const agentId = request.params.id;
      // The version first: read before the row, it can only be older than the row, so a stale If-Match
      // fails (412) rather than an update going through over a change its sender never saw.
      const version = await streamVersion(pool, streams.agent(agentId));
      // The one row, not the firm's whole list: a firm may have 10,000 agents (docs/behaviour/console-layout.md).
      const agent = await cache.read(firmId, request.url, () => findAgent(pool, firmId, agentId));
      if (!agent) throw new NotFound(`Agent ${agentId} not found`);
      withVersion(reply, version);
      return agent;
    },
  );

  app.get(
    '/api/conversations/page',
    {
      schema: {
        summary:
          'One page of the conversations your agents take part in, most recently active first, searched by title (q) and filtered by status; pass nextCursor as cursor for the next',
        querystring: conversationPageQuery,
        headers: readHeaders,
        response: { 200: conversationPage, ...errorAnswers(400, ...READ_ERRORS) },
      },
    },
    async (request) => {
      const viewer = sessionViewer(request);
      return cache.read(viewer.firmId, request.url, () => pageConversations(pool, viewer, request.query));
    },
  );

  app.get(
    '/api/conversations',
    {
      schema: {
        summary: 'Conversations your agents take part in, most recently active first',
        headers: readHeaders,
        response: { 200: conversationListView, ...errorAnswers(...READ_ERRORS) },
      },
    },
    async (request) => {
      const viewer = sessionViewer(request);
      return cache.read(viewer.firmId, request.url, () => listConversations(pool, viewer));
    },
  );

  app.get(
    '/api/conversations/:id',
    {
      schema: {
        summary: 'One conversation, with its version in the ETag (send it back in If-Match to change it)',
        params: idParams('Conversation'),
        headers: readHeaders,
        response: { 200: conversationView, ...errorAnswers(...ONE_ERRORS) },
      },
    },
    async (request, reply) => {
      const viewer = sessionViewer(request);
      const id = request.params.id;
      // The version and the row in one statement, one snapshot: the version is never newer than the row.
      const found = await findConversationWithVersion(pool, viewer, id);
      if (!found) throw new NotFound(`Conversation ${id} not found`);
      withVersion(reply, found.version);
      return found.view;
    },
  );

  app.get(
    '/api/conversations/:id/messages',
    {
      schema: {
        summary: 'The messages of one conversation, oldest first',
        params: idParams('Conversation'),
        headers: readHeaders,
        response: { 200: messageListView, ...errorAnswers(...ONE_ERRORS) },
      },
    },
    async (request) => {
      const viewer = sessionViewer(request);
      const id = request.params.id;
      if (!(await findConversation(pool, viewer, id))) throw new NotFound(`Conversation ${id} not found`);
      return listMessages(pool, id);
    },
  );
};
