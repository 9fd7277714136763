import type { FastifyPluginAsync } from 'fastify';
import { parseId, parsePosition, positionToken } from '@pf/events';
import { Invalid, NotFound, requireUser, type ServiceContext } from '@pf/infra';
import type { ReadModelProgress } from './projector/progress';
import { ReadCache } from './read-models/read-cache';
import { findConversation, listAgents, listConversations, listMessages, userStats } from './read-models/queries';

function conversationId(raw: string): number {
  const id = parseId(raw);
  if (id === null) throw new Invalid(`Conversation id must be a positive whole number, not "${raw.slice(0, 40)}"`);
  return id;
}

export const readRoutes: FastifyPluginAsync<ServiceContext & { progress: ReadModelProgress }> = async (
  app,
  { pool, progress, config },
) => {
  const cache = new ReadCache(progress);
  // Read your writes: a read that names a position waits (bounded) until the read models include it.
  app.addHook('preHandler', async (request) => {
    const header = request.headers['x-after-position'];
    if (header === undefined) return;
    const token = Array.isArray(header) ? header[0]! : header;
    if (!positionToken.safeParse(token).success) {
      throw new Invalid(`x-after-position must be a position such as "812:40", not "${token.slice(0, 40)}"`);
    }
    await progress.waitFor(parsePosition(token), config.READ_WAIT_TIMEOUT_MS);
  });

  app.get('/api/stats', async (request) => {
    const { id } = requireUser(request);
    return cache.read(id, request.url, () => userStats(pool, id));
  });

  app.get('/api/agents', async (request) => {
    const { id } = requireUser(request);
    return cache.read(id, request.url, () => listAgents(pool, id));
  });

  app.get('/api/conversations', async (request) => {
    const { id } = requireUser(request);
    return cache.read(id, request.url, () => listConversations(pool, id));
  });

  app.get<{ Params: { id: string } }>('/api/conversations/:id', async (request) => {
    const user = requireUser(request);
    const id = conversationId(request.params.id);
    const conversation = await findConversation(pool, user.id, id);
    if (!conversation) throw new NotFound(`Conversation ${id} not found`);
    return conversation;
  });

  app.get<{ Params: { id: string } }>('/api/conversations/:id/messages', async (request) => {
    const user = requireUser(request);
    const id = conversationId(request.params.id);
    if (!(await findConversation(pool, user.id, id))) throw new NotFound(`Conversation ${id} not found`);
    return listMessages(pool, id);
  });
};
