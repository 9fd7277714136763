import type { CommissionView } from '@pf/events';
import type { DealFact } from './fact-state';
import { bucketStarts, inRange } from './period';

const monthOf = (at: Date) => at.toISOString().slice(0, 7);

/**
 * The firm's commission over a period (docs/behaviour/analytics.md, "Commission"), by calendar month: the procuration
 * fees recorded on the deals its own brokers introduced. A lender pays the fee on completion: a completed deal's fee is
 * earned in the month it completed; a deal agreed in the period and still in progress (neither completed nor
 * cancelled) has its fee due, in the month it was agreed. Deals with no fee recorded (from before products) count in
 * neither. Pure.
 */
export function commissionOf(deals: readonly DealFact[], isOurBroker: (agentId: number) => boolean, from: Date, to: Date): CommissionView {
  const months = bucketStarts('month', from, to).map((start) => ({
    month: monthOf(start),
    earned: 0,
    completedDeals: 0,
    due: 0,
    dealsInProgress: 0,
  }));
  const slot = (at: string) => months.find((m) => m.month === monthOf(new Date(at)));
  for (const deal of deals) {
    if (deal.procurationFee === null || deal.brokerAgentId === null || !isOurBroker(deal.brokerAgentId)) continue;
    if (deal.completedAt !== null) {
      const month = inRange(deal.completedAt, from, to) ? slot(deal.completedAt) : undefined;
      if (month) {
        month.earned += deal.procurationFee;
        month.completedDeals += 1;
      }
    } else if (deal.status !== 'cancelled' && inRange(deal.agreedAt, from, to)) {
      const month = slot(deal.agreedAt);
      if (month) {
        month.due += deal.procurationFee;
        month.dealsInProgress += 1;
      }
    }
  }
  return {
    earned: months.reduce((total, m) => total + m.earned, 0),
    due: months.reduce((total, m) => total + m.due, 0),
    months,
  };
}
