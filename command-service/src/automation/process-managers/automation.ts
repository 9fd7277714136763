import { streams, type EventMetadata } from '@pf/events';
import type { RecordedEvent, ServiceContext } from '@pf/infra';
import { handleCommand } from '../../handle-command';
import { needDecider } from '../../need/need';
import { deterministicId } from './deterministic-id';
import { marketOf } from '../negotiation/list-price';
import { AUTOMATION_SNAPSHOT_FORMAT, restoreAutomationState, snapshotOf } from './automation-snapshot';
import { answerMatchRequest } from './answer-match-request';
import { matchAgent, stopAgent } from './matcher';
import { Negotiator } from './negotiator';
import { createLlmPhraser, type Phraser } from '../words/llm-phrasing';
import { startReactor, type Reactor } from './reactor';
import { startResponseTimeKeeper } from './response-time-keeper';

/**
 * The automated agents as one process manager: the matcher (agents created, edited, resumed →
 * matches and conversations; paused or deleted → their conversations stop) and the negotiator.
 */
export interface AutomationOptions {
  readonly phraser?: Phraser;
  /** The negotiator's jitter (Math.random unless a simulation supplies a seeded one). */
  readonly random?: () => number;
  /** The response-time keeper's clock (Date.now unless a simulation supplies its own; then it checks only when asked). */
  readonly now?: () => number;
}

export interface Automation extends Reactor {
  /** Moves scheduled or under way in the negotiator (0: idle until the next event). */
  pending(): number;
  /** Runs the response-time check now (with a simulation's clock, the only way it runs; otherwise also on its own timer). */
  checkResponseTimes(): Promise<void>;
}

export function startAutomation(context: ServiceContext, options: AutomationOptions | Phraser = {}): Automation {
  const { config, log } = context;
  const { phraser, random, now } = typeof options === 'function' ? { phraser: options, random: undefined, now: undefined } : options;
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
      const { rules, bankRatePercent } = marketOf(config);
      const state = restoreAutomationState(restored, rules, bankRatePercent);
      negotiator?.close();
      const current = new Negotiator(context, state, {
        settings: { deadlineRounds: config.NEGOTIATION_DEADLINE_ROUNDS, opener: 'borrower' },
        replyDelayMs: config.AGENT_REPLY_DELAY_MS,
        phrase,
        log,
        ...(random ? { random } : {}),
      });
      negotiator = current;
      const matchSettings = {
        threshold: config.MATCH_THRESHOLD,
        maxOpenConversations: config.MAX_OPEN_CONVERSATIONS,
        rules,
        bankRatePercent,
      };
      return {
        replay: (event) => state.observe(event),
        react: async (batch: readonly RecordedEvent[]) => {
          const touched = new Set<number>();
          for (const event of batch) {
            state.observe(event);
            switch (event.type) {
              case 'AgentUpdated':
                // An operator who edits a committed borrower's need opens it again (then it is matched anew).
                await reopenNeed(event, event.data.agentId, 'its operator edited the need');
                await matchAgent(context, state, event.data.agentId, event, matchSettings);
                break;
              case 'AgentCreated':
              case 'AgentResumed':
                await matchAgent(context, state, event.data.agentId, event, matchSettings);
                break;
              case 'MatchRequested':
                // Match on a committed borrower is its operator asking for another lender.
                await reopenNeed(event, event.data.agentId, 'its operator asked for another lender');
                await answerMatchRequest(context, state, event, matchSettings);
                break;
              case 'NeedReopened':
                await matchAgent(context, state, event.data.borrowerAgentId, event, matchSettings);
                break;
              case 'NeedCommitted':
                // The borrower's other conversations: its agent (or the lender's) leaves each (negotiator.ts).
                for (const other of state.conversations.values()) {
                  if (other.status === 'active' && other.negotiation?.setup.borrower.agentId === event.data.borrowerAgentId)
                    touched.add(other.conversationId);
                }
                break;
              case 'DealStatusChanged':
                if (event.data.status === 'cancelled') {
                  for (const [borrowerId, need] of state.needs) {
                    if (need.committed?.dealId === event.data.dealId)
                      await reopenNeed(event, borrowerId, 'its deal was cancelled', event.data.dealId);
                  }
                }
                break;
              case 'AgentPaused':
              case 'AgentDeleted':
                await stopAgent(context, state, event.data.agentId, event);
                break;
              case 'ConversationCompleted': {
                current.forget(event.data.conversationId);
                // A need held for a conversation that ended without agreeing is open again.
                const held =
                  event.data.outcome === 'agreed'
                    ? undefined
                    : [...state.needs].find(([, need]) => need.committed?.conversationId === event.data.conversationId);
                if (held)
                  await reopenNeed(
                    event,
                    held[0],
                    'the conversation it was committed for ended without agreement',
                    held[1].committed!.dealId,
                  );
                break;
              }
              default:
                break;
            }
            if ('conversationId' in event.data) touched.add(event.data.conversationId);
          }
          // A borrower whose conversation ended: its others are looked at again (an outside option may have gone).
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
  async function reopenNeed(cause: RecordedEvent, borrowerAgentId: number, reason: string, onlyIfDealId?: string): Promise<void> {
    const metadata: EventMetadata = {
      actor: { kind: 'system', name: 'automation' },
      correlationId: cause.metadata.correlationId,
      causationId: cause.id,
    };
    await handleCommand(
      context.store,
      streams.need(borrowerAgentId),
      needDecider,
      { type: 'ReopenNeed', borrowerAgentId, reason, ...(onlyIfDealId ? { onlyIfDealId } : {}) },
      metadata,
      (i) => deterministicId(`${cause.id}:reopen:${borrowerAgentId}:${i}`),
    );
  }

  // The agents' response time: a side its owner leaves unanswered goes back to its agent (response-time-keeper.ts).
  const responseTimes = startResponseTimeKeeper(context, now ? { now } : {});
  return {
    pending: () => negotiator?.pending ?? 0,
    checkResponseTimes: () => responseTimes.check(),
    async close() {
      negotiator?.close();
      await responseTimes.close();
      await reactor.close();
    },
  };
}
