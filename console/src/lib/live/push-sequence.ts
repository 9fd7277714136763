import { compareTokens } from '@pf/events';

/**
 * Ordering of pushes on /ws. Every push carries its position and the position of the previous push on the same
 * socket. One event may give several pushes at the same position (an agent's change and the stats it moved),
 * so a push is a duplicate when it is before the last position seen, or at it with a key already seen there.
 * A push whose previous position is neither the last push on this socket nor the last one seen anywhere means
 * pushes were missed: a gap, answered by a refetch.
 */
export interface SequenceState {
  /** The furthest position applied, across reconnects. */
  readonly lastSeen: string | null;
  /** What was applied at lastSeen (push type and subject). */
  readonly keysAtLast: readonly string[];
  /** The last push received on the current socket; null on a fresh socket. */
  readonly socketPrevious: string | null;
}

export type Verdict = 'apply' | 'duplicate' | 'gap';

export interface SequencedPush {
  position: string;
  previousPosition: string | null;
  /** Says what the push is about, e.g. "agent_updated:5". */
  key: string;
}

export const initialSequence: SequenceState = { lastSeen: null, keysAtLast: [], socketPrevious: null };

export function onNewSocket(state: SequenceState): SequenceState {
  return { ...state, socketPrevious: null };
}

export function admitPush(state: SequenceState, push: SequencedPush): { verdict: Verdict; state: SequenceState } {
  const order = state.lastSeen === null ? 1 : compareTokens(push.position, state.lastSeen);
  if (order < 0 || (order === 0 && state.keysAtLast.includes(push.key))) {
    return { verdict: 'duplicate', state: { ...state, socketPrevious: push.position } };
  }
  if (order === 0) {
    return {
      verdict: 'apply',
      state: { ...state, keysAtLast: [...state.keysAtLast, push.key], socketPrevious: push.position },
    };
  }
  const follows =
    push.previousPosition === state.socketPrevious || (push.previousPosition !== null && push.previousPosition === state.lastSeen);
  return {
    verdict: follows ? 'apply' : 'gap',
    state: { lastSeen: push.position, keysAtLast: [push.key], socketPrevious: push.position },
  };
}
