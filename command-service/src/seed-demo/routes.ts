import type { FastifyPluginAsync } from 'fastify';
import { streams, type EventMetadata, type Participant, type Position, comparePositions } from '@pf/events';
import type { ServiceContext } from '@pf/infra';
import { agentDecider } from '../agent/agent';
import { conversationDecider } from '../conversation/conversation';
import { handleCommand } from '../handle-command';
import { signedIn, withPosition } from '../http-helpers';
import { nextId } from '../ids';
import { DEMO_AGENTS, DEMO_CONVERSATIONS } from './demo-data';

const latest = (a: Position | null, b: Position | null) => (!a ? b : !b ? a : comparePositions(a, b) >= 0 ? a : b);

/** POST /api/seed-demo: demo agents (and, without automation, conversations) for the signed-in user. */
export const seedDemoRoutes: FastifyPluginAsync<ServiceContext> = async (app, { pool, store, config }) => {
  app.post('/api/seed-demo', { config: { rateLimit: { max: 10, timeWindow: '1 minute' } } }, async (request, reply) => {
    const { user, metadata } = signedIn(request);
    let position: Position | null = null;
    const participants = new Map<string, Participant>();

    for (const agent of DEMO_AGENTS) {
      const agentId = await nextId(pool, 'agent_ids');
      const handled = await handleCommand(
        store,
        streams.agent(agentId),
        agentDecider,
        { type: 'CreateAgent', agentId, ownerId: user.id, name: agent.name, agentType: agent.type, description: agent.description, criteria: agent.criteria },
        metadata,
      );
      position = latest(position, handled.position);
      participants.set(agent.key, { agentId, ownerId: user.id, name: agent.name, type: agent.type });
    }

    // With the automated agents running, the matcher opens the conversations itself (scripted ones would
    // duplicate its pairs); without them, two conversations already under way give the screens content.
    const scripted = config.AUTOMATION === 'on' ? [] : DEMO_CONVERSATIONS;
    for (const conversation of scripted) {
      const conversationId = await nextId(pool, 'conversation_ids');
      const stream = streams.conversation(conversationId);
      const started = await handleCommand(
        store,
        stream,
        conversationDecider,
        {
          type: 'StartConversation',
          conversationId,
          title: conversation.title,
          participants: conversation.participants.map((key) => participants.get(key)!),
          matchId: null,
        },
        metadata,
      );
      position = latest(position, started.position);
      for (const message of conversation.messages) {
        const agentId = participants.get(message.from)!.agentId;
        const agentMetadata: EventMetadata = { ...metadata, actor: { kind: 'agent', agentId } };
        const sent = await handleCommand(
          store,
          stream,
          conversationDecider,
          { type: 'SendMessage', conversationId, messageId: await nextId(pool, 'message_ids'), speaker: { kind: 'agent', agentId }, content: message.content },
          agentMetadata,
        );
        position = latest(position, sent.position);
      }
    }
    return withPosition(reply, position).status(201).send({ agents: DEMO_AGENTS.length, conversations: scripted.length });
  });
};
