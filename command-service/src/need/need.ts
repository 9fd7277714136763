import type { DomainEvent, EventOf } from '@pf/events';
import { Conflict } from '@pf/infra';
import type { Decider } from '../handle-command';

/**
 * A borrower's need (docs/decisions/one-commitment-per-need.md): the stream `need-{borrowerAgentId}` that every
 * agreement appends to, at its expected version, before the acceptance is recorded in the conversation. Two
 * conversations agreeing in the same instant both read the need open, both decide NeedCommitted, and only the
 * first append stands; the other is decided again, sees the commitment and is refused with the deal named.
 */
export type NeedEvent = EventOf<'NeedCommitted'> | EventOf<'NeedReopened'>;

export interface Commitment {
  /** The conversation that agreed it; null for a deal made by hand (New Deal: docs/behaviour/deals.md). */
  conversationId: number | null;
  dealId: string;
  lenderAgentId: number;
  lenderName: string;
}

export interface NeedState {
  committed: Commitment | null;
}

export type NeedCommand =
  | { type: 'CommitNeed'; borrowerAgentId: number; borrowerName: string; commitment: Commitment }
  /** `onlyIfDealId`: reopen only if the need is still held for that deal (a stale release changes nothing). */
  | { type: 'ReopenNeed'; borrowerAgentId: number; reason: string; onlyIfDealId?: string };

/**
 * The rule's switch, for one test only: the simulation shows that it catches a second commitment when the check
 * is removed (simulation/broken-rule.int.test.ts). Production code never changes it.
 */
export const commitmentRule = { enforced: true };

/** The commitment that stops `conversationId` from negotiating, if any: the need held for another conversation. */
export function committedElsewhere(need: NeedState | undefined, conversationId: number): Commitment | null {
  if (!commitmentRule.enforced || !need?.committed) return null;
  return need.committed.conversationId === conversationId ? null : need.committed;
}

/**
 * The words an operator (or a log) reads when a move is refused because the need is committed. They name neither
 * the lender nor the deal: the operator refused may be a losing lender's, told the outcome, not the winner
 * (docs/decisions/firms-and-visibility.md, "A losing side").
 */
function committedWords(borrowerName: string): string {
  return `${borrowerName} has agreed terms in another negotiation: this need is committed, so it negotiates nowhere else until its operator edits the need, asks for another lender, or the deal is cancelled`;
}

/** Refused because the need is committed to another agreement (the caller may end the conversation on it). */
export class NeedCommittedElsewhere extends Conflict {
  constructor(
    readonly borrowerName: string,
    readonly commitment: Commitment,
  ) {
    super(committedWords(borrowerName));
  }
}

function decide(command: NeedCommand, state: NeedState): NeedEvent[] {
  switch (command.type) {
    case 'CommitNeed': {
      const { commitment } = command;
      const held = state.committed;
      if (held && held.conversationId === commitment.conversationId && held.dealId === commitment.dealId) return [];
      if (held && commitmentRule.enforced) throw new NeedCommittedElsewhere(command.borrowerName, held);
      return [
        {
          type: 'NeedCommitted',
          data: {
            borrowerAgentId: command.borrowerAgentId,
            agreedInConversationId: commitment.conversationId,
            dealId: commitment.dealId,
            lenderAgentId: commitment.lenderAgentId,
            lenderName: commitment.lenderName,
          },
        },
      ];
    }
    case 'ReopenNeed': {
      const held = state.committed;
      if (!held || (command.onlyIfDealId !== undefined && held.dealId !== command.onlyIfDealId)) return [];
      return [{ type: 'NeedReopened', data: { borrowerAgentId: command.borrowerAgentId, reason: command.reason } }];
    }
    default: {
      const unhandled: never = command;
      throw new Error(`Unknown command ${JSON.stringify(unhandled)}`);
    }
  }
}

function evolve(state: NeedState, event: DomainEvent): NeedState {
  switch (event.type) {
    case 'NeedCommitted': {
      const { agreedInConversationId, dealId, lenderAgentId, lenderName } = event.data;
      return { committed: { conversationId: agreedInConversationId, dealId, lenderAgentId, lenderName } };
    }
    case 'NeedReopened':
      return { committed: null };
    default:
      return state;
  }
}

export const needDecider: Decider<NeedCommand, NeedState, NeedEvent> = {
  initialState: { committed: null },
  decide,
  evolve: evolve,
};
