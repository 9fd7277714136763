import { z } from 'zod';
import { readCriteria, type PropertyType } from './read-criteria';

/** GET /api/analytics/daily?days=30: the last `days` days of the reader's firm's own events (docs/behaviour/analytics.md). */
export const dailyAnalyticsQuery = z.object({
  days: z.coerce.number({ error: 'days must be a whole number' }).int().min(1).max(366, { error: 'days is at most 366' }).default(30),
});

/**
 * The firm's events per type per day and the deals its negotiations agreed per day, built by the analytics consumer of
 * the event stream: the events of the streams the event feed answers the firm (docs/event-feed.md).
 */
export const dailyAnalyticsView = z.object({
  days: z.number().int(),
  events: z.array(z.object({ day: z.string(), type: z.string(), count: z.number().int() })),
  deals: z.array(z.object({ day: z.string(), deals: z.number().int(), totalLoanAmount: z.number() })),
});
export type DailyAnalyticsView = z.infer<typeof dailyAnalyticsView>;

/** Analytics & Reports: the period selector. */
export const ANALYTICS_PERIODS = ['last7', 'last30', 'last90', 'last365'] as const;
export const analyticsPeriod = z.enum(ANALYTICS_PERIODS, { error: 'period must be one of last7, last30, last90, last365' });
export type AnalyticsPeriod = z.infer<typeof analyticsPeriod>;
export const ANALYTICS_PERIOD_LABELS: Record<AnalyticsPeriod, string> = {
  last7: 'Last 7 days',
  last30: 'Last 30 days',
  last90: 'Last 90 days',
  last365: 'Last year',
};
export const ANALYTICS_PERIOD_DAYS: Record<AnalyticsPeriod, number> = { last7: 7, last30: 30, last90: 90, last365: 365 };

/** Deal size bands (by loan amount). */
export const DEAL_SIZE_BANDS = [
  { band: '£100K-£300K', min: 0, max: 300_000 },
  { band: '£300K-£500K', min: 300_000, max: 500_000 },
  { band: '£500K-£1M', min: 500_000, max: 1_000_000 },
  { band: '£1M+', min: 1_000_000, max: Number.POSITIVE_INFINITY },
] as const;

/** Loan types; a borrower who states none is lending on a home (Residential). */
export const LOAN_TYPES = ['Buy-to-Let', 'Residential', 'Commercial', 'Bridging'] as const;
export type LoanType = (typeof LOAN_TYPES)[number];

export const analyticsReportQuery = z.object({ period: analyticsPeriod.default('last30') });

/** A headline figure, the same figure over the period before, and the change in percent (null when either is missing or the previous is 0). */
const headline = z.object({ value: z.number().nullable(), previous: z.number().nullable(), changePercent: z.number().nullable() });
export type Headline = z.infer<typeof headline>;

/**
 * The broker firm's commission (docs/behaviour/analytics.md, "Commission"): the procuration fees lenders pay it on deals
 * its brokers introduced, as each DealAgreed records them. A UK lender pays the fee on completion, so a completed
 * deal's fee is earned in the month it completed; a deal agreed and still in progress (not completed, not cancelled)
 * has its fee due, in the month it was agreed; a cancelled deal earns none.
 */
export const commissionMonth = z.object({
  /** "2026-11": a calendar month (UTC). */
  month: z.string(),
  earned: z.number(),
  completedDeals: z.number().int(),
  due: z.number(),
  dealsInProgress: z.number().int(),
});
export const commissionView = z.object({
  earned: z.number(),
  due: z.number(),
  /** The months the period touches, oldest first. */
  months: z.array(commissionMonth),
});
export type CommissionView = z.infer<typeof commissionView>;

export const FUNNEL_STAGES = ['Leads', 'Qualified', 'Proposals', 'Negotiations', 'Completions'] as const;

export const analyticsReportView = z.object({
  period: analyticsPeriod,
  from: z.string(),
  to: z.string(),
  /** Day buckets for 7 and 30 days, weeks for 90, months for a year. */
  bucket: z.enum(['day', 'week', 'month']),
  headline: z.object({ totalRevenue: headline, dealsClosed: headline, conversionRate: headline, avgDealSize: headline }),
  /** Deals agreed per bucket (count and loan total). */
  dealVolume: z.array(z.object({ start: z.string(), deals: z.number().int(), value: z.number() })),
  /** Revenue of deals completed per bucket. */
  revenue: z.array(z.object({ start: z.string(), revenue: z.number() })),
  loanTypes: z.array(z.object({ name: z.enum(LOAN_TYPES), deals: z.number().int(), share: z.number() })),
  agents: z.array(
    z.object({
      agentId: z.number().int(),
      name: z.string(),
      type: z.string(),
      deals: z.number().int(),
      negotiations: z.number().int(),
      /** Agreed over finished negotiations, whole percent; null before any finished. */
      conversion: z.number().nullable(),
      revenue: z.number(),
    }),
  ),
  dealSizes: z.array(z.object({ band: z.string(), deals: z.number().int(), share: z.number() })),
  stageTimes: z.array(z.object({ from: z.string(), to: z.string(), averageDays: z.number().nullable(), deals: z.number().int() })),
  funnel: z.array(
    z.object({
      stage: z.enum(FUNNEL_STAGES),
      description: z.string(),
      count: z.number().int(),
      percentOfFirst: z.number().nullable(),
      percentOfPrevious: z.number().nullable(),
    }),
  ),
  commission: commissionView,
});
export type AnalyticsReportView = z.infer<typeof analyticsReportView>;

const LOAN_TYPE_OF: Record<PropertyType, LoanType> = {
  residential: 'Residential',
  'buy-to-let': 'Buy-to-Let',
  commercial: 'Commercial',
  bridging: 'Bridging',
};

/** A borrower's loan type: the first property type its criteria name, read as the agents read it; none is Residential. */
export function loanTypeOfCriteria(criteria: unknown): LoanType {
  if (!criteria || typeof criteria !== 'object') return 'Residential';
  const type = readCriteria(criteria).propertyTypes?.[0];
  return type ? LOAN_TYPE_OF[type] : 'Residential';
}
