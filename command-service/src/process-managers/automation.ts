import type { DomainEvent } from '@pf/events';
import type { RecordedEvent, ServiceContext } from '@pf/infra';
import { AutomationState } from './automation-state';
import { matchAgent, stopAgent } from './matcher';
import { Negotiator } from './negotiator';
import { createLlmPhraser, type Phraser } from '../automation/words/llm-phrasing';
import { startReactor, type Reactor } from './reactor';

/**
 * The automated agents as one process manager: the matcher (agents created, edited, resumed →
 * matches and conversations; paused or deleted → their conversations stop) and the negotiator.
 */
export function startAutomation(context: ServiceContext & { databaseUrl: string }, phraser?: Phraser): Reactor {
  const { config, log } = context;
  // Without LLM_* settings this keeps the engine's own wording.
  const phrase = phraser ?? createLlmPhraser(config, log);
  let negotiator: Negotiator | null = null;
  const reactor = startReactor({
    name: 'automation',
    pool: context.pool,
    databaseUrl: context.databaseUrl,
    store: context.store,
    log,
    handlers: () => {
      const state = new AutomationState();
      negotiator?.close();
      const current = new Negotiator(context, state, {
        settings: { deadlineRounds: config.NEGOTIATION_DEADLINE_ROUNDS, opener: 'borrower' },
        replyDelayMs: config.AGENT_REPLY_DELAY_MS,
        phrase,
        log,
      });
      negotiator = current;
      const matchSettings = { threshold: config.MATCH_THRESHOLD, maxOpenConversations: config.MAX_OPEN_CONVERSATIONS };
      return {
        replay: (event) => state.observe(event),
        react: async (batch: readonly RecordedEvent[]) => {
          const touched = new Set<number>();
          for (const recorded of batch) {
            state.observe(recorded);
            const event = { type: recorded.type, data: recorded.data } as DomainEvent;
            switch (event.type) {
              case 'AgentCreated':
              case 'AgentUpdated':
              case 'AgentResumed':
                await matchAgent(context, state, event.data.agentId, recorded, matchSettings);
                break;
              case 'AgentPaused':
              case 'AgentDeleted':
                await stopAgent(context, state, event.data.agentId, recorded);
                break;
              case 'MessageSent':
                if (!event.data.isAutomated) await current.readOperatorMessage(recorded);
                break;
              default:
                break;
            }
            if ('conversationId' in event.data) touched.add(event.data.conversationId);
          }
          for (const conversationId of touched) current.schedule(conversationId);
        },
        caughtUp: () => {
          for (const conversation of state.conversations.values()) current.schedule(conversation.conversationId);
        },
      };
    },
  });
  return {
    async close() {
      negotiator?.close();
      await reactor.close();
    },
  };
}
