import { describe, expect, it } from 'vitest';
import { ENDED_OUTCOMES, leadStatusOf, rateText, successRate } from './success-rate';
import { CONVERSATION_OUTCOMES } from './conversation';

describe('the figures defined once (docs/behaviour/figures.md)', () => {
  it('counts every outcome as ended, so a stopped negotiation lowers the success rate', () => {
    expect([...ENDED_OUTCOMES].sort()).toEqual([...CONVERSATION_OUTCOMES].sort());
    // 13 agreed of 24 ended: the "Success Rate 100%" beside "Conversion Rate 54.2%" came from leaving out 11 stopped.
    expect(successRate(13, 24)).toBe(54.2);
    expect(successRate(13, 13)).toBe(100);
    expect(successRate(0, 0)).toBeNull();
    expect(successRate(1, 3)).toBe(33.3);
  });

  it('writes a rate the same way on every screen', () => {
    expect(rateText(54.2)).toBe('54.2%');
    expect(rateText(100)).toBe('100.0%');
    expect(rateText(null)).toBe('–');
  });

  it('calls a lead active only while it looks for a match and is not paused', () => {
    expect(leadStatusOf({ isActive: true, matchCount: 0 })).toBe('active');
    expect(leadStatusOf({ isActive: true, matchCount: 2 })).toBe('matched');
    expect(leadStatusOf({ isActive: false, matchCount: 0 })).toBe('cancelled');
    expect(leadStatusOf({ isActive: false, matchCount: 3 })).toBe('cancelled');
  });
});
