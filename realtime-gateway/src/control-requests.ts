import { evolveConversation, firmOf, holderOf, manualSideOf, sideName, streams, type Conversation, type Participant } from '@pf/events';
import type { EventStore, StoredEvent } from '@pf/infra';
import type { Connection } from './connection';
import { readEvent } from './read-event';
import type { Presence } from './presence';

/**
 * Requests for control of a side (docs/decisions/per-side-control.md): a person of the side's firm asks whoever
 * holds it (a colleague, or themself in another session); the request reaches only the holding session, on
 * whichever gateway copy it is (presence signals); the holder hands over (a command the conversation's decider
 * decides) or declines, and the asker is told in words. Nobody of another firm can ask.
 */

/**
 * The conversation as the store has it now: its own stream, folded with the shared view. The log's head (and so
 * this copy's index) can lag a takeover just committed while an older transaction elsewhere is still open.
 */
async function conversationNow(store: EventStore<StoredEvent>, conversationId: number): Promise<Conversation | null> {
  let conversation: Conversation | null = null;
  for (const recorded of await store.readStream(streams.conversation(conversationId))) {
    const event = readEvent(recorded);
    if (event) conversation = evolveConversation(conversation, event, recorded.recordedAt.toISOString());
  }
  return conversation;
}

type Answer = { ok: true } | { ok: false; message: string; status?: number };

const refused = (message: string, status?: number): Answer => ({ ok: false, message, ...(status ? { status } : {}) });

/** The side a request names, else (older consoles) the asker's firm's side held somewhere other than here. */
function sideAsked(conversation: Conversation, connection: Connection, agentId: number | undefined): Participant | string {
  if (agentId !== undefined) {
    return (
      conversation.participants.find((p) => p.agentId === agentId) ?? `Agent ${agentId} takes no part in conversation ${conversation.id}`
    );
  }
  const ours = conversation.participants.filter((p) => firmOf(p) === connection.user.firmId);
  const elsewhere = ours.find((p) => {
    const held = manualSideOf(conversation, p.agentId);
    return held !== undefined && held.sessionId !== connection.user.sessionId;
  });
  return elsewhere ?? ours[0] ?? `Conversation ${conversation.id} has no side of your firm`;
}

export async function requestControl(
  store: EventStore<StoredEvent>,
  presence: Presence,
  connection: Connection,
  conversationId: number,
  agentId: number | undefined,
): Promise<Answer> {
  const conversation = await conversationNow(store, conversationId);
  if (!conversation) return refused(`Conversation ${conversationId} not found`);
  const side = sideAsked(conversation, connection, agentId);
  if (typeof side === 'string') return refused(side);
  if (firmOf(side) !== connection.user.firmId) {
    return refused(`${capitalised(sideName(side))} is another firm's: you can request control only of your own firm's sides`, 403);
  }
  const held = manualSideOf(conversation, side.agentId);
  if (!held) return refused(`Nobody has taken over ${sideName(side)}: take it over instead`);
  const holder = holderOf(held, side);
  if (holder === connection.user.id && held.sessionId === connection.user.sessionId) {
    return refused(`You already have control of ${sideName(side)} here`);
  }
  await presence.requestControl(connection, conversationId, side.agentId, { userId: holder, sessionId: held.sessionId });
  return { ok: true };
}

/** The holder declines a request: only the person holding the side, and the asker is told (their session only). */
export async function declineControl(
  store: EventStore<StoredEvent>,
  presence: Presence,
  connection: Connection,
  conversationId: number,
  agentId: number,
  toSessionId: string,
): Promise<Answer> {
  const conversation = await conversationNow(store, conversationId);
  const side = conversation?.participants.find((p) => p.agentId === agentId);
  if (!conversation || !side) return refused(`Agent ${agentId} takes no part in conversation ${conversationId}`);
  const held = manualSideOf(conversation, agentId);
  if (!held || holderOf(held, side) !== connection.user.id || firmOf(side) !== connection.user.firmId) {
    return refused(`You do not hold ${sideName(side)}: only the person holding it answers a request for it`, 403);
  }
  await presence.declineControl(connection, conversationId, agentId, toSessionId);
  return { ok: true };
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
