import { describe, expect, it } from 'vitest';
import type { DomainEvent } from '@pf/events';
import { evolveSideClock, overdueSides, type SideClock } from './response-time';

const HOUR = 1000;
const participants = [
  { agentId: 1, ownerId: 'alice', name: 'Home', type: 'borrower' as const },
  { agentId: 2, ownerId: 'bob', name: 'Bank', type: 'lender' as const },
];
const started: DomainEvent = { type: 'ConversationStarted', data: { conversationId: 9, title: 'T', participants, matchId: null } };
const takeOver = (ownerId: string, isManualMode = true): DomainEvent => ({
  type: 'ManualModeChanged',
  data: { conversationId: 9, isManualMode, ownerId, agentIds: [] },
});
const says = (fromAgentId: number, messageId: number): DomainEvent => ({
  type: 'MessageSent',
  data: { conversationId: 9, messageId, fromAgentId, toAgentId: null, content: 'x', isAutomated: false },
});

/** Folds [event, at] pairs into one conversation's clock. */
function clockOf(events: [DomainEvent, number][]): Map<number, SideClock> {
  let clock: SideClock | null = null;
  for (const [event, at] of events) clock = evolveSideClock(clock, event, at);
  return new Map(clock ? [[9, clock]] : []);
}
const hoursOf = (responseTimes: Record<number, number>) => (agentId: number) => responseTimes[agentId];

describe('the agent response time, from the events alone', () => {
  it("counts from the other side's first unanswered speech, or from the takeover when that came later", () => {
    const clocks = clockOf([
      [started, 0],
      [takeOver('alice'), 0],
      [says(2, 1), 100],
      [says(2, 2), 900],
    ]);
    expect(overdueSides(clocks, hoursOf({ 1: 4 }), 100 + 4 * HOUR - 1, HOUR)).toEqual([]);
    expect(overdueSides(clocks, hoursOf({ 1: 4 }), 100 + 4 * HOUR, HOUR)).toEqual([
      { conversationId: 9, ownerId: 'alice', agentIds: [1], hours: 4, key: 'message:1' },
    ]);
    // Taken over after the lender spoke: the owner's time starts with the takeover.
    const late = clockOf([
      [started, 0],
      [says(2, 1), 100],
      [takeOver('alice'), 5000],
    ]);
    expect(overdueSides(late, hoursOf({ 1: 1 }), 5000 + HOUR - 1, HOUR)).toEqual([]);
    expect(overdueSides(late, hoursOf({ 1: 1 }), 5000 + HOUR, HOUR)).toHaveLength(1);
  });

  it('is not overdue once the owner answers, hands back, or the conversation ends; nor for an agent without a response time', () => {
    const base: [DomainEvent, number][] = [
      [started, 0],
      [takeOver('alice'), 0],
      [says(2, 1), 100],
    ];
    const far = 100 * HOUR;
    expect(overdueSides(clockOf([...base, [says(1, 2), 200]]), hoursOf({ 1: 1 }), far, HOUR)).toEqual([]);
    expect(overdueSides(clockOf([...base, [takeOver('alice', false), 200]]), hoursOf({ 1: 1 }), far, HOUR)).toEqual([]);
    expect(
      overdueSides(
        clockOf([...base, [{ type: 'ConversationCompleted', data: { conversationId: 9, outcome: 'stopped', reason: 'r' } }, 200]]),
        hoursOf({ 1: 1 }),
        far,
        HOUR,
      ),
    ).toEqual([]);
    expect(overdueSides(clockOf(base), hoursOf({}), far, HOUR)).toEqual([]);
    // Only the side held by hand: Bob's automated side owes nothing here, though Alice spoke after him.
    expect(overdueSides(clockOf([...base, [says(1, 2), 200]]), hoursOf({ 1: 1, 2: 1 }), far, HOUR)).toEqual([]);
    // A new speech by the lender after Alice's answer starts her time again, under its own key.
    expect(overdueSides(clockOf([...base, [says(1, 2), 200], [says(2, 3), 300]]), hoursOf({ 1: 1 }), far, HOUR)[0]?.key).toBe('message:3');
  });
});
