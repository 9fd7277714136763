import {
  applyDealEvent,
  dealFromOpening,
  dealsView,
  evolveMatch,
  matchesView,
  conversationFirms,
  type ConversationOutcome,
  type DealFacts,
  type DomainEvent,
  type Match,
  type MatchStage,
  type MatchStatus,
} from '@pf/events';
import type { DocumentProjection } from '../../projection-kit/document-projection';
import { withoutOwner } from '../../projection-kit/json-rows-projection';

/**
 * A match as the matcher found it (the shared matches view), followed through its conversation and, once terms
 * are agreed, its deal.
 */
export interface MatchDoc extends Match {
  /** Names and owners as the conversation's participants list gives them (MatchFound names only ids). */
  names: Record<string, string>;
  owners: string[];
  conversationId: number | null;
  outcome: ConversationOutcome | 'open' | null;
  /** Its deal's id, apart so that the deal's later events find the row (a lookup field). */
  dealId: string | null;
  deal: MatchDeal | null;
}

/**
 * A match's deal, opened from the terms agreed in its conversation: as the deals view's rules fold it
 * (dealFromOpening, applyDealEvent), kept to what the match board shows (not who may see the deal: the match's owners do).
 */
type MatchDeal = Pick<DealFacts, 'id' | 'status' | 'stage' | 'loanAmount' | 'propertyAddress' | 'targetCompletion'>;

function matchDeal(doc: MatchDoc, event: DomainEvent): MatchDeal | null {
  if (event.type !== 'DealOpened') return doc.deal && applyDealEvent(doc.deal, event);
  if (doc.deal) return doc.deal;
  const { id, status, stage, loanAmount, propertyAddress, targetCompletion } = dealFromOpening(event.data);
  return { id, status, stage, loanAmount, propertyAddress, targetCompletion };
}

/**
 * Match stage follows the conversation and the deal: negotiation until terms are agreed, documentation
 * while the deal moves through its stages, completed when the deal completes. Status: active while negotiating,
 * progressing once a deal is open, completed with it; closed when the negotiation ended without terms or the
 * deal was cancelled (a value the spec's sample does not show).
 */
export function matchProgress(doc: MatchDoc): { stage: MatchStage; status: MatchStatus } {
  const stage: MatchStage = doc.deal?.stage === 'completed' ? 'completed' : doc.dealId ? 'documentation' : 'negotiation';
  const closed = doc.deal?.status === 'cancelled' || (!doc.dealId && (doc.outcome === 'no_agreement' || doc.outcome === 'stopped'));
  const status: MatchStatus = closed ? 'closed' : stage === 'completed' ? 'completed' : doc.dealId ? 'progressing' : 'active';
  return { stage, status };
}

export function evolveMatchDoc(doc: MatchDoc | null, event: DomainEvent, at: string): MatchDoc | null {
  if (matchesView.keyOf(event) !== null) {
    const match = evolveMatch(doc, event, at);
    return match === doc
      ? doc
      : match && { names: {}, owners: [], conversationId: null, outcome: null, dealId: null, deal: null, ...match };
  }
  if (!doc) return doc;
  switch (event.type) {
    case 'ConversationStarted': {
      const { participants, conversationId } = event.data;
      return {
        ...doc,
        conversationId,
        outcome: 'open',
        names: Object.fromEntries(participants.map((p) => [String(p.agentId), p.name])),
        // Seen by the firms of its agents (visibility.ts: conversationFirms).
        owners: conversationFirms({ participants }),
      };
    }
    case 'ConversationCompleted':
      return { ...doc, outcome: event.data.outcome };
    case 'AccountDeleted':
      return withoutOwner(doc, event.data.userId);
    default: {
      if (dealsView.keyOf(event) === null) return doc;
      const deal = matchDeal(doc, event);
      return deal === doc.deal ? doc : { ...doc, dealId: deal?.id ?? null, deal };
    }
  }
}

export const matchesProjection: DocumentProjection<MatchDoc> = {
  name: 'matches',
  table: 'rm_match_board',
  lookupFields: ['conversationId', 'dealId'],
  route: (event) => {
    switch (event.type) {
      case 'MatchFound':
        return [{ ids: [event.data.matchId] }];
      case 'ConversationStarted':
        return event.data.matchId ? [{ ids: [event.data.matchId] }] : [];
      case 'ConversationCompleted':
        return [{ where: { field: 'conversationId', value: String(event.data.conversationId) } }];
      case 'DealOpened':
        return event.data.agreedInConversationId === null
          ? []
          : [{ where: { field: 'conversationId', value: String(event.data.agreedInConversationId) } }];
      case 'DealStatusChanged':
      case 'DealStageChanged':
      case 'DealEdited':
        return [{ where: { field: 'dealId', value: event.data.dealId } }];
      case 'AccountDeleted':
        return [{ owner: event.data.userId }];
      default:
        return [];
    }
  },
  evolve: evolveMatchDoc,
  owners: (doc) => doc.owners,
};
