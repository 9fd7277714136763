import { describe, expect, it } from 'vitest';
import {
  clearControlRequest,
  controlRequestsIn,
  forgetPresence,
  namesOf,
  noteControlRequest,
  notePresence,
  presenceIn,
  subscribePresence,
} from './presence';

describe('presence in the console', () => {
  it('names people as a sentence, the account elsewhere as "you (another session)"', () => {
    expect(namesOf([])).toBe('');
    expect(namesOf([{ name: 'Alice Borrowes', isYou: false }])).toBe('Alice Borrowes');
    expect(
      namesOf([
        { name: 'Alice Borrowes', isYou: false },
        { name: 'Bob Lendell', isYou: false },
        { name: 'Carys Pennant', isYou: true },
      ]),
    ).toBe('Alice Borrowes, Bob Lendell and you (another session)');
  });

  it('replaces a conversation’s state by reference and tells listeners; a reconnect forgets it', () => {
    let calls = 0;
    const stop = subscribePresence(() => calls++);
    const before = presenceIn(3);
    notePresence(3, { viewers: [{ name: 'Bob Lendell', isYou: false }], typers: [] });
    expect(presenceIn(3)).not.toBe(before);
    expect(presenceIn(3).viewers).toEqual([{ name: 'Bob Lendell', isYou: false }]);
    forgetPresence();
    expect(presenceIn(3)).toEqual({ viewers: [], typers: [] });
    clearControlRequest(3, 11); // nothing to clear: no call
    expect(controlRequestsIn(3)).toEqual([]);
    stop();
    expect(calls).toBe(2);
  });

  it('keeps one request per side and asking session; answering one clears it, letting go of the side clears them all', () => {
    const ask = (agentId: number, bySessionId: string, byName = 'Ada Archer') => ({
      agentId,
      byName,
      bySessionId,
      isYou: false,
      at: 'now',
    });
    noteControlRequest(4, ask(11, 'a1'));
    noteControlRequest(4, ask(11, 'a1', 'Ada A. Archer'));
    noteControlRequest(4, ask(11, 'c1', 'Cal Crane'));
    noteControlRequest(4, ask(12, 'a1'));
    expect(controlRequestsIn(4).map((r) => [r.agentId, r.byName])).toEqual([
      [11, 'Ada A. Archer'],
      [11, 'Cal Crane'],
      [12, 'Ada Archer'],
    ]);
    clearControlRequest(4, 11, 'c1');
    expect(controlRequestsIn(4).map((r) => r.bySessionId)).toEqual(['a1', 'a1']);
    clearControlRequest(4, 11);
    expect(controlRequestsIn(4).map((r) => r.agentId)).toEqual([12]);
  });
});
