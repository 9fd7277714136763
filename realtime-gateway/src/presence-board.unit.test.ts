import { describe, expect, it } from 'vitest';
import { PresenceBoard } from './presence-board';
import { MAX_SIGNAL_BYTES, viewingSignals } from './presence-signal';

const alice = { userId: 'alice', sessionId: 'a1', name: 'Alice Borrowes' };
const aliceElsewhere = { userId: 'alice', sessionId: 'a2', name: 'Alice Borrowes' };
const bob = { userId: 'bob', sessionId: 'b1', name: 'Bob Lendell' };

describe('the presence board', () => {
  it('shows each other session once, by name, never the viewer’s own, and the viewer’s account elsewhere as them', () => {
    const board = new PresenceBoard();
    expect(board.view(7, 'copy/1', alice, 1000)).toBe(true);
    board.view(7, 'copy/2', alice, 1000); // a second tab of the same session
    board.view(7, 'copy/3', aliceElsewhere, 1000);
    board.view(7, 'other-copy/1', bob, 1000);
    board.view(8, 'copy/4', bob, 1000);
    expect(board.seenBy(7, alice)).toEqual({
      viewers: [
        { name: 'Alice Borrowes', isYou: true },
        { name: 'Bob Lendell', isYou: false },
      ],
      typers: [],
    });
    expect(board.seenBy(7, bob).viewers).toEqual([
      { name: 'Alice Borrowes', isYou: false },
      { name: 'Alice Borrowes', isYou: false },
    ]);
    // A renewed announcement changes nothing shown; a new name does.
    expect(board.view(7, 'copy/1', alice, 2000)).toBe(false);
    expect(board.view(7, 'copy/1', { ...alice, name: 'Alice Cole' }, 2000)).toBe(true);
  });

  it('changes what is shown only when a session comes or goes, however many sockets it follows through', () => {
    const board = new PresenceBoard();
    const joined = Array.from({ length: 1000 }, (_, i) => board.view(7, `copy/${i}`, alice, 1000));
    expect(joined.filter(Boolean)).toHaveLength(1);
    expect(joined[0]).toBe(true);
    expect(board.view(7, 'copy/1000', bob, 1000)).toBe(true);
    expect(board.seenBy(7, bob).viewers).toEqual([{ name: 'Alice Borrowes', isYou: false }]);
    // The session's newest name is shown, whichever of its sockets announced it.
    expect(board.view(7, 'copy/999', { ...alice, name: 'Alice Cole' }, 1000)).toBe(true);
    expect(board.seenBy(7, bob).viewers).toEqual([{ name: 'Alice Cole', isYou: false }]);
    const left = Array.from({ length: 1000 }, (_, i) => board.leave(7, `copy/${i}`));
    expect(left.filter(Boolean)).toHaveLength(1);
    expect(left[999]).toBe(true);
    expect(board.seenBy(7, bob).viewers).toEqual([]);
    expect(board.sweep(1000)).toEqual([7]);
    expect(board.seenBy(7, alice)).toEqual({ viewers: [], typers: [] });
  });

  it('keeps the name a session last brought, however its older tabs are announced again', () => {
    const board = new PresenceBoard();
    board.view(7, 'copy/1', alice, 1000); // a tab opened before a profile edit
    expect(board.view(7, 'copy/2', { ...alice, name: 'Alice Cole' }, 1000)).toBe(true); // one opened after it
    // Heartbeats announce both tabs again, each with the name it had: nothing shown changes, nothing flips back.
    for (let beat = 0; beat < 3; beat++) {
      expect(board.view(7, 'copy/1', alice, 2000 + beat)).toBe(false);
      expect(board.view(7, 'copy/2', { ...alice, name: 'Alice Cole' }, 2000 + beat)).toBe(false);
    }
    expect(board.seenBy(7, bob).viewers).toEqual([{ name: 'Alice Cole', isYou: false }]);
  });

  it('forgets viewers and typers when their time runs out, and a viewer at once when they leave', () => {
    const board = new PresenceBoard();
    board.view(7, 'crashed/1', bob, 1000);
    board.view(7, 'alive/1', aliceElsewhere, 5000);
    board.typing(7, aliceElsewhere, 1500);
    expect(board.sweep(999)).toEqual([]);
    expect(board.sweep(1000)).toEqual([7]);
    expect(board.seenBy(7, alice)).toEqual({
      viewers: [{ name: 'Alice Borrowes', isYou: true }],
      typers: [{ name: 'Alice Borrowes', isYou: true }],
    });
    expect(board.stoppedTyping(7, aliceElsewhere)).toBe(true);
    expect(board.seenBy(7, alice).typers).toEqual([]);
    expect(board.leave(7, 'alive/1')).toBe(true);
    expect(board.leave(7, 'alive/1')).toBe(false);
    expect(board.seenBy(7, alice)).toEqual({ viewers: [], typers: [] });
  });
});

describe('heartbeat signals', () => {
  it('cut many viewers into NOTIFY payloads under the limit, losing none', () => {
    const entries = Array.from({ length: 200 }, (_, i) => ({
      socket: `copy/${i}`,
      conversationId: i + 1,
      userId: `user-${i}`,
      sessionId: `s-${i}`,
      name: `Zoë Ångström-${i}`,
    }));
    const signals = viewingSignals(entries, 30_000);
    expect(signals.length).toBeGreaterThan(1);
    for (const signal of signals) expect(Buffer.byteLength(JSON.stringify(signal))).toBeLessThan(MAX_SIGNAL_BYTES);
    expect(signals.flatMap((signal) => (signal.kind === 'viewing' ? signal.entries : []))).toEqual(entries);
  });
});
