import { conversationStatusView, errorAnswers, idParams, readHeaders, SIGNED_IN_ERRORS } from '@pf/events';
import { NotFound, requireUser, viewerOf, type FastifyPluginAsyncZod, type ServiceContext } from '@pf/infra';
import { findConversation } from '../conversations';

/** GET /api/conversations/:id/status: where a conversation stands, and whether its agents are stuck (and why). */
export const conversationStatusRoutes: FastifyPluginAsyncZod<ServiceContext> = async (app, { pool }) => {
  app.get(
    '/api/conversations/:id/status',
    {
      schema: {
        summary:
          "Where a conversation stands, and whether its automated agents are stuck (ConversationStalled's reason) until it moves again",
        params: idParams('Conversation'),
        headers: readHeaders,
        response: { 200: conversationStatusView, ...errorAnswers(...SIGNED_IN_ERRORS, 404, 503) },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const id = request.params.id;
      const conversation = await findConversation(pool, viewerOf(user), id);
      if (!conversation) throw new NotFound(`Conversation ${id} not found`);
      const stall = await pool.query<{ agent_id: string | null; reason: string; stalled_at: Date }>(
        'select agent_id, reason, stalled_at from rm_conversation_stalls where conversation_id = $1',
        [id],
      );
      const row = stall.rows[0];
      return {
        conversationId: id,
        status: conversation.status,
        outcome: conversation.outcome,
        isManualMode: conversation.isManualMode,
        stalled: row
          ? { agentId: row.agent_id === null ? null : Number(row.agent_id), reason: row.reason, since: row.stalled_at.toISOString() }
          : null,
      };
    },
  );
};
