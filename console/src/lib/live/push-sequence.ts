import { compareTokens } from '@pf/events';

/**
 * Ordering of pushes on /ws. Every push carries its position and the position of the previous push on the same
 * socket: a push at or before the last one seen is a duplicate (dropped); one whose previous position is neither
 * the last push on this socket nor the last one seen anywhere means pushes were missed (a gap: refetch).
 */
export interface SequenceState {
  /** The furthest push applied, across reconnects. */
  readonly lastSeen: string | null;
  /** The last push received on the current socket; null on a fresh socket. */
  readonly socketPrevious: string | null;
}

export type Verdict = 'apply' | 'duplicate' | 'gap';

export const initialSequence: SequenceState = { lastSeen: null, socketPrevious: null };

export function onNewSocket(state: SequenceState): SequenceState {
  return { lastSeen: state.lastSeen, socketPrevious: null };
}

export function admitPush(
  state: SequenceState,
  push: { position: string; previousPosition: string | null },
): { verdict: Verdict; state: SequenceState } {
  if (state.lastSeen !== null && compareTokens(push.position, state.lastSeen) <= 0) {
    return { verdict: 'duplicate', state: { ...state, socketPrevious: push.position } };
  }
  const follows =
    push.previousPosition === state.socketPrevious ||
    (push.previousPosition !== null && push.previousPosition === state.lastSeen);
  return {
    verdict: follows ? 'apply' : 'gap',
    state: { lastSeen: push.position, socketPrevious: push.position },
  };
}
