import type { ConversationCommand, ConversationEvent, Participant } from '@pf/events';
import { Conflict, Forbidden, NotFound } from '@pf/infra';
import { firmOf, holderOf, sideName, USER_MESSAGES } from '@pf/events';
import { visibleTo, type ConversationState, type Started } from './state';

/**
 * Who controls each side of a conversation (docs/decisions/per-side-control.md): a side is one participant; a
 * person of the side's firm takes it over or hands it back, and the person holding it may hand it over to a
 * colleague who asked. Nobody takes a side another person holds: they ask, and the holder decides.
 */

type SetManualMode = Extract<ConversationCommand, { type: 'SetManualMode' }>;
type HandOverSide = Extract<ConversationCommand, { type: 'HandOverSide' }>;

/** The side of an agent the actor's firm may switch: a participant of the actor's firm (else 404 or 403). */
function ownSide(conversation: Started, agentId: number, firmId: string): Participant {
  const named = conversation.participants.find((p) => p.agentId === agentId);
  if (!named) throw new NotFound(`Agent ${agentId} takes no part in conversation ${conversation.conversationId}`);
  if (firmOf(named) !== firmId) {
    throw new Forbidden(`${named.name} belongs to another firm: you can take over or hand back only your own firm's agents`);
  }
  return named;
}

/**
 * The sides a switch names: those asked for, else (an API client of before sides were named; the console always
 * names them) on taking over the actor's own agents' sides, else their firm's first; on handing back, every
 * side of the firm the actor holds, else (nothing of theirs held) whatever side of the firm is held, so the
 * refusal says who has it.
 */
function sidesNamed(conversation: Started, command: SetManualMode, firmId: string): Participant[] {
  const named = command.agentIds ?? (command.agentId === undefined ? undefined : [command.agentId]);
  if (named) return [...new Set(named)].map((agentId) => ownSide(conversation, agentId, firmId));
  const firms = conversation.participants.filter((p) => firmOf(p) === firmId);
  if (command.isManualMode) {
    const own = firms.filter((p) => p.ownerId === command.actorId);
    return own.length > 0 ? own : firms.slice(0, 1);
  }
  const held = firms.filter((p) => conversation.manual[p.agentId]);
  const mine = held.filter((p) => holderOf(conversation.manual[p.agentId]!, p) === command.actorId);
  return mine.length > 0 ? mine : held.slice(0, 1);
}

/**
 * Take over or hand back sides. A side held by the actor in this session is already theirs (nothing recorded);
 * held by them in another session, or by a colleague, it is refused with who has it in words (ask for control).
 * Two takeovers at once are settled by the append's expected version; the loser is told here on retry.
 */
export function switchSides(state: ConversationState, command: SetManualMode): ConversationEvent[] {
  const firmId = command.actorFirmId;
  const conversation = visibleTo(state, command.conversationId, firmId);
  const events: ConversationEvent[] = [];
  for (const side of sidesNamed(conversation, command, firmId)) {
    const held = conversation.manual[side.agentId];
    if (command.isManualMode) {
      if (held) {
        if (holderOf(held, side) !== command.actorId) throw new Conflict(heldByColleague(side));
        if (held.sessionId === (command.sessionId ?? null)) continue;
        throw new Conflict(USER_MESSAGES.sideTakenElsewhere);
      }
    } else {
      if (!held) continue;
      if (holderOf(held, side) !== command.actorId) throw new Conflict(heldByColleague(side));
    }
    events.push(switched(command, side, command.isManualMode, command.actorId, command.sessionId));
  }
  return events;
}

/**
 * The holder gives a side to a person who asked for it: decided only while the actor holds it from this
 * session, to a person of the side's firm who may write; never to another firm, never taken by the asker.
 */
export function handOver(state: ConversationState, command: HandOverSide): ConversationEvent[] {
  const firmId = command.actorFirmId;
  const conversation = visibleTo(state, command.conversationId, firmId);
  const side = ownSide(conversation, command.agentId, firmId);
  const held = conversation.manual[side.agentId];
  if (!held) throw new Conflict(`Nobody has taken over ${sideName(side)}: there is nothing to hand over`);
  if (holderOf(held, side) !== command.actorId) throw new Forbidden(`Only the person holding ${sideName(side)} can hand it over`);
  if (held.sessionId && command.sessionId !== undefined && held.sessionId !== command.sessionId) {
    throw new Conflict(USER_MESSAGES.sideHeldElsewhere);
  }
  const { to } = command;
  if (to.firmId !== firmOf(side)) throw new Forbidden(`${capitalised(sideName(side))} can be handed over only to a person of its own firm`);
  if (!to.mayWrite) throw new Forbidden(`${capitalised(sideName(side))} can be handed over only to an Admin or an Operator`);
  if (to.userId === command.actorId && to.sessionId === held.sessionId) return [];
  const given = switched(command, side, true, to.userId, to.sessionId);
  return [{ ...given, data: { ...given.data, handedOverBy: command.actorId } }];
}

function switched(
  command: { conversationId: number },
  side: Participant,
  isManualMode: boolean,
  byUserId: string,
  sessionId: string | undefined,
): Extract<ConversationEvent, { type: 'ManualModeChanged' }> {
  return {
    type: 'ManualModeChanged',
    data: {
      conversationId: command.conversationId,
      isManualMode,
      agentId: side.agentId,
      agentIds: [side.agentId],
      byUserId,
      ...(sessionId ? { sessionId } : {}),
    },
  };
}

/** A side held by another person of the firm: "the borrower side (Harriet Cole) is held by a colleague…". */
const heldByColleague = (side: Participant) =>
  `${capitalised(sideName(side))} is held by another person of your firm: request control, and they can hand it over`;

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
