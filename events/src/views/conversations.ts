import type { ConversationOutcome, ConversationView, Participant, SideControl } from '../conversation';
import type { DomainEvent, EventOf } from '../domain-events';
import type { View } from './view';
import { firmOf } from '../firm';
import { asViewer, isOwnSide, type Viewer, type ViewerOrUser } from '../visibility';

/** One side taken over by a person: the participant whose agent is silent, who holds it and from which session. */
export interface ManualSide extends SideHolder {
  agentId: number;
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
  /** The sides a person has taken over, at most one entry per participant. */
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
export function participantOf(conversation: Pick<Conversation, 'participants'>, agentId: number): Participant | undefined {
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
      const manualSides = switchSides(conversation.manualSides, conversation, event, (agentId, holder) => ({
        agentId,
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
 * The sides a ManualModeChanged switched, read the way it was recorded (docs/decisions/per-side-control.md), the
 * one place every fold upgrades the older shapes: `agentId`, one participant (a side is one agent); `ownerId`
 * without it, the agents of that owner (`agentIds` as recorded, else the owner's participants); neither, every
 * side of the conversation (before control was per side).
 */
export function agentsSwitched(
  event: EventOf<'ManualModeChanged'>,
  participants: readonly Pick<Participant, 'agentId' | 'ownerId'>[],
): number[] {
  const { agentId, ownerId, agentIds } = event.data;
  if (agentId !== undefined) return [agentId];
  if (ownerId !== undefined) return agentIds?.length ? agentIds : participants.filter((p) => p.ownerId === ownerId).map((p) => p.agentId);
  return participants.map((p) => p.agentId);
}

/** Whether a ManualModeChanged switched the whole conversation at once (recorded before control was per side). */
export const switchesWholeConversation = (event: EventOf<'ManualModeChanged'>): boolean =>
  event.data.agentId === undefined && event.data.ownerId === undefined;

/**
 * The per-side rule, for every fold of a conversation (this view, the conversation's decider, the simulation): a
 * takeover or hand-over replaces the entry of each side it switched (moving it to the end of the list); a
 * hand-back removes it. `hold` makes the entry a fold keeps for a side.
 */
export function switchSides<S extends { agentId: number }>(
  sides: readonly S[],
  conversation: Pick<Conversation, 'participants'>,
  event: EventOf<'ManualModeChanged'>,
  hold: (agentId: number, holder: SideHolder) => S,
): S[] {
  const { isManualMode, byUserId, sessionId } = event.data;
  const switched = agentsSwitched(event, conversation.participants);
  const kept = sides.filter((side) => !switched.includes(side.agentId));
  if (!isManualMode) return kept;
  return [...kept, ...switched.map((agentId) => hold(agentId, { byUserId: byUserId ?? null, sessionId: sessionId ?? null }))];
}

/**
 * Sides as a read model stored them: rows folded before a side was one participant keep `ownerId`, read as that
 * owner's participants (as agentsSwitched reads the events they came from).
 */
export function storedSides(stored: readonly unknown[], participants: readonly Participant[]): ManualSide[] {
  return stored.flatMap((entry) => {
    const side = entry as Partial<ManualSide> & { ownerId?: string };
    const holder = { byUserId: side.byUserId ?? null, sessionId: side.sessionId ?? null, since: side.since ?? '' };
    if (typeof side.agentId === 'number') return [{ agentId: side.agentId, ...holder }];
    return participants.filter((p) => p.ownerId === side.ownerId).map((p) => ({ agentId: p.agentId, ...holder }));
  });
}

/** The person holding a side: who took it, or (a takeover recorded before they were named) its agent's owner. */
export const holderOf = (held: SideHolder, participant: Pick<Participant, 'ownerId'>): string => held.byUserId ?? participant.ownerId;

/** A side, when taken over. */
export function manualSideOf(conversation: Pick<Conversation, 'manualSides'>, agentId: number): ManualSide | undefined {
  return conversation.manualSides.find((side) => side.agentId === agentId);
}

/** Whether an agent of this conversation is silenced: its side is taken over by a person. */
export function isAgentSilenced(conversation: Pick<Conversation, 'manualSides' | 'participants'>, agentId: number): boolean {
  return participantOf(conversation, agentId) !== undefined && manualSideOf(conversation, agentId) !== undefined;
}

export const conversationsView: View<number, Conversation> = { keyOf: conversationIdOf, evolve: evolveConversation };

/** The owners of its agents, once each (who may see it is its firms': visibility.ts). */
export function ownersOf(conversation: Pick<Conversation, 'participants'>): string[] {
  return [...new Set(conversation.participants.map((participant) => participant.ownerId))];
}

/** A side as people name it: "the borrower side (Harriet Cole)". */
export function sideName(participant: Pick<Participant, 'type' | 'name'>): string {
  return `the ${participant.type} side (${participant.name})`;
}

/** A person's display name by user id, or null when unknown (the names live outside the events: personal data). */
export type NameOf = (userId: string) => string | null;

/**
 * Who controls each side, as one viewer is shown it: a side is one participant, it is the viewer's firm's
 * ("mine") when its agent is; who holds it (user and session ids) only to the side's own firm, so its console can
 * tell "you, here" from "you, in another session" and from a colleague. The same for every person of a firm.
 */
export function controlFor(conversation: Conversation, viewerOrUser: ViewerOrUser, nameOf: NameOf = () => null): SideControl[] {
  const viewer = asViewer(viewerOrUser);
  return conversation.participants.map((participant) => {
    const { agentId, type } = participant;
    const held = manualSideOf(conversation, agentId);
    const isMine = isOwnSide(participant, viewer.firmId);
    const base = { agentId, agentIds: [agentId], side: type, isMine };
    if (!held) return { ...base, isManual: false, controllerId: null, controllerName: null, sessionId: null, since: null };
    const holder = holderOf(held, participant);
    return {
      ...base,
      isManual: true,
      controllerId: isMine ? holder : null,
      controllerName: nameOf(holder),
      sessionId: isMine ? held.sessionId : null,
      since: held.since,
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
  const isManualMode = conversation.manualSides.some((side) => {
    const participant = participantOf(conversation, side.agentId);
    return participant !== undefined && isOwnSide(participant, viewer.firmId);
  });
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
