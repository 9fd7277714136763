import { describe, expect, it } from 'vitest';
import type { DealFact } from './fact-state';
import { commissionOf } from './commission';

const deal = (changes: Partial<DealFact>): DealFact => ({
  dealId: 'd',
  conversationId: 1,
  agreedAt: '2026-03-10T10:00:00.000Z',
  borrowerAgentId: 1,
  lenderAgentId: 2,
  brokerAgentId: 3,
  region: null,
  loanType: 'Residential',
  propertyValue: 400_000,
  loanAmount: 300_000,
  interestRate: 4.3,
  arrangementFee: 999,
  status: 'active',
  stage: 'application',
  stageTimes: {},
  completedAt: null,
  procurationFee: 1_050,
  ...changes,
});
const ours = (agentId: number) => agentId === 3;
const from = new Date('2026-02-15T00:00:00.000Z');
const to = new Date('2026-03-31T12:00:00.000Z');

describe('commission (docs/behaviour/analytics.md, "Commission")', () => {
  it('is earned in the month a deal completed and due in the month an in-progress deal was agreed, by the firm’s brokers only', () => {
    const commission = commissionOf(
      [
        deal({ dealId: 'completed', agreedAt: '2026-02-20T10:00:00.000Z', completedAt: '2026-03-05T10:00:00.000Z', status: 'completed' }),
        deal({ dealId: 'in progress', procurationFee: 1_200, status: 'pending' }),
        deal({ dealId: 'agreed, not yet opened', agreedAt: '2026-02-16T10:00:00.000Z', procurationFee: 700, status: 'agreed' }),
        deal({ dealId: 'cancelled', status: 'cancelled' }),
        deal({ dealId: 'another firm’s broker', brokerAgentId: 9 }),
        deal({ dealId: 'direct', brokerAgentId: null, procurationFee: null }),
        deal({ dealId: 'before products', procurationFee: null }),
        deal({ dealId: 'agreed before the period', agreedAt: '2026-02-01T10:00:00.000Z' }),
      ],
      ours,
      from,
      to,
    );
    expect(commission).toEqual({
      earned: 1_050,
      due: 1_900,
      months: [
        { month: '2026-02', earned: 0, completedDeals: 0, due: 700, dealsInProgress: 1 },
        { month: '2026-03', earned: 1_050, completedDeals: 1, due: 1_200, dealsInProgress: 1 },
      ],
    });
  });

  it('lists every month the period touches, with nothing in a month without deals', () => {
    expect(commissionOf([], ours, from, to).months.map((m) => m.month)).toEqual(['2026-02', '2026-03']);
  });
});
