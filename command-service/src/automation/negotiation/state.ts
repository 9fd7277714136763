/**
 * The state of one negotiation, evolved from the conversation's domain events (OfferMade, OfferAccepted,
 * OfferRejected, MessageSent, ManualModeChanged, ConversationCompleted), so a process manager can rebuild it by
 * replaying the stream and an auditor can replay exactly what was offered.
 */
import { switchesWholeConversation, type DomainEvent, type LoanTerms } from '@pf/events';
import type { NegotiationSetup } from './setup';
import type { Side } from './terms-space';

export interface OfferRecord {
  offerId: string;
  round: number;
  side: Side;
  fromAgentId: number;
  terms: LoanTerms;
  status: 'open' | 'rejected' | 'accepted' | 'superseded';
  /** Made by the person holding the side, not its agent. */
  byPerson?: true;
}

export interface NegotiationState {
  conversationId: number;
  setup: NegotiationSetup;
  offers: OfferRecord[];
  status: 'negotiating' | 'agreed' | 'ended';
  agreed: { offerId: string; terms: LoanTerms; byAgentId: number } | null;
  isManualMode: boolean;
  /** Messages sent per agent id, so an agent mentions unreadable criteria once and the broker speaks in turn. */
  messagesSent: Record<number, number>;
}

export function initialNegotiationState(conversationId: number, setup: NegotiationSetup): NegotiationState {
  return {
    conversationId,
    setup,
    offers: [],
    status: 'negotiating',
    agreed: null,
    isManualMode: false,
    messagesSent: {},
  };
}

export function sideOf(state: NegotiationState, agentId: number): Side | null {
  if (agentId === state.setup.borrower.agentId) return 'borrower';
  if (agentId === state.setup.lender.agentId) return 'lender';
  return null;
}

export function evolveNegotiation(state: NegotiationState, event: DomainEvent): NegotiationState {
  if (!('conversationId' in event.data) || event.data.conversationId !== state.conversationId) return state;
  switch (event.type) {
    case 'OfferMade': {
      const side = sideOf(state, event.data.fromAgentId);
      if (!side) return state;
      const earlier = state.offers.map((offer) => (offer.status === 'open' ? { ...offer, status: 'superseded' as const } : offer));
      const { offerId, round, fromAgentId, terms, byPerson } = event.data;
      const made: OfferRecord = { offerId, round, side, fromAgentId, terms, status: 'open', ...(byPerson ? { byPerson } : {}) };
      return { ...state, offers: [...earlier, made] };
    }
    case 'OfferRejected':
      return { ...state, offers: withStatus(state.offers, event.data.offerId, 'rejected') };
    case 'OfferAccepted': {
      const { offerId, terms, byAgentId } = event.data;
      return {
        ...state,
        offers: withStatus(state.offers, offerId, 'accepted'),
        status: 'agreed',
        agreed: { offerId, terms, byAgentId },
      };
    }
    case 'MessageSent': {
      if (event.data.reading) return state;
      const from = event.data.fromAgentId;
      return { ...state, messagesSent: { ...state.messagesSent, [from]: (state.messagesSent[from] ?? 0) + 1 } };
    }
    case 'ManualModeChanged':
      // Only a switch of the whole conversation (written before control was per side) stops the engine here;
      // a side taken over is silenced by the negotiator's per-agent check (isAgentSilenced), the other side goes on.
      return switchesWholeConversation(event) ? { ...state, isManualMode: event.data.isManualMode } : state;
    case 'ConversationCompleted':
      return state.status === 'agreed' ? state : { ...state, status: 'ended' };
    default:
      return state;
  }
}

export function lastOffer(state: NegotiationState): OfferRecord | undefined {
  return state.offers.at(-1);
}

export function offersBy(state: NegotiationState, side: Side): LoanTerms[] {
  return state.offers.filter((offer) => offer.side === side).map((offer) => offer.terms);
}

/**
 * The side's last offer made by the person who held it, if any: after a hand-back its agent continues from there and
 * never offers its side less (docs/behaviour/negotiation.md, "After a hand-back").
 */
export function personsStandingOffer(state: NegotiationState, side: Side): OfferRecord | undefined {
  return state.offers.filter((offer) => offer.side === side && offer.byPerson).at(-1);
}

export function hasSpoken(state: NegotiationState, agentId: number): boolean {
  return (state.messagesSent[agentId] ?? 0) > 0;
}

function withStatus(offers: OfferRecord[], offerId: string, status: OfferRecord['status']): OfferRecord[] {
  return offers.map((offer) => (offer.offerId === offerId ? { ...offer, status } : offer));
}
