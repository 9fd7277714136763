import { randomUUID } from 'node:crypto';
import {
  comparePositions,
  errorAnswers,
  seedDemoView,
  SIGNED_IN_ERRORS,
  streams,
  type EventMetadata,
  type Participant,
  type Position,
  commandHeaders,
} from '@pf/events';
import type { FastifyPluginAsyncZod, ServiceContext } from '@pf/infra';
import { agentDecider } from '../agent/agent';
import { conversationDecider } from '../conversation/conversation';
import { handleCommand } from '../handle-command';
import { signedIn, withPosition } from '../http-helpers';
import { nextId } from '../ids';
import { scoreMatch } from '../matching/score-match';
import { matchDecider } from '../matching/match-decider';
import { DEMO_AGENTS, DEMO_CONVERSATIONS } from './demo-data';

const latest = (a: Position | null, b: Position | null) => (!a ? b : !b ? a : comparePositions(a, b) >= 0 ? a : b);

/** POST /api/seed-demo: demo agents (and, without automation, conversations) for the signed-in user. */
const seedDemo = {
  summary: 'Create demo agents (and, without automation, conversations) for the signed-in user',
  headers: commandHeaders,
  response: { 201: seedDemoView, ...errorAnswers(...SIGNED_IN_ERRORS) },
};

export const seedDemoRoutes: FastifyPluginAsyncZod<ServiceContext> = async (app, { pool, store, config }) => {
  app.post('/api/seed-demo', { schema: seedDemo, config: { rateLimit: { max: 10, timeWindow: '1 minute' } } }, async (request, reply) => {
    const { user, metadata } = signedIn(request);
    let position: Position | null = null;
    const participants = new Map<string, Participant>();

    for (const agent of DEMO_AGENTS) {
      const agentId = await nextId(pool, 'agent_ids');
      const handled = await handleCommand(
        store,
        streams.agent(agentId),
        agentDecider,
        {
          type: 'CreateAgent',
          agentId,
          ownerId: user.id,
          firmId: user.firmId,
          isDemo: true,
          name: agent.name,
          agentType: agent.type,
          description: agent.description,
          criteria: agent.criteria,
          ...(agent.products ? { products: agent.products } : {}),
          ...(agent.needs ? { needs: agent.needs } : {}),
        },
        metadata,
      );
      position = latest(position, handled.position);
      participants.set(agent.key, { agentId, ownerId: user.id, firmId: user.firmId, name: agent.name, type: agent.type });
    }

    // The scripted conversations come with the match the matcher would have recorded, so their header explains it.
    const recordScriptedMatch = async (keys: readonly string[], known: Map<string, Participant>): Promise<string | null> => {
      const [borrower, lender, broker] = (['borrower', 'lender', 'broker'] as const).map((type) =>
        keys.map((key) => known.get(key)!).find((participant) => participant.type === type),
      );
      if (!borrower || !lender) return null;
      const criteriaOf = (participant: Participant) => DEMO_AGENTS.find((agent) => agent.name === participant.name)?.criteria ?? null;
      const matchId = randomUUID();
      const recorded = await handleCommand(
        store,
        streams.match(matchId),
        matchDecider,
        {
          type: 'RecordMatch',
          matchId,
          borrowerAgentId: borrower.agentId,
          lenderAgentId: lender.agentId,
          brokerAgentId: broker?.agentId ?? null,
          ...scoreMatch(criteriaOf(borrower), criteriaOf(lender)),
        },
        metadata,
      );
      position = latest(position, recorded.position);
      return matchId;
    };

    // With the automated agents running, the matcher opens the conversations itself (scripted ones would
    // duplicate its pairs); without them, two conversations already under way give the screens content.
    const scripted = config.AUTOMATION === 'on' ? [] : DEMO_CONVERSATIONS;
    for (const conversation of scripted) {
      const conversationId = await nextId(pool, 'conversation_ids');
      const stream = streams.conversation(conversationId);
      const matchId = await recordScriptedMatch(conversation.participants, participants);
      const started = await handleCommand(
        store,
        stream,
        conversationDecider,
        {
          type: 'StartConversation',
          conversationId,
          title: conversation.title,
          participants: conversation.participants.map((key) => participants.get(key)!),
          matchId,
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
          {
            type: 'SendMessage',
            conversationId,
            messageId: await nextId(pool, 'message_ids'),
            speaker: { kind: 'agent', agentId },
            content: message.content,
          },
          agentMetadata,
        );
        position = latest(position, sent.position);
      }
    }
    return withPosition(reply, position).status(201).send({ agents: DEMO_AGENTS.length, conversations: scripted.length });
  });
};
