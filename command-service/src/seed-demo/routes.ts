import {
  comparePositions,
  demoMessagesView,
  errorAnswers,
  firmOf,
  idParams,
  seedDemoView,
  SIGNED_IN_ERRORS,
  streams,
  type Participant,
  type Position,
  commandHeaders,
} from '@pf/events';
import { Conflict, type FastifyPluginAsyncZod, type ServiceContext } from '@pf/infra';
import { agentDecider } from '../agent/agent';
import { conversationDecider } from '../conversation/conversation';
import { active, visibleTo } from '../conversation/state';
import { foldEvents, handleCommand } from '../handle-command';
import { signedIn, withPosition } from '../http-helpers';
import { claimDemoAgent, oneSeedPerFirm } from './claims';
import { DEMO_AGENTS, DEMO_CONVERSATIONS } from './demo-data';
import { demoExchange } from './demo-messages';
import { agentSays, startScriptedConversation } from './scripted';

const latest = (a: Position | null, b: Position | null) => (!a ? b : !b ? a : comparePositions(a, b) >= 0 ? a : b);

/** POST /api/seed-demo: the demo agents the firm does not have yet (and, without automation, conversations). */
const seedDemo = {
  summary: 'Create the demo agents your firm does not have yet (and, without automation, conversations)',
  headers: commandHeaders,
  response: { 201: seedDemoView, ...errorAnswers(...SIGNED_IN_ERRORS) },
};

/** POST /api/conversations/:id/demo-messages: Add Demo Messages, into a conversation between the firm's demo agents. */
const addDemoMessages = {
  summary: "Add Demo Messages: a short exchange between the agents of a conversation of your firm's demo agents",
  params: idParams('Conversation'),
  headers: commandHeaders,
  response: { 201: demoMessagesView, ...errorAnswers(...SIGNED_IN_ERRORS, 403, 404, 409) },
};

/** "A", "A and B", "A, B and C". */
const listed = (names: readonly string[]) => (names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`);

export const seedDemoRoutes: FastifyPluginAsyncZod<ServiceContext> = async (app, context) => {
  const { pool, store, config } = context;

  // Seed Demo Data (docs/behaviour/dashboard.md): each demo agent once per firm; pressed again, only the missing ones.
  app.post('/api/seed-demo', { schema: seedDemo, config: { rateLimit: { max: 10, timeWindow: '1 minute' } } }, async (request, reply) => {
    const { user, metadata } = signedIn(request);
    const { position, answer } = await oneSeedPerFirm(pool, user.firmId, async () => {
      let position: Position | null = null;
      const created = new Map<string, Participant>();
      for (const agent of DEMO_AGENTS) {
        const agentId = await claimDemoAgent(pool, store, user.firmId, agent.key);
        if (agentId === null) continue;
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
        created.set(agent.key, { agentId, ownerId: user.id, firmId: user.firmId, name: agent.name, type: agent.type });
      }
      // With the automated agents running, the matcher opens the conversations itself (scripted ones would
      // duplicate its pairs); without them, two conversations already under way give the screens content, between
      // agents created now only.
      const scripted =
        config.AUTOMATION === 'on'
          ? []
          : DEMO_CONVERSATIONS.filter((conversation) => conversation.participants.every((key) => created.has(key)));
      for (const conversation of scripted) {
        position = latest(position, await startScriptedConversation(context, conversation, created, metadata));
      }
      return {
        position,
        answer: { agents: created.size, conversations: scripted.length, alreadyThere: DEMO_AGENTS.length - created.size },
      };
    });
    return withPosition(reply, position).status(201).send(answer);
  });

  // Add Demo Messages (docs/behaviour/conversations.md): the sandbox rule holds here too; demo lines go only
  // between the firm's own demo agents, never into a real negotiation.
  app.post('/api/conversations/:id/demo-messages', { schema: addDemoMessages }, async (request, reply) => {
    const { user, metadata } = signedIn(request);
    const conversationId = request.params.id;
    const stream = streams.conversation(conversationId);
    const conversation = visibleTo(foldEvents(conversationDecider, await store.readStream(stream)), conversationId, user.firmId);
    const notDemo: string[] = [];
    for (const participant of conversation.participants) {
      const agent = foldEvents(agentDecider, await store.readStream(streams.agent(participant.agentId)));
      const isOwnDemo = agent.status !== 'none' && agent.isDemo === true && firmOf(participant) === user.firmId;
      if (!isOwnDemo) notDemo.push(participant.name);
    }
    if (notDemo.length > 0) {
      throw new Conflict(
        `Demo messages go only into a conversation between your firm’s demo agents: ${listed(notDemo)} ${notDemo.length === 1 ? 'is' : 'are'} not one`,
      );
    }
    active(conversation, conversationId);
    let position: Position | null = null;
    let messages = 0;
    for (const line of demoExchange(conversation.participants)) {
      // Said by the agent (isAutomated); the event's actor is the person who pressed the button, for History.
      const sent = await agentSays({ pool, store }, conversationId, line.agentId, line.content, metadata);
      // A side its operator holds says nothing (its agent is silenced): that line is not recorded.
      messages += sent.events.length;
      position = latest(position, sent.position);
    }
    return withPosition(reply, position).status(201).send({ conversationId, messages });
  });
};
