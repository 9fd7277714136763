import { describe, expect, it } from 'vitest';
import type { HistoryEvent } from '@pf/events';
import { filterKindOf, timelineModel } from './timeline-model';

const terms = { interestRate: 4.5, termYears: 25, loanAmount: 200_000, arrangementFee: 999 };
let n = 0;
function event(type: string, data: object, person = false, kind: HistoryEvent['kind'] = 'message'): HistoryEvent {
  n++;
  return {
    id: `e${n}`, position: `1:${n}`, stream: 'conversation-1', streamVersion: n, recordedAt: '2026-01-01T09:00:00.000Z', type, kind,
    actor: person ? { kind: 'person', userId: 'u', name: 'Ada Lovelace', sessionId: 's', agentId: null } : { kind: 'agent', agentId: 1, name: 'A' },
    summary: '', data, redacted: false, metadata: null, contentDigest: null, hash: null, previousHash: null,
  };
}

describe('timelineModel', () => {
  it('places messages and offers per side, marks what a person did, and spans each takeover', () => {
    const events = [
      event('ConversationStarted', {}, false, 'lifecycle'),
      event('OfferMade', { fromAgentId: 2, terms }, false, 'offer'),
      event('ManualModeChanged', { isManualMode: true }, true, 'control'),
      event('MessageSent', { fromAgentId: 1 }, true),
      event('OfferMade', { fromAgentId: 1, terms: { ...terms, interestRate: 4.1 } }, true, 'offer'),
      event('ManualModeChanged', { isManualMode: false }, true, 'control'),
      event('ManualModeChanged', { isManualMode: true }, true, 'control'),
    ];
    const model = timelineModel(events);
    expect(model.sides).toEqual([2, 1]);
    expect(model.messages).toEqual([{ index: 3, agentId: 1, byPerson: true }]);
    expect(model.offers.map((o) => [o.index, o.agentId, o.terms.interestRate, o.byPerson])).toEqual([[1, 2, 4.5, false], [4, 1, 4.1, true]]);
    expect(model.spans).toEqual([{ from: 2, to: 5, who: 'Ada Lovelace' }, { from: 6, to: null, who: 'Ada Lovelace' }]);
    expect(events.map(filterKindOf)).toEqual(['other', 'offer', 'control', 'message', 'offer', 'control', 'control']);
  });
});
