import { describe, expect, it } from 'vitest';
import { clearControlRequest, controlRequestIn, forgetPresence, namesOf, notePresence, presenceIn, subscribePresence } from './presence';

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
    clearControlRequest(3); // nothing to clear: no call
    expect(controlRequestIn(3)).toBeNull();
    stop();
    expect(calls).toBe(2);
  });
});
