import type { PresentPerson } from '@pf/events';

/**
 * Who else has each conversation open and who is typing in it, and control requests from the account's other
 * sessions: passing state from the socket, kept outside the query cache (like typing.ts). Each value is
 * replaced, never changed in place, so useSyncExternalStore sees a change by reference.
 */
type Listener = () => void;

export interface PresenceState {
  readonly viewers: readonly PresentPerson[];
  readonly typers: readonly PresentPerson[];
}

export interface ControlRequest {
  readonly byName: string;
  readonly bySessionId: string;
  readonly at: string;
}

const NOBODY: PresenceState = { viewers: [], typers: [] };
const presence = new Map<number, PresenceState>();
const requests = new Map<number, ControlRequest>();
const listeners = new Set<Listener>();

function emit() {
  for (const listener of listeners) listener();
}

export function notePresence(conversationId: number, state: PresenceState): void {
  presence.set(conversationId, state);
  emit();
}

export function presenceIn(conversationId: number): PresenceState {
  return presence.get(conversationId) ?? NOBODY;
}

export function noteControlRequest(conversationId: number, request: ControlRequest): void {
  requests.set(conversationId, request);
  emit();
}

export function controlRequestIn(conversationId: number): ControlRequest | null {
  return requests.get(conversationId) ?? null;
}

/** Answered (handed over) or moot (this session no longer holds the side). */
export function clearControlRequest(conversationId: number): void {
  if (requests.delete(conversationId)) emit();
}

/** The socket reconnected: what it said of presence may be stale; the subscribes bring it again. */
export function forgetPresence(): void {
  presence.clear();
  emit();
}

export function subscribePresence(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** "Alice Cole", "Alice Cole and Bob Lee", "Alice Cole, Bob Lee and you (another session)". */
export function namesOf(people: readonly PresentPerson[]): string {
  const names = people.map((person) => (person.isYou ? 'you (another session)' : person.name));
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}
