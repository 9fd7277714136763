import type { PresentPerson } from '@pf/events';

/**
 * Who else has each conversation open and who is typing in it, requests for control of the sides this session
 * holds and the answers to its own: passing state from the socket, kept outside the query cache (like typing.ts). Each value is
 * replaced, never changed in place, so useSyncExternalStore sees a change by reference.
 */
type Listener = () => void;

export interface PresenceState {
  readonly viewers: readonly PresentPerson[];
  readonly typers: readonly PresentPerson[];
}

/** Someone asks for control of a side this session holds (docs/decisions/per-side-control.md). */
export interface ControlRequest {
  readonly agentId: number;
  readonly byName: string;
  readonly bySessionId: string;
  /** The viewer themself, in another session. */
  readonly isYou: boolean;
  readonly at: string;
}

/** The holder declined this session's request for a side. */
export interface ControlDecline {
  readonly agentId: number;
  readonly byName: string;
  readonly at: string;
}

const NOBODY: PresenceState = { viewers: [], typers: [] };
const presence = new Map<number, PresenceState>();
const requests = new Map<number, readonly ControlRequest[]>();
const declines = new Map<number, readonly ControlDecline[]>();
const NONE: readonly ControlRequest[] = [];
const NO_DECLINES: readonly ControlDecline[] = [];
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

/** A request for a side held here: the newest per side and asking session. */
export function noteControlRequest(conversationId: number, request: ControlRequest): void {
  const others = (requests.get(conversationId) ?? []).filter((r) => r.agentId !== request.agentId || r.bySessionId !== request.bySessionId);
  requests.set(conversationId, [...others, request]);
  emit();
}

export function controlRequestsIn(conversationId: number): readonly ControlRequest[] {
  return requests.get(conversationId) ?? NONE;
}

/** Answered (handed over or declined), or moot (this session no longer holds the side): `bySessionId` left out, every request for it. */
export function clearControlRequest(conversationId: number, agentId: number, bySessionId?: string): void {
  const before = requests.get(conversationId) ?? NONE;
  const after = before.filter((r) => r.agentId !== agentId || (bySessionId !== undefined && r.bySessionId !== bySessionId));
  if (after.length === before.length) return;
  requests.set(conversationId, after);
  emit();
}

export function noteControlDeclined(conversationId: number, decline: ControlDecline): void {
  declines.set(conversationId, [...(declines.get(conversationId) ?? []).filter((d) => d.agentId !== decline.agentId), decline]);
  emit();
}

export function controlDeclinesIn(conversationId: number): readonly ControlDecline[] {
  return declines.get(conversationId) ?? NO_DECLINES;
}

export function clearControlDecline(conversationId: number, agentId: number): void {
  const before = declines.get(conversationId) ?? NO_DECLINES;
  if (!before.some((d) => d.agentId === agentId)) return;
  declines.set(
    conversationId,
    before.filter((d) => d.agentId !== agentId),
  );
  emit();
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
