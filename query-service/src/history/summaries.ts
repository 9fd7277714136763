import {
  moveReasonInWords,
  percentage,
  pounds,
  type DomainEvent,
  type EventMetadata,
  type HistoryActor,
  type HistoryKind,
  type LoanTerms,
  type MoveReason,
  type Participant,
} from '@pf/events';

/** What a summary needs besides the event: who takes part, and the names of the people who acted. */
export interface SummaryContext {
  readonly participants: readonly Participant[];
  readonly personName: (userId: string) => string;
  /** Their current profile photo's id, where the reader wants it (the thread draws it beside their messages). */
  readonly personPhoto?: (userId: string) => string | null;
}

const percent = (value: number) => percentage(value, 3);

/** " Why: …" for an automated move that records its reason (docs/behaviour/offers.md); nothing otherwise. */
const why = (reason: MoveReason | undefined) => (reason ? ` Why: ${moveReasonInWords(reason)}.` : '');

/** "4.1% over 25 years on a £200,000 loan, £999 fee": the four issues as people say them. */
function describeTerms(terms: LoanTerms): string {
  return `${percent(terms.interestRate)} over ${terms.termYears} years on a ${pounds(terms.loanAmount)} loan, ${pounds(terms.arrangementFee)} fee`;
}

function quote(text: string, max = 140): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return `“${flat.length > max ? `${flat.slice(0, max - 1)}…` : flat}”`;
}

function agentName(context: SummaryContext, agentId: number): string {
  const participant = context.participants.find((p) => p.agentId === agentId);
  return participant ? `${participant.name} (${participant.type})` : `agent ${agentId}`;
}

/** The agent an event speaks or acts for, when it names one. */
function agentOf(event: DomainEvent | null): number | null {
  if (!event) return null;
  switch (event.type) {
    case 'MessageSent':
    case 'OfferMade':
      return event.data.fromAgentId;
    case 'OfferAccepted':
    case 'OfferRejected':
      return event.data.byAgentId;
    case 'ManualModeChanged':
      // It names the side switched, not an agent acting: a person or the response-time rule switched it.
      return null;
    default:
      return 'agentId' in event.data ? event.data.agentId : null;
  }
}

/** Who acted: the person (and session) from the metadata, else the agent the event speaks for, else the system. */
export function actorOf(event: DomainEvent | null, metadata: EventMetadata, context: SummaryContext): HistoryActor {
  const agentId = agentOf(event);
  const actor = metadata.actor;
  if (actor.kind === 'user') {
    const photoId = context.personPhoto?.(actor.userId);
    return {
      kind: 'person',
      userId: actor.userId,
      name: context.personName(actor.userId),
      sessionId: actor.sessionId ?? null,
      agentId,
      ...(photoId ? { photoId } : {}),
    };
  }
  if (actor.kind === 'agent' || agentId !== null) {
    const id = actor.kind === 'agent' ? actor.agentId : agentId!;
    return { kind: 'agent', agentId: id, name: context.participants.find((p) => p.agentId === id)?.name ?? `Agent ${id}` };
  }
  return { kind: 'system', name: actor.name };
}

export function kindOf(type: string): HistoryKind {
  switch (type) {
    case 'MessageSent':
      return 'message';
    case 'OfferMade':
    case 'OfferAccepted':
    case 'OfferRejected':
      return 'offer';
    case 'ManualModeChanged':
      return 'control';
    case 'MatchFound':
      return 'match';
    case 'DealAgreed':
      return 'deal';
    case 'ConversationStarted':
    case 'ConversationCompleted':
    case 'ConversationStalled':
      return 'lifecycle';
    default:
      return 'agent';
  }
}

/** One plain British English sentence per event, for people who were not there. */
export function summarise(event: DomainEvent | null, type: string, actor: HistoryActor, context: SummaryContext): string {
  if (!event) return `A ${type} event this version of the console does not describe.`;
  const who = (agentId: number) => agentName(context, agentId);
  switch (event.type) {
    case 'ConversationStarted': {
      const names = event.data.participants.map((p) => `${p.name} (${p.type})`);
      return `Conversation “${event.data.title}” opened between ${names.join(', ')}.`;
    }
    case 'ManualModeChanged': {
      const person = actor.kind === 'person' ? actor.name : actor.kind === 'agent' ? actor.name : `The ${actor.name}`;
      // Since control is per side, the event names the side's agents; older events switched the whole conversation.
      const agentIds = event.data.agentIds ?? [];
      const side = agentIds.length > 0 ? agentIds.map(who).join(' and ') : null;
      if (event.data.isManualMode) {
        return side
          ? `${person} took manual control of ${side}, who falls silent.`
          : `${person} took manual control: the agents fall silent.`;
      }
      return side ? `${person} handed ${side} back to automatic negotiation.` : `${person} handed control back to the agents.`;
    }
    case 'MessageSent': {
      const by = actor.kind === 'person' || !event.data.isAutomated ? ' (written by a person)' : '';
      return `${who(event.data.fromAgentId)}${by} wrote: ${quote(event.data.content)}`;
    }
    case 'OfferMade':
      return `${who(event.data.fromAgentId)} offered ${event.data.product ? `the ${event.data.product.name}: ` : ''}${describeTerms(event.data.terms)} (round ${event.data.round}).${why(event.data.reason)}`;
    case 'OfferAccepted':
      return `${who(event.data.byAgentId)} accepted ${describeTerms(event.data.terms)}.${why(event.data.reason)}`;
    case 'OfferRejected':
      return `${who(event.data.byAgentId)} turned down the offer on the table.`;
    case 'ConversationCompleted': {
      const outcome = { agreed: 'terms agreed', no_agreement: 'no agreement', stopped: 'stopped' }[event.data.outcome];
      return `The conversation ended: ${outcome} (${event.data.reason}).`;
    }
    case 'DealAgreed': {
      const d = event.data;
      return `Deal recorded: ${pounds(d.loanAmount)} at ${percent(d.interestRate)} over ${d.termYears} years on a ${pounds(d.propertyValue)} property (LTV ${d.ltv}%), ${pounds(d.arrangementFee)} fee.`;
    }
    case 'MatchFound': {
      const broker = event.data.brokerAgentId === null ? '' : `, introduced by ${who(event.data.brokerAgentId)}`;
      return `The matcher paired ${who(event.data.borrowerAgentId)} with ${who(event.data.lenderAgentId)}${broker} (score ${Math.round(event.data.score)}).`;
    }
    case 'AgentCreated':
      return `${who(event.data.agentId)} was created.`;
    case 'AgentUpdated':
      return `${who(event.data.agentId)} had its details or criteria changed.`;
    case 'AgentPaused':
      return `${who(event.data.agentId)} was paused.`;
    case 'AgentResumed':
      return `${who(event.data.agentId)} was resumed.`;
    case 'AgentDeleted':
      return `${who(event.data.agentId)} was deleted.`;
    case 'ConversationStalled':
      return `The negotiation stalled: ${event.data.reason}`;
    case 'DealOpened':
    case 'DealStatusChanged':
    case 'DealStageChanged':
    case 'DealEdited':
    case 'DocumentUploaded':
    case 'DocumentStatusChanged':
    case 'DocumentDownloaded':
    case 'MatchRequested':
    case 'MatchRunCompleted':
    case 'UserProfileChanged':
    case 'NotificationPreferencesChanged':
    case 'SessionTimeoutChanged':
    case 'AgentDefaultsChanged':
    case 'ProfilePhotoChanged':
    case 'ProfilePhotoRemoved':
    case 'PaymentMethodAdded':
    case 'PaymentMethodUpdated':
    case 'InvoiceIssued':
    case 'AccountDeleted':
    case 'PasswordChanged':
    case 'TwoFactorEnabled':
    case 'TwoFactorDisabled':
    case 'RecoveryCodeUsed':
    case 'NotificationRead':
    case 'AllNotificationsRead':
    case 'FirmCreated':
    case 'FirmRenamed':
    case 'MemberInvited':
    case 'InvitationRevoked':
    case 'MemberJoined':
    case 'MemberRoleChanged':
    case 'MemberRemoved':
    case 'MemberLeft':
    case 'MembershipChanged':
    case 'NeedCommitted':
    case 'NeedReopened':
      // Not events of a conversation, its match or its agents, so a history never holds them; named if one did.
      return `A ${event.type} event, outside this conversation.`;
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}
