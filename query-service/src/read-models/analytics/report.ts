import {
  ANALYTICS_PERIOD_DAYS,
  successRate,
  DEAL_SIZE_BANDS,
  LOAN_TYPES,
  type AnalyticsPeriod,
  type AnalyticsReportView,
  type Headline,
} from '@pf/events';
import type { DealFact, LeadFact, NegotiationFact } from './fact-state';
import { commissionOf } from './commission';
import { before, bucketOf, bucketStarts, dayWindow, daysBetween, inRange, round1, round2 } from './period';

export interface ReportInput {
  deals: readonly DealFact[];
  negotiations: readonly NegotiationFact[];
  leads: readonly LeadFact[];
  agents: ReadonlyMap<number, { name: string; type: string }>;
}

/**
 * Arrangement fee plus the broker's procuration fee as the deal records it (docs/behaviour/analytics.md), for a completed
 * deal (0 otherwise).
 */
export function revenueOf(deal: DealFact): number {
  if (deal.completedAt === null) return 0;
  return deal.arrangementFee + (deal.brokerAgentId !== null ? (deal.procurationFee ?? 0) : 0);
}

function headline(value: number | null, previous: number | null): Headline {
  const changePercent =
    value !== null && previous !== null && previous !== 0 ? round1(((value - previous) / Math.abs(previous)) * 100) : null;
  return { value, previous, changePercent };
}

const percent = (part: number, whole: number) => (whole === 0 ? null : round1((part / whole) * 100));
const average = (values: number[]) => (values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length);

/** Analytics & Reports, computed from the facts for one period (and the one before, for the changes). */
export function buildAnalyticsReport(input: ReportInput, period: AnalyticsPeriod, now: Date): AnalyticsReportView {
  const days = ANALYTICS_PERIOD_DAYS[period];
  const { from, to, previousFrom } = dayWindow(days, now);
  const bucket = days <= 30 ? 'day' : days <= 90 ? 'week' : 'month';
  const starts = bucketStarts(bucket, from, to);

  const agreedNow = input.deals.filter((d) => inRange(d.agreedAt, from, to));
  const agreedBefore = input.deals.filter((d) => before(d.agreedAt, previousFrom, from));
  const completedNow = input.deals.filter((d) => inRange(d.completedAt, from, to));
  const completedBefore = input.deals.filter((d) => before(d.completedAt, previousFrom, from));
  const finishedNow = input.negotiations.filter((n) => inRange(n.completedAt, from, to));
  const finishedBefore = input.negotiations.filter((n) => before(n.completedAt, previousFrom, from));
  const sum = (deals: DealFact[]) => deals.reduce((total, d) => total + revenueOf(d), 0);
  // The conversion rate is the one success rate over the negotiations that ended in the period (events/src/success-rate.ts).
  const conversion = (finished: NegotiationFact[]) => successRate(finished.filter((n) => n.outcome === 'agreed').length, finished.length);
  const avgSize = (deals: DealFact[]) => {
    const value = average(deals.map((d) => d.loanAmount));
    return value === null ? null : Math.round(value);
  };

  const dealVolume = starts.map((start) => ({ start: start.toISOString(), deals: 0, value: 0 }));
  for (const d of agreedNow) {
    const slot = dealVolume[bucketOf(starts, new Date(d.agreedAt))];
    if (slot) {
      slot.deals += 1;
      slot.value += d.loanAmount;
    }
  }
  const revenue = starts.map((start) => ({ start: start.toISOString(), revenue: 0 }));
  for (const d of completedNow) {
    const slot = revenue[bucketOf(starts, new Date(d.completedAt!))];
    if (slot) slot.revenue += revenueOf(d);
  }

  const loanTypes = LOAN_TYPES.map((name) => {
    const count = agreedNow.filter((d) => d.loanType === name).length;
    return { name, deals: count, share: percent(count, agreedNow.length) ?? 0 };
  });
  const dealSizes = DEAL_SIZE_BANDS.map(({ band, min, max }) => {
    const count = agreedNow.filter((d) => d.loanAmount >= min && d.loanAmount < max).length;
    return { band, deals: count, share: percent(count, agreedNow.length) ?? 0 };
  });

  return {
    period,
    from: from.toISOString(),
    to: to.toISOString(),
    bucket,
    headline: {
      totalRevenue: headline(sum(completedNow), sum(completedBefore)),
      dealsClosed: headline(completedNow.length, completedBefore.length),
      conversionRate: headline(conversion(finishedNow), conversion(finishedBefore)),
      avgDealSize: headline(avgSize(agreedNow), avgSize(agreedBefore)),
    },
    dealVolume,
    revenue,
    loanTypes,
    agents: agentPerformance(input, finishedNow, agreedNow, completedNow),
    dealSizes,
    stageTimes: stageTimes(agreedNow, input.negotiations, completedNow, input.deals, from, to),
    funnel: funnel(input.leads.filter((l) => inRange(l.createdAt, from, to))),
    // The brokers among the agents the report is of (the firm's own, or every one for the platform's).
    commission: commissionOf(input.deals, (agentId) => input.agents.get(agentId)?.type === 'broker', from, to),
  };
}

function agentPerformance(
  input: ReportInput,
  finished: NegotiationFact[],
  agreed: DealFact[],
  completed: DealFact[],
): AnalyticsReportView['agents'] {
  const rows = new Map<number, { negotiations: number; won: number; deals: number; revenue: number }>();
  const row = (id: number) => rows.get(id) ?? rows.set(id, { negotiations: 0, won: 0, deals: 0, revenue: 0 }).get(id)!;
  const parties = (x: { borrowerAgentId: number | null; lenderAgentId: number | null; brokerAgentId: number | null }) =>
    [x.borrowerAgentId, x.lenderAgentId, x.brokerAgentId].filter((id): id is number => id !== null);
  for (const n of finished)
    for (const id of parties(n)) {
      const r = row(id);
      r.negotiations += 1;
      if (n.outcome === 'agreed') r.won += 1;
    }
  for (const d of agreed) for (const id of parties(d)) row(id).deals += 1;
  for (const d of completed) for (const id of parties(d)) row(id).revenue += revenueOf(d);
  return [...rows]
    .map(([agentId, r]) => ({
      agentId,
      name: input.agents.get(agentId)?.name ?? `Agent ${agentId}`,
      type: input.agents.get(agentId)?.type ?? 'unknown',
      deals: r.deals,
      negotiations: r.negotiations,
      conversion: successRate(r.won, r.negotiations),
      revenue: r.revenue,
    }))
    .sort((a, b) => b.revenue - a.revenue || (b.conversion ?? -1) - (a.conversion ?? -1) || a.agentId - b.agentId);
}

/** Average days between the steps a deal went through: match to first offer to agreed terms, then the deal's own stages. */
function stageTimes(
  agreed: DealFact[],
  negotiations: readonly NegotiationFact[],
  completed: DealFact[],
  deals: readonly DealFact[],
  from: Date,
  to: Date,
): AnalyticsReportView['stageTimes'] {
  const byConversation = new Map(negotiations.map((n) => [n.conversationId, n]));
  const pairs: { from: string; to: string; gaps: number[] }[] = [
    { from: 'Match', to: 'First offer', gaps: [] },
    { from: 'First offer', to: 'Terms agreed', gaps: [] },
    { from: 'Terms agreed', to: 'Completion', gaps: [] },
  ];
  // A deal's own stages (docs/behaviour/analytics.md), each counted in the period its later stage was reached.
  const STAGES: [string, string, string, string][] = [
    ['application', 'valuation', 'Application', 'Valuation'],
    ['valuation', 'underwriting', 'Valuation', 'Underwriting'],
    ['underwriting', 'completed', 'Underwriting', 'Completed'],
  ];
  for (const [a, b, fromName, toName] of STAGES) {
    const gaps = deals
      .filter((d) => d.stageTimes[a] && d.stageTimes[b] && inRange(d.stageTimes[b], from, to))
      .map((d) => daysBetween(d.stageTimes[a]!, d.stageTimes[b]!));
    pairs.push({ from: fromName, to: toName, gaps });
  }
  for (const d of agreed) {
    const n = d.conversationId === null ? undefined : byConversation.get(d.conversationId);
    if (n?.firstOfferAt) {
      pairs[0]!.gaps.push(daysBetween(n.startedAt, n.firstOfferAt));
      pairs[1]!.gaps.push(daysBetween(n.firstOfferAt, d.agreedAt));
    }
  }
  for (const d of completed) pairs[2]!.gaps.push(daysBetween(d.agreedAt, d.completedAt!));
  return pairs.map((p) => {
    const value = average(p.gaps);
    return { from: p.from, to: p.to, averageDays: value === null ? null : round2(value), deals: p.gaps.length };
  });
}

/** The borrower agents created in the period, and how far each has come (a cohort funnel, as PostHog counts them). */
function funnel(leads: LeadFact[]): AnalyticsReportView['funnel'] {
  const steps = [
    { stage: 'Leads' as const, description: 'Borrower agents created in the period', count: leads.length },
    { stage: 'Qualified' as const, description: 'Matched with a lender', count: leads.filter((l) => l.qualifiedAt).length },
    { stage: 'Proposals' as const, description: 'Received or made a first offer', count: leads.filter((l) => l.proposedAt).length },
    { stage: 'Negotiations' as const, description: 'Negotiated to agreed terms', count: leads.filter((l) => l.agreedAt).length },
    { stage: 'Completions' as const, description: 'Deal completed', count: leads.filter((l) => l.completedAt).length },
  ];
  return steps.map((step, index) => ({
    ...step,
    percentOfFirst: percent(step.count, steps[0]!.count),
    percentOfPrevious: index === 0 ? null : percent(step.count, steps[index - 1]!.count),
  }));
}
