import { describe, expect, it } from 'vitest';
import type { DomainEvent, Participant } from '@pf/events';
import type { HistoryRecord } from './load-history';
import { takeoversOf } from './takeovers';

const participants: Participant[] = [
  { agentId: 1, ownerId: 'alice', name: 'Harriet Cole', type: 'borrower' },
  { agentId: 2, ownerId: 'bob', name: 'Wessex Building Society', type: 'lender' },
];
const names: Record<string, string> = { alice: 'Alice Borrowes', bob: 'Bob Lendell' };
const personName = (userId: string) => names[userId] ?? 'Unknown';
const start = Date.parse('2026-11-23T10:00:00Z');

/** One stored event of conversation 7, `minute` minutes after the start, by a person (or an agent). */
function record(minute: number, event: DomainEvent, by: { userId: string; sessionId: string } | { agentId: number }): HistoryRecord {
  return {
    event,
    recorded: {
      id: `e${minute}`,
      type: event.type,
      stream: 'conversation-7',
      streamVersion: minute,
      position: { commit: BigInt(minute + 1), prepare: BigInt(minute + 1) },
      recordedAt: new Date(start + minute * 60_000),
      data: event.data,
      metadata: {
        actor: 'userId' in by ? { kind: 'user', ...by } : { kind: 'agent', agentId: by.agentId },
        correlationId: 'c',
        causationId: null,
      },
    },
  };
}
const alice = { userId: 'alice', sessionId: 's-alice' };
const bob = { userId: 'bob', sessionId: 's-bob' };
const side = (owner: 'alice' | 'bob', isManualMode: boolean): DomainEvent => ({
  type: 'ManualModeChanged',
  data: {
    conversationId: 7,
    isManualMode,
    ownerId: owner,
    agentIds: [owner === 'alice' ? 1 : 2],
    byUserId: owner,
    sessionId: `s-${owner}`,
  },
});
const says = (messageId: number, fromAgentId: number, content: string, isAutomated = false): DomainEvent => ({
  type: 'MessageSent',
  data: { conversationId: 7, messageId, fromAgentId, toAgentId: fromAgentId === 1 ? 2 : 1, content, isAutomated },
});

describe('takeovers per side', () => {
  it('keeps one span per side: both sides held at once, and a hand-back closes only its own side', () => {
    const records = [
      record(0, side('alice', true), alice),
      record(1, side('bob', true), bob),
      record(2, says(1, 1, 'We could accept 4.6% over 25 years.'), alice),
      record(3, says(2, 2, '4.8% is our best.'), bob),
      record(4, side('alice', false), alice),
      record(6, says(3, 2, 'Still there?'), bob),
    ];
    const spans = takeoversOf(records, participants, new Date(start + 10 * 60_000), personName);
    expect(spans).toHaveLength(2);
    const [aliceSpan, bobSpan] = spans;
    expect(aliceSpan).toMatchObject({
      userId: 'alice',
      name: 'Alice Borrowes',
      sessionId: 's-alice',
      agentIds: [1],
      endedAt: new Date(start + 4 * 60_000).toISOString(),
      endedBy: null,
      durationMs: 4 * 60_000,
    });
    expect(aliceSpan!.messages.map((m) => m.content)).toEqual(['We could accept 4.6% over 25 years.']);
    // Alice's hand-back left Bob's side held: still open, measured to `until`, with both of his messages.
    expect(bobSpan).toMatchObject({
      userId: 'bob',
      name: 'Bob Lendell',
      agentIds: [2],
      endedAt: null,
      endPosition: null,
      durationMs: 9 * 60_000,
    });
    expect(bobSpan!.messages.map((m) => m.content)).toEqual(['4.8% is our best.', 'Still there?']);
  });

  it("opens a side's second span after its hand-back, and ignores agents' own messages", () => {
    const records = [
      record(0, side('bob', true), bob),
      record(1, side('bob', false), bob),
      record(2, says(1, 2, 'Automated reply', true), { agentId: 2 }),
      record(3, side('bob', true), { userId: 'bob', sessionId: 's-bob-2' }),
    ];
    const spans = takeoversOf(records, participants, new Date(start + 5 * 60_000), personName);
    expect(spans.map((s) => [s.sessionId, s.durationMs, s.messages.length])).toEqual([
      ['s-bob', 60_000, 0],
      ['s-bob-2', 2 * 60_000, 0],
    ]);
  });

  it('reads events from before control per side (no ownerId) as holding the whole conversation', () => {
    const legacy = (isManualMode: boolean): DomainEvent => ({ type: 'ManualModeChanged', data: { conversationId: 7, isManualMode } });
    const records = [record(0, legacy(true), alice), record(1, says(1, 2, 'As the lender'), alice), record(3, legacy(false), bob)];
    const [span, ...rest] = takeoversOf(records, participants, new Date(start + 9 * 60_000), personName);
    expect(rest).toEqual([]);
    expect(span).toMatchObject({ userId: 'alice', agentIds: [1, 2], durationMs: 3 * 60_000, endedBy: 'Bob Lendell' });
    expect(span!.messages.map((m) => m.content)).toEqual(['As the lender']);
  });
});
