import type { DomainEvent } from '@pf/events';
import type { RecordedEvent, ServiceContext } from '@pf/infra';
import { DEFAULT_LENDING_RULES } from '../automation/negotiation/lending-rules';
import { AUTOMATION_SNAPSHOT_FORMAT, restoreAutomationState, snapshotOf } from './automation-snapshot';
import { answerMatchRequest } from '../matching/answer-match-request';
import { matchAgent, stopAgent } from './matcher';
import { Negotiator } from './negotiator';
import { createLlmPhraser, type Phraser } from '../automation/words/llm-phrasing';
import { startReactor, type Reactor } from './reactor';
import { startResponseTimeKeeper } from './response-time-keeper';
import { withdrawAfterAgreement } from './withdraw';

/**
 * The automated agents as one process manager: the matcher (agents created, edited, resumed →
 * matches and conversations; paused or deleted → their conversations stop) and the negotiator.
 */
export function startAutomation(context: ServiceContext, phraser?: Phraser): Reactor {
  const { config, log } = context;
  // Without LLM_* settings this keeps the engine's own wording.
  const phrase = phraser ?? createLlmPhraser(config, log);
  let negotiator: Negotiator | null = null;
  const reactor = startReactor({
    name: 'automation',
    pool: context.pool,
    store: context.store,
    supervisor: context.supervisor,
    log,
    // Saved often enough that a new leader replays seconds of events, not the store's history.
    snapshots: { format: AUTOMATION_SNAPSHOT_FORMAT, everyEvents: 1000, everyMs: 10_000 },
    handlers: (restored) => {
      const rules = {
        ...DEFAULT_LENDING_RULES,
        incomeMultiple: config.LENDING_INCOME_MULTIPLE,
        interestCover: config.LENDING_INTEREST_COVER,
        stressedRate: config.LENDING_STRESSED_RATE,
      };
      const state = restoreAutomationState(restored, rules);
      negotiator?.close();
      const current = new Negotiator(context, state, {
        settings: { deadlineRounds: config.NEGOTIATION_DEADLINE_ROUNDS, opener: 'borrower' },
        replyDelayMs: config.AGENT_REPLY_DELAY_MS,
        phrase,
        log,
      });
      negotiator = current;
      const matchSettings = { threshold: config.MATCH_THRESHOLD, maxOpenConversations: config.MAX_OPEN_CONVERSATIONS, rules };
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
              case 'MatchRequested':
                await answerMatchRequest(context, state, recorded, matchSettings);
                break;
              case 'AgentPaused':
              case 'AgentDeleted':
                await stopAgent(context, state, event.data.agentId, recorded);
                break;
              case 'DealAgreed':
                await withdrawAfterAgreement(context, state, recorded);
                break;
              case 'MessageSent':
                if (!event.data.isAutomated) await current.readOperatorMessage(recorded);
                break;
              case 'ConversationCompleted':
                current.forget(event.data.conversationId);
                break;
              default:
                break;
            }
            if ('conversationId' in event.data) touched.add(event.data.conversationId);
          }
          // A borrower's other negotiations may have held back an acceptance for one that has ended (deal-claim.ts).
          const ended = new Set(state.takeEndedBorrowers());
          for (const other of state.conversations.values()) {
            const borrowerId = other.negotiation?.setup.borrower.agentId;
            if (other.status === 'active' && borrowerId !== undefined && ended.has(borrowerId)) touched.add(other.conversationId);
          }
          for (const conversationId of touched) current.schedule(conversationId);
        },
        snapshot: () => snapshotOf(state),
        caughtUp: () => {
          for (const conversation of state.conversations.values()) current.schedule(conversation.conversationId);
        },
      };
    },
  });
  // Spec §9's response time: a side its owner leaves unanswered goes back to its agent (response-time-keeper.ts).
  const responseTimes = startResponseTimeKeeper(context);
  return {
    async close() {
      negotiator?.close();
      await responseTimes.close();
      await reactor.close();
    },
  };
}
