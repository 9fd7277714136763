import {
  firmOf,
  firmsOf,
  partyAgentIds,
  pounds,
  ratePercent,
  type DomainEvent,
  type EventMetadata,
  type NotificationPreferences,
  type NotificationPriority,
  type NotificationType,
} from '@pf/events';

/** The notification kinds a person can switch off (docs/behaviour/notifications.md). */
type NotificationKind = Extract<keyof NotificationPreferences, 'dealUpdates' | 'agentMatches' | 'messageAlerts' | 'systemAlerts'>;

/**
 * One notification for one firm: a firm's notifications are every member's (docs/decisions/firms-and-visibility.md),
 * addressed with the one visibility rule (events/src/visibility.ts).
 */
export interface Candidate {
  firmId: string;
  kind: NotificationKind;
  type: NotificationType;
  title: string;
  message: string;
  priority: NotificationPriority;
  link: string | null;
}

export interface Party {
  agentId: number;
  ownerId: string;
  /** Absent on agents from before firms: the owner's firm of one. */
  firmId?: string | null | undefined;
  name: string;
}

/** What deriving needs to know beyond the event: agents' owners and names, a conversation's title and parties. */
export interface Lookups {
  agent(agentId: number): Party | null;
  conversation(conversationId: number): { title: string; parties: Party[] } | null;
}

/**
 * The notifications an event gives, one per firm it matters to (the firms that may see what it concerns), with a priority read from the event (a
 * failed negotiation is high). Pure: the projection looks the parties up and obeys each person's preferences.
 */
export function notificationsOf(event: DomainEvent, metadata: EventMetadata, look: Lookups): Candidate[] {
  switch (event.type) {
    case 'MatchFound': {
      const borrower = look.agent(event.data.borrowerAgentId);
      const lender = look.agent(event.data.lenderAgentId);
      const broker = event.data.brokerAgentId === null ? null : look.agent(event.data.brokerAgentId);
      return firmsOf([borrower, lender, broker]).map((firmId) => ({
        firmId,
        kind: 'agentMatches',
        type: 'agent',
        title: 'New match found',
        message: `${borrower?.name ?? 'A borrower'} and ${lender?.name ?? 'a lender'} matched with a score of ${Math.round(event.data.score)}.`,
        priority: event.data.score >= 90 ? 'medium' : 'low',
        link: '/matching',
      }));
    }
    case 'OfferMade': {
      const from = look.agent(event.data.fromAgentId);
      const to = look.agent(event.data.toAgentId);
      // Only an offer from another firm's agent is news; the firm's own agents' offers are its own doing.
      if (!to || !from || firmOf(from) === firmOf(to)) return [];
      const t = event.data.terms;
      return [
        {
          firmId: firmOf(to),
          kind: 'messageAlerts',
          type: 'message',
          title: 'Offer received',
          message: `${from.name} offered ${to.name} ${pounds(t.loanAmount)} at ${ratePercent(t.interestRate)} over ${t.termYears} years (fee ${pounds(t.arrangementFee)}).`,
          priority: 'medium',
          link: `/conversations/${event.data.conversationId}`,
        },
      ];
    }
    case 'DealAgreed': {
      const d = event.data;
      const parties = [d.borrowerAgentId, d.lenderAgentId, d.brokerAgentId].map((id) => (id === null ? null : look.agent(id)));
      const borrower = parties[0];
      const lender = parties[1];
      return firmsOf(parties).map((firmId) => ({
        firmId,
        kind: 'dealUpdates',
        type: 'deal',
        title: 'Deal agreed',
        message: `${borrower?.name ?? 'The borrower'} and ${lender?.name ?? 'the lender'} agreed ${pounds(d.loanAmount)} at ${ratePercent(d.interestRate)} over ${d.termYears} years.`,
        priority: 'medium',
        link: `/conversations/${d.conversationId}`,
      }));
    }
    case 'ConversationCompleted': {
      if (event.data.outcome === 'agreed') return []; // DealAgreed says it
      const conversation = look.conversation(event.data.conversationId);
      if (!conversation) return [];
      const failed = event.data.outcome === 'no_agreement';
      return firmsOf(conversation.parties).map((firmId) => ({
        firmId,
        kind: 'dealUpdates',
        type: 'deal',
        title: failed ? 'Deal failed' : 'Negotiation stopped',
        message: `${conversation.title} ended without a deal: ${event.data.reason}`,
        priority: failed ? 'high' : 'medium',
        link: `/conversations/${event.data.conversationId}`,
      }));
    }
    case 'ManualModeChanged': {
      // The side's owner took their own agents over (control per side): news to the conversation's other owners.
      const actorId = event.data.byUserId ?? event.data.ownerId ?? (metadata.actor.kind === 'user' ? metadata.actor.userId : null);
      if (!event.data.isManualMode || !actorId) return [];
      const conversation = look.conversation(event.data.conversationId);
      if (!conversation) return [];
      const taken = event.data.agentIds
        ? conversation.parties.filter((p) => event.data.agentIds!.includes(p.agentId))
        : conversation.parties.filter((p) => p.ownerId === actorId);
      const theirs = taken.map((p) => p.name);
      const side = theirs.length > 0 ? `The operator of ${theirs.join(' and ')}` : 'Another operator';
      // News to the conversation's other firms: not to the firm whose side was taken (nor the actor's own firm).
      const takers = new Set([...firmsOf(taken), ...(taken.length === 0 ? [actorId] : [])]);
      return firmsOf(conversation.parties)
        .filter((firmId) => !takers.has(firmId))
        .map((firmId) => ({
          firmId,
          kind: 'messageAlerts',
          type: 'message',
          title: 'Conversation taken over',
          message: `${side} took manual control of ${conversation.title}.`,
          priority: 'medium',
          link: `/conversations/${event.data.conversationId}`,
        }));
    }
    case 'ConversationStalled': {
      // The system's own notice: the automation could not make a move after several tries (it goes on trying).
      const conversation = look.conversation(event.data.conversationId);
      if (!conversation) return [];
      const stuck = event.data.agentId === null ? null : conversation.parties.find((p) => p.agentId === event.data.agentId);
      return firmsOf(conversation.parties).map((firmId) => ({
        firmId,
        kind: 'systemAlerts',
        type: 'system',
        title: 'Negotiation stalled',
        message: `${stuck ? `${stuck.name} could not make its move in` : 'The agents could not move on in'} ${conversation.title}: ${event.data.reason}. It keeps trying; you can take over your side.`,
        priority: 'high',
        link: `/conversations/${event.data.conversationId}`,
      }));
    }
    default:
      return [];
  }
}

/** The agents and conversations an event names, to look up before deriving. */
export function namesOf(event: DomainEvent): { agents: number[]; conversations: number[] } {
  switch (event.type) {
    case 'MatchFound':
    case 'DealAgreed':
      return { agents: partyAgentIds(event.data), conversations: [] };
    case 'OfferMade':
      return { agents: [event.data.fromAgentId, event.data.toAgentId], conversations: [] };
    case 'ConversationCompleted':
    case 'ManualModeChanged':
    case 'ConversationStalled':
      return { agents: [], conversations: [event.data.conversationId] };
    default:
      return { agents: [], conversations: [] };
  }
}
