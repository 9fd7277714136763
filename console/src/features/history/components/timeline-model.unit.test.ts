import { describe, expect, it } from 'vitest';
import type { HistoryEvent } from '@pf/events';
import { axisTicks, filterKindOf, timelineModel } from './timeline-model';

const terms = { interestRate: 4.5, termYears: 25, loanAmount: 200_000, arrangementFee: 999 };
/** The data of events in full: the model reads each through the contract's reader, as the history answers it as stored. */
const offer = { conversationId: 1, offerId: 'o', round: 1 };
let n = 0;
function event(type: string, data: object, person = false, kind: HistoryEvent['kind'] = 'message'): HistoryEvent {
  n++;
  return {
    id: `e${n}`,
    position: `1:${n}`,
    stream: 'conversation-1',
    streamVersion: n,
    recordedAt: '2026-01-01T09:00:00.000Z',
    type,
    kind,
    actor: person
      ? { kind: 'person', userId: 'u', name: 'Ada Lovelace', sessionId: 's', agentId: null }
      : { kind: 'agent', agentId: 1, name: 'A' },
    summary: '',
    data,
    redacted: false,
    metadata: null,
    contentDigest: null,
    hash: null,
    previousHash: null,
  };
}

describe('timelineModel', () => {
  it('places messages and offers per side, marks what a person did, and spans each takeover', () => {
    const events = [
      event('ConversationStarted', {}, false, 'lifecycle'),
      event('OfferMade', { ...offer, fromAgentId: 2, toAgentId: 1, terms }, false, 'offer'),
      event('ManualModeChanged', { conversationId: 1, isManualMode: true }, true, 'control'),
      event('MessageSent', { conversationId: 1, messageId: 1, fromAgentId: 1, toAgentId: 2, content: 'Hello', isAutomated: false }, true),
      event('OfferMade', { ...offer, fromAgentId: 1, toAgentId: 2, terms: { ...terms, interestRate: 4.1 } }, true, 'offer'),
      event('ManualModeChanged', { conversationId: 1, isManualMode: false }, true, 'control'),
      event('ManualModeChanged', { conversationId: 1, isManualMode: true }, true, 'control'),
    ];
    const model = timelineModel(events);
    expect(model.sides).toEqual([2, 1]);
    expect(model.messages).toEqual([{ index: 3, agentId: 1, byPerson: true }]);
    expect(model.offers.map((o) => [o.index, o.agentId, o.terms.interestRate, o.byPerson])).toEqual([
      [1, 2, 4.5, false],
      [4, 1, 4.1, true],
    ]);
    expect(model.spans).toEqual([
      { from: 2, to: 5, who: 'Ada Lovelace' },
      { from: 6, to: null, who: 'Ada Lovelace' },
    ]);
    expect(events.map(filterKindOf)).toEqual(['other', 'offer', 'control', 'message', 'offer', 'control', 'control']);
  });
});

describe('axisTicks', () => {
  const at = (hh: number, mm: number, ss: number) => Date.UTC(2026, 0, 1, hh, mm, ss);
  const label = (time: number, resolution: 'day' | 'minute' | 'second') => {
    const d = new Date(time);
    const two = (n: number) => String(n).padStart(2, '0');
    const hm = `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`;
    return resolution === 'second' ? `${hm}:${two(d.getUTCSeconds())}` : resolution === 'day' ? `${d.getUTCDate()} Jan ${hm}` : hm;
  };

  it('labels to the minute when the minutes tell the ticks apart', () => {
    const times = [at(9, 0, 0), at(9, 5, 0), at(9, 10, 0), at(9, 15, 0)];
    expect(axisTicks(times, 6, label)).toEqual([
      { index: 0, label: '09:00' },
      { index: 1, label: '09:05' },
      { index: 2, label: '09:10' },
      { index: 3, label: '09:15' },
    ]);
  });

  it('goes to the second when minutes repeat, and never shows a label twice', () => {
    // Three events in one second, as a takeover, its message and its offer are recorded.
    const times = [at(12, 46, 10), at(12, 46, 39), at(12, 46, 39), at(12, 46, 39), at(12, 47, 2)];
    const ticks = axisTicks(times, 5, label);
    expect(ticks.map((t) => t.label)).toEqual(['12:46:10', '12:46:39', '12:47:02']);
    expect(new Set(ticks.map((t) => t.label)).size).toBe(ticks.length);
  });

  it('spreads at most the ticks that fit, and adds the date over days', () => {
    const times = Array.from({ length: 40 }, (_, i) => Date.UTC(2026, 0, 1 + Math.floor(i / 10), 9, i));
    const ticks = axisTicks(times, 4, label);
    expect(ticks.map((t) => t.index)).toEqual([0, 13, 26, 39]);
    expect(ticks[0]!.label).toBe('1 Jan 09:00');
  });
});
