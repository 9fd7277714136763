import { describe, expect, it } from 'vitest';
import { withKnownMatch } from './conversation';
import { matchExplanation, recordedMatchExplanation } from './negotiation';

describe('a conversation view without its match (a command answer, a live push)', () => {
  const base = {
    id: 1,
    title: 't',
    status: 'active' as const,
    outcome: null,
    isManualMode: false,
    control: [],
    participants: [],
    createdAt: '',
    updatedAt: '',
  };
  const match = { score: 90, explanation: [{ criterion: 'Loan to value', verdict: 'pass' as const, detail: 'LTV 80%' }] };

  it('keeps the match an earlier view carried, and takes a newer one as given', () => {
    expect(withKnownMatch(base, { ...base, match })).toEqual({ ...base, match });
    expect(withKnownMatch({ ...base, match: null }, { ...base, match })).toEqual({ ...base, match: null });
    expect(withKnownMatch(base, undefined)).toEqual(base);
  });

  it('reads matches recorded in the old words (meets / near / fails) as pass / warn / fail', () => {
    expect(recordedMatchExplanation.parse([{ criterion: 'Rate', verdict: 'near', detail: 'Close' }])).toEqual([
      { criterion: 'Rate', verdict: 'warn', detail: 'Close' },
    ]);
    expect(recordedMatchExplanation.safeParse([{ criterion: 'Rate', verdict: 'maybe', detail: '' }]).success).toBe(false);
  });

  it('answers only in pass / warn / fail: the view schema has no one-way transform, so a route can encode it', () => {
    const explanation = [{ criterion: 'Rate', verdict: 'warn' as const, detail: 'Close' }];
    expect(matchExplanation.encode(explanation)).toEqual(explanation);
    expect(matchExplanation.safeParse([{ criterion: 'Rate', verdict: 'near', detail: 'Close' }]).success).toBe(false);
  });
});
