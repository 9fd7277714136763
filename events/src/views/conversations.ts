import type { ConversationOutcome, ConversationView, Participant, SideControl } from '../conversation';
import type { DomainEvent, EventOf } from '../domain-events';
import type { View } from './view';
import { firmOf } from '../firm';
import { asViewer, isOwnSide, type Viewer, type ViewerOrUser } from '../visibility';

/** One side taken over by a person: the owner whose agents are silent, who took it and from which session. */
export interface ManualSide extends SideHolder {
  ownerId: string;
  since: string;
}

/** A conversation with who takes part (as they were when it started: names and owners do not follow later edits). */
export interface Conversation {
  id: number;
  title: string;
  status: 'active' | 'completed';
  outcome: ConversationOutcome | null;
  /** True while any side is manual (lists count these); per side, see manualSides. */
  isManualMode: boolean;
  /** The sides a person has taken over, at most one entry per owner. */
  manualSides: ManualSide[];
  matchId: string | null;
  participants: Participant[];
  createdAt: string;
  updatedAt: string;
}

function conversationIdOf(event: DomainEvent): number | null {
  switch (event.type) {
    case 'ConversationStarted':
    case 'ManualModeChanged':
    case 'MessageSent':
    case 'ConversationCompleted':
    case 'OfferMade':
    case 'OfferAccepted':
    case 'OfferRejected':
      return event.data.conversationId;
    default:
      // DealAgreed names a conversation but is the deals view's; the ConversationCompleted after it is this one's.
      return null;
  }
}

/** The participant an agent is in this conversation; an agent that is not one has no part in it. */
export function participantOf(conversation: Conversation, agentId: number): Participant | undefined {
  return conversation.participants.find((participant) => participant.agentId === agentId);
}

/**
 * The rules, the same for the read models, the gateway and the automation:
 * - a conversation exists from its first ConversationStarted; a second one changes nothing, and events
 *   about a conversation never started change nothing;
 * - `updatedAt` is the time of the last activity a person sees in it: its start, a mode switch, its
 *   completion, and every message and offer (made, accepted or rejected) of a participant;
 * - a message or offer from an agent that is not a participant is not part of the conversation: it changes
 *   nothing here, is not listed among its messages and is pushed to no one (see messageOf).
 */
export function evolveConversation(conversation: Conversation | null, event: DomainEvent, recordedAt: string): Conversation | null {
  if (event.type === 'ConversationStarted') {
    if (conversation) return conversation;
    const { conversationId, title, participants, matchId } = event.data;
    return {
      id: conversationId,
      title,
      status: 'active',
      outcome: null,
      isManualMode: false,
      manualSides: [],
      matchId,
      participants,
      createdAt: recordedAt,
      updatedAt: recordedAt,
    };
  }
  if (!conversation) return null;
  const touched = { ...conversation, updatedAt: recordedAt };
  switch (event.type) {
    case 'ManualModeChanged': {
      const manualSides = switchSides(conversation.manualSides, conversation, event, (owner, holder) => ({
        ownerId: owner,
        ...holder,
        since: recordedAt,
      }));
      return { ...touched, manualSides, isManualMode: manualSides.length > 0 };
    }
    case 'ConversationCompleted':
      return { ...touched, status: 'completed', outcome: event.data.outcome };
    case 'MessageSent':
    case 'OfferMade':
      return participantOf(conversation, event.data.fromAgentId) ? touched : conversation;
    case 'OfferAccepted':
    case 'OfferRejected':
      return participantOf(conversation, event.data.byAgentId) ? touched : conversation;
    default:
      return conversation;
  }
}

/** Who holds a side taken over: the person and the session (null for a takeover recorded before they were named). */
export interface SideHolder {
  byUserId: string | null;
  sessionId: string | null;
}

/**
 * The per-owner manual-sides rule, for every fold of a conversation (this view, and the conversation's decider,
 * which keeps its sides by owner): a takeover replaces that owner's entry (a second takeover by the same owner
 * from another session moves control there, to the end of the list); a hand-back removes it. An event without
 * ownerId (written before control was per side) switches every owner's side, as it did then. `hold` makes the
 * entry a fold keeps for an owner's side.
 */
export function switchSides<S extends { ownerId: string }>(
  sides: readonly S[],
  conversation: Pick<Conversation, 'participants'>,
  event: EventOf<'ManualModeChanged'>,
  hold: (ownerId: string, holder: SideHolder) => S,
): S[] {
  const { ownerId, isManualMode, byUserId, sessionId } = event.data;
  const owners = ownerId === undefined ? ownersOf(conversation) : [ownerId];
  const kept = sides.filter((side) => !owners.includes(side.ownerId));
  if (!isManualMode) return kept;
  return [...kept, ...owners.map((owner) => hold(owner, { byUserId: byUserId ?? null, sessionId: sessionId ?? null }))];
}

/** The side an owner's agents form in this conversation, if they are taken over. */
export function manualSideOf(conversation: Pick<Conversation, 'manualSides'>, ownerId: string): ManualSide | undefined {
  return conversation.manualSides.find((side) => side.ownerId === ownerId);
}

/** Whether an agent of this conversation is silenced: its owner's side is taken over by a person. */
export function isAgentSilenced(conversation: Pick<Conversation, 'manualSides' | 'participants'>, agentId: number): boolean {
  const owner = conversation.participants.find((participant) => participant.agentId === agentId)?.ownerId;
  return owner !== undefined && manualSideOf(conversation, owner) !== undefined;
}

export const conversationsView: View<number, Conversation> = { keyOf: conversationIdOf, evolve: evolveConversation };

/** The owners of its agents, once each: its sides (who may see it is its firms': visibility.ts). */
export function ownersOf(conversation: Pick<Conversation, 'participants'>): string[] {
  return [...new Set(conversation.participants.map((participant) => participant.ownerId))];
}

/** A person's display name by user id, or null when unknown (the names live outside the events: personal data). */
export type NameOf = (userId: string) => string | null;

/**
 * Who controls each side, as one viewer is shown it: a side is the agents of one owner, and it is the viewer's
 * ("mine") when it is their firm's; session ids only of the viewer's firm's sides.
 */
export function controlFor(conversation: Conversation, viewerOrUser: ViewerOrUser, nameOf: NameOf = () => null): SideControl[] {
  const viewer = asViewer(viewerOrUser);
  return ownersOf(conversation).map((owner) => {
    const side = manualSideOf(conversation, owner);
    const isMine = conversation.participants.some((p) => p.ownerId === owner && isOwnSide(p, viewer.firmId));
    const agentIds = conversation.participants.filter((p) => p.ownerId === owner).map((p) => p.agentId);
    if (!side) return { agentIds, isMine, isManual: false, controllerName: null, sessionId: null, since: null };
    return {
      agentIds,
      isMine,
      isManual: true,
      controllerName: nameOf(side.byUserId ?? owner),
      sessionId: isMine ? side.sessionId : null,
      since: side.since,
    };
  });
}

/** Who a conversation is shown to: a person of a firm (visibility.ts). */
export type ConversationViewer = Pick<Viewer, 'userId' | 'firmId'>;

/** The firm's name by firm id, or null when unknown (the other side's firm, named inside a shared conversation). */
export type FirmNameOf = (firmId: string) => string | null;

/**
 * What a person is shown of a conversation: isMine and isManualMode are relative to their firm (isManualMode:
 * one of their firm's sides is taken over); each participant names its firm (inside a shared conversation each
 * side sees the other's agent and firm); owners stay on the server.
 */
export function conversationViewFor(
  conversation: Conversation,
  viewerOrUser: ViewerOrUser,
  nameOf?: NameOf,
  firmNameOf: FirmNameOf = () => null,
): ConversationView {
  const viewer = asViewer(viewerOrUser);
  const { id, title, status, outcome, createdAt, updatedAt } = conversation;
  const participants = conversation.participants.map((p) => {
    const firmName = firmNameOf(firmOf(p));
    return {
      agentId: p.agentId,
      name: p.name,
      type: p.type,
      isMine: isOwnSide(p, viewer.firmId),
      ...(firmName === null ? {} : { firmName }),
    };
  });
  const isManualMode = conversation.manualSides.some((side) =>
    conversation.participants.some((p) => p.ownerId === side.ownerId && isOwnSide(p, viewer.firmId)),
  );
  return {
    id,
    title,
    status,
    outcome,
    isManualMode,
    control: controlFor(conversation, viewer, nameOf),
    participants,
    createdAt,
    updatedAt,
  };
}
