import { describe, expect, it } from 'vitest';
import { conversationsToStop, planMatches, type MatchableAgent } from './plan-matches';

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

  it('never matches paused agents nor a pair already in an open conversation', () => {
    const borrower = agent(1, 'borrower');
    expect(planMatches(agent(1, 'borrower', { isActive: false }), [agent(2, 'lender')], [], settings)).toEqual([]);
    expect(planMatches(borrower, [agent(2, 'lender', { isActive: false })], [], settings)).toEqual([]);
    const open = [{ conversationId: 9, agentIds: [1, 2] }];
    expect(planMatches(borrower, [agent(2, 'lender'), agent(3, 'lender')], open, settings).map((m) => m.lender.agentId)).toEqual([3]);
  });

  it('respects each agent’s cap of open conversations, best score first', () => {
    const lender = agent(10, 'lender');
    const borrowers = [agent(1, 'borrower', { criteria: { ...criteria, interestRateMin: '4.5%', interestRateMax: '6%' } }), agent(2, 'borrower'), agent(3, 'borrower')];
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

  it('lists the open conversations to stop when an agent is paused or deleted', () => {
    const open = [
      { conversationId: 1, agentIds: [1, 2] },
      { conversationId: 2, agentIds: [3, 2] },
      { conversationId: 3, agentIds: [3, 4] },
    ];
    expect(conversationsToStop(2, open)).toEqual([1, 2]);
  });
});
