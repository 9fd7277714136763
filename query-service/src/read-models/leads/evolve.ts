import {
  agentsView,
  evolveAgent,
  leadStatusOf,
  type Agent,
  type DomainEvent,
  type LeadStatus,
  type LeadUrgency,
  type SourcingResult,
} from '@pf/events';
import type { DocumentProjection } from '../../projection-kit/document-projection';

/**
 * One of a user's agents seen as a lead: the agent as the shared agents view folds it, with what it takes to
 * say where it stands.
 */
export interface LeadDoc extends Agent {
  lastContact: string | null;
  /** Score per match it is in. */
  matches: Record<string, number>;
  /** Its conversations: open, or how they ended. */
  conversations: Record<string, 'open' | 'agreed' | 'ended'>;
  lastMatchRun: { requestId: string; requestedAt: string; finishedAt: string | null; newMatches: number | null } | null;
  /** A borrower's sourcing as its last answered Match recorded it (absent before any). */
  sourcing?: SourcingResult;
}

/**
 * Lead status: the one rule (leadStatusOf, events/src/success-rate.ts), which Active Leads counts too. Urgency
 * says what it needs from a person now: high when it has no counterpart (never matched, or every negotiation ended
 * without terms), medium while it negotiates, low when it has terms agreed or is paused.
 */
export function leadStanding(doc: LeadDoc): { status: LeadStatus; urgency: LeadUrgency } {
  const status: LeadStatus = leadStatusOf({ isActive: doc.isActive, matchCount: Object.keys(doc.matches).length });
  const ends = Object.values(doc.conversations);
  const urgency: LeadUrgency = !doc.isActive || ends.includes('agreed') ? 'low' : ends.includes('open') ? 'medium' : 'high';
  return { status, urgency };
}

const agentIds = (...ids: (number | null)[]) => ids.filter((id): id is number => id !== null).map(String);

/**
 * The agent's own events follow the agents view (evolveAgent); the board shows living agents only, so a deleted
 * agent's row goes, and with it its owner's data (the agents view keeps a deleted agent, rm_agents does).
 */
function evolveLeadAgent(doc: LeadDoc | null, event: DomainEvent, at: string): LeadDoc | null {
  const agent = evolveAgent(doc, event, at);
  if (agent === doc) return doc;
  if (!agent || agent.isDeleted) return null;
  return { lastContact: null, matches: {}, conversations: {}, lastMatchRun: null, ...agent };
}

export function evolveLead(doc: LeadDoc | null, event: DomainEvent, at: string): LeadDoc | null {
  if (agentsView.keyOf(event) !== null) return evolveLeadAgent(doc, event, at);
  if (!doc) return doc;
  switch (event.type) {
    case 'MatchFound':
      return { ...doc, matches: { ...doc.matches, [event.data.matchId]: event.data.score } };
    case 'ConversationStarted':
      return { ...doc, lastContact: at, conversations: { ...doc.conversations, [event.data.conversationId]: 'open' } };
    case 'MessageSent':
      return { ...doc, lastContact: at };
    case 'ConversationCompleted': {
      const key = String(event.data.conversationId);
      if (!(key in doc.conversations)) return doc;
      const end = event.data.outcome === 'agreed' ? 'agreed' : 'ended';
      return { ...doc, conversations: { ...doc.conversations, [key]: end } };
    }
    case 'MatchRequested':
      return { ...doc, lastMatchRun: { requestId: event.data.requestId, requestedAt: at, finishedAt: null, newMatches: null } };
    case 'MatchRunCompleted':
      if (doc.lastMatchRun?.requestId !== event.data.requestId) return doc;
      return {
        ...doc,
        lastMatchRun: { ...doc.lastMatchRun, finishedAt: at, newMatches: event.data.matchIds.length },
        ...(event.data.sourcing ? { sourcing: event.data.sourcing } : {}),
      };
    default:
      return doc;
  }
}

export const leadsProjection: DocumentProjection<LeadDoc> = {
  name: 'leads',
  table: 'rm_lead_board',
  lookupFields: [],
  keyFields: ['conversations'],
  route: (event) => {
    const agentId = agentsView.keyOf(event);
    if (agentId !== null) return [{ ids: [String(agentId)] }];
    switch (event.type) {
      case 'MatchRequested':
      case 'MatchRunCompleted':
        return [{ ids: [String(event.data.agentId)] }];
      case 'MatchFound':
        return [{ ids: agentIds(event.data.borrowerAgentId, event.data.lenderAgentId, event.data.brokerAgentId) }];
      case 'ConversationStarted':
        return [{ ids: event.data.participants.map((p) => String(p.agentId)) }];
      case 'MessageSent':
        return [{ ids: agentIds(event.data.fromAgentId, event.data.toAgentId) }];
      case 'ConversationCompleted':
        return [{ hasKey: { field: 'conversations', key: String(event.data.conversationId) } }];
      case 'AccountDeleted':
        return [{ owner: event.data.userId }];
      default:
        return [];
    }
  },
  evolve: evolveLead,
  // Seen by its agent's firm (visibility.ts: canSeeAgent).
  owners: (doc) => [doc.firmId],
};
