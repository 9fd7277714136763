import { describe, expect, it } from 'vitest';
import { BORROWER_CRITERIA, LENDER_CRITERIA } from '@pf/events/testing';
import type { MatchableAgent } from './matchable';
import { keptApartBySandbox } from './sandbox';

const settings = { threshold: 70, maxOpenConversations: 3 };
const agent = (
  agentId: number,
  type: MatchableAgent['type'],
  isDemo: boolean,
  criteria: MatchableAgent['criteria'] = type === 'lender' ? LENDER_CRITERIA : BORROWER_CRITERIA,
): MatchableAgent => ({
  agentId,
  ownerId: 'u1',
  firmId: 'f1',
  name: `Agent ${agentId}`,
  type,
  criteria,
  isActive: true,
  ...(isDemo ? { isDemo: true as const } : {}),
});

describe('keptApartBySandbox: whether the sandbox rule is why Match found nothing (docs/behaviour/matching.md)', () => {
  it('is true for a demo borrower whose only fitting lender is real, and for a real borrower whose only fitting lender is a demo one', () => {
    expect(keptApartBySandbox(agent(1, 'borrower', true), [agent(2, 'lender', false)], settings)).toBe(true);
    expect(keptApartBySandbox(agent(1, 'borrower', false), [agent(2, 'lender', true)], settings)).toBe(true);
    expect(keptApartBySandbox(agent(2, 'lender', false), [agent(1, 'borrower', true)], settings)).toBe(true);
  });

  it('is false when a fitting counterpart is on the same side of the rule (the caps are the reason then), or none fits at all', () => {
    expect(keptApartBySandbox(agent(1, 'borrower', true), [agent(2, 'lender', false), agent(3, 'lender', true)], settings)).toBe(false);
    const unfitting = agent(2, 'lender', false, { propertyValueMin: '£5,000,000', propertyValueMax: '£6,000,000' });
    expect(keptApartBySandbox(agent(1, 'borrower', true), [unfitting], settings)).toBe(false);
    expect(keptApartBySandbox(agent(1, 'borrower', true), [], settings)).toBe(false);
  });

  it('leaves brokers and paused counterparts out', () => {
    expect(keptApartBySandbox(agent(1, 'broker', true), [agent(2, 'lender', false)], settings)).toBe(false);
    expect(keptApartBySandbox(agent(1, 'borrower', true), [{ ...agent(2, 'lender', false), isActive: false }], settings)).toBe(false);
  });
});
