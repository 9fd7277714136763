import { describe, expect, it } from 'vitest';
import { scoreMatch } from './score-match';
import type { MatchableAgent } from './matchable';
import { conversationsToStop, criteriaFingerprint, pairKey, planMatches, planMatchesExplained } from './plan-matches';

const criteria = {
  propertyValueMin: '£200,000',
  propertyValueMax: '£300,000',
  interestRateMin: '3.5%',
  interestRateMax: '5%',
  loanTermMin: '20 years',
  loanTermMax: '30 years',
};
const agent = (agentId: number, type: MatchableAgent['type'], extra: Partial<MatchableAgent> = {}): MatchableAgent => ({
  agentId,
  ownerId: `owner-${agentId}`,
  name: `${type} ${agentId}`,
  type,
  criteria,
  isActive: true,
  ...extra,
});
const settings = { threshold: 70, maxOpenConversations: 2 };

describe('planMatches', () => {
  it('matches a new borrower with every fitting lender, titled with parties and amount', () => {
    const alice = agent(1, 'borrower', { name: 'Alice Borrower' });
    const bank = agent(2, 'lender', { name: 'Northern Bank' });
    const strict = agent(3, 'lender', { criteria: { ...criteria, loanTermMax: '10 years', loanTermMin: '5' } });
    const plan = planMatches(alice, [alice, bank, strict], [], settings);
    expect(plan).toHaveLength(1);
    expect(plan[0]).toMatchObject({
      borrower: { agentId: 1, ownerId: 'owner-1', name: 'Alice Borrower', type: 'borrower' },
      lender: { agentId: 2 },
      broker: null,
      score: 100,
      title: 'Alice Borrower ↔ Northern Bank · £250,000',
      propertyValue: 250_000,
    });
  });

  it('opens no pair that scores well with a warning but has no case to price (certain failure)', () => {
    const borrower = agent(1, 'borrower');
    // A lender made before products whose criteria name no rate has no range to price from (docs/behaviour/products.md).
    const { interestRateMin: _min, interestRateMax: _max, ...unpriced } = criteria;
    const apart = agent(2, 'lender', { criteria: unpriced });
    const near = agent(3, 'lender', { criteria });
    expect(scoreMatch(borrower.criteria, apart.criteria).score).toBeGreaterThanOrEqual(settings.threshold);
    const plan = planMatches(borrower, [borrower, apart, near], [], settings);
    expect(plan.map((match) => match.lender.agentId)).toEqual([3]);
  });

  it('never matches paused agents nor a pair already in an open conversation', () => {
    const borrower = agent(1, 'borrower');
    expect(planMatches(agent(1, 'borrower', { isActive: false }), [agent(2, 'lender')], [], settings)).toEqual([]);
    expect(planMatches(borrower, [agent(2, 'lender', { isActive: false })], [], settings)).toEqual([]);
    const open = [{ conversationId: 9, agentIds: [1, 2] }];
    expect(planMatches(borrower, [agent(2, 'lender'), agent(3, 'lender')], open, settings).map((m) => m.lender.agentId)).toEqual([3]);
  });

  it('respects each agent’s cap of open conversations, best score first', () => {
    const lender = agent(10, 'lender');
    const borrowers = [
      agent(1, 'borrower', { criteria: { ...criteria, interestRateMin: '4.5%', interestRateMax: '6%' } }),
      agent(2, 'borrower'),
      agent(3, 'borrower'),
    ];
    const open = [{ conversationId: 5, agentIds: [10, 99] }];
    const plan = planMatches(lender, [...borrowers, lender], open, settings);
    expect(plan.map((match) => match.borrower.agentId)).toEqual([2]);
  });

  it('lets the best-fitting broker with room introduce a pair', () => {
    const broker = agent(5, 'broker');
    const farBroker = agent(4, 'broker', { criteria: { interestRateMin: '9%' } });
    const plan = planMatches(agent(1, 'borrower'), [agent(2, 'lender'), farBroker, broker], [], settings);
    expect(plan[0]?.broker?.agentId).toBe(5);
  });

  it('for a new broker, plans the unmatched pairs it can introduce', () => {
    const broker = agent(5, 'broker');
    const open = [{ conversationId: 1, agentIds: [1, 2] }];
    const plan = planMatches(broker, [agent(1, 'borrower'), agent(2, 'lender'), agent(3, 'lender')], open, settings);
    expect(plan.map((m) => [m.borrower.agentId, m.lender.agentId, m.broker?.agentId])).toEqual([[1, 3, 5]]);
  });

  it('never matches again a pair that negotiated with the same criteria; does once either side’s criteria changed', () => {
    const borrower = agent(1, 'borrower', { name: 'Alice Borrower' });
    const lenders = [agent(2, 'lender'), agent(3, 'lender')];
    const negotiated = new Map([[pairKey(1, 2), criteriaFingerprint(criteria, criteria)]]);
    expect(planMatches(borrower, lenders, [], settings, negotiated).map((m) => m.lender.agentId)).toEqual([3]);
    // The borrower's criteria changed since: the pair may negotiate again (and so may a changed lender).
    const moved = agent(1, 'borrower', { criteria: { ...criteria, propertyValueMax: '£280,000' } });
    expect(planMatches(moved, lenders, [], settings, negotiated).map((m) => m.lender.agentId)).toEqual([2, 3]);
    const changedLender = agent(2, 'lender', { criteria: { ...criteria, interestRateMax: '5.5%' } });
    expect(planMatches(borrower, [changedLender], [], settings, negotiated).map((m) => m.lender.agentId)).toEqual([2]);
    // Seen from the lender's side too, and for a broker introducing pairs.
    expect(planMatches(lenders[0]!, [borrower], [], settings, negotiated)).toEqual([]);
    expect(planMatches(agent(5, 'broker'), [borrower, lenders[0]!], [], settings, negotiated)).toEqual([]);
  });

  it('says when every fitting pair was left out for having negotiated already, and not when a cap or the score did', () => {
    const borrower = agent(1, 'borrower');
    const lenders = [
      agent(2, 'lender'),
      agent(3, 'lender'),
      agent(4, 'lender', { criteria: { interestRateMin: '9%', interestRateMax: '10%' } }),
    ];
    const both = new Map([
      [pairKey(1, 2), criteriaFingerprint(criteria, criteria)],
      [pairKey(1, 3), criteriaFingerprint(criteria, criteria)],
    ]);
    expect(planMatchesExplained(borrower, lenders, [], settings, both)).toEqual({ plan: [], alreadyNegotiated: 2, fresh: 0 });
    const one = new Map([[pairKey(1, 2), criteriaFingerprint(criteria, criteria)]]);
    const full = [
      { conversationId: 7, agentIds: [3, 98] },
      { conversationId: 8, agentIds: [3, 99] },
    ];
    expect(planMatchesExplained(borrower, lenders, full, settings, one)).toEqual({ plan: [], alreadyNegotiated: 1, fresh: 1 });
  });

  it('fingerprints criteria whatever their key order, spacing or empty fields, but tells apart a changed value', () => {
    const reordered = Object.fromEntries(
      Object.entries(criteria)
        .reverse()
        .map(([k, v]) => [k, ` ${v} `]),
    );
    expect(criteriaFingerprint(reordered, { ...criteria, loanAmount: '' })).toBe(criteriaFingerprint(criteria, criteria));
    expect(criteriaFingerprint(criteria, { ...criteria, loanTermMax: '25 years' })).not.toBe(criteriaFingerprint(criteria, criteria));
    // The sides are not interchangeable: a borrower's criteria moved to the lender is another pair of criteria.
    expect(criteriaFingerprint(criteria, null)).not.toBe(criteriaFingerprint(null, criteria));
    expect(criteriaFingerprint(criteria, criteria)).toMatch(/^[0-9a-f]{16}$/);
  });

  it('lists the open conversations to stop when an agent is paused or deleted', () => {
    const open = [
      { conversationId: 1, agentIds: [1, 2] },
      { conversationId: 2, agentIds: [3, 2] },
      { conversationId: 3, agentIds: [3, 4] },
    ];
    expect(conversationsToStop(2, open)).toEqual([1, 2]);
  });
});
