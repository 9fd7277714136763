import { z } from 'zod';
import { readCriteria, REGIONS } from './read-criteria';

/** Market Intelligence: the regions and periods (months). */
/** The regions agents' criteria name (one list, the criteria reader's). */
export const MARKET_REGIONS = REGIONS;
export const marketRegion = z.enum(MARKET_REGIONS, { error: 'region must be one of london, manchester, birmingham, bristol, leeds' });
export type MarketRegion = z.infer<typeof marketRegion>;
export const MARKET_PERIODS = ['last3', 'last6', 'last12'] as const;
export const marketPeriod = z.enum(MARKET_PERIODS, { error: 'period must be one of last3, last6, last12' });
export type MarketPeriod = z.infer<typeof marketPeriod>;
export const MARKET_PERIOD_MONTHS: Record<MarketPeriod, number> = { last3: 3, last6: 6, last12: 12 };
export const MARKET_PERIOD_LABELS: Record<MarketPeriod, string> = {
  last3: 'Last 3 months',
  last6: 'Last 6 months',
  last12: 'Last 12 months',
};

/**
 * A market figure aggregates across firms only where at least MARKET_MIN_DEALS deals from at least
 * MARKET_MIN_FIRMS distinct firms back it, else "Not enough data" (docs/decisions/firms-and-visibility.md):
 * no published figure rests on a handful of records, and one firm cannot pass it by splitting its deals.
 */
export const MARKET_MIN_DEALS = 5;
export const MARKET_MIN_FIRMS = 3;

export const LENDER_CRITERIA_LABELS = ['Standard', 'Flexible', 'Strict', 'Specialist'] as const;

export const marketQuery = z.object({ region: marketRegion.default('london'), period: marketPeriod.default('last12') });

export const marketInsight = z.object({
  title: z.string(),
  content: z.string(),
  type: z.enum(['positive', 'negative', 'neutral']),
  impact: z.enum(['High', 'Medium']),
});
export type MarketInsight = z.infer<typeof marketInsight>;

export const marketView = z.object({
  region: marketRegion,
  period: marketPeriod,
  from: z.string(),
  to: z.string(),
  /** Agreed deals in the region and period when enough back them; null below the threshold (Not enough data). */
  deals: z.number().int().nullable(),
  enoughData: z.boolean(),
  headline: z.object({
    /** Average agreed rate, percent. */
    avgInterestRate: z.number().nullable(),
    avgPropertyPrice: z.number().nullable(),
    /** Total loans agreed, pounds. */
    marketVolume: z.number().nullable(),
    /** Deals a lender agreed to. */
    mortgageApprovals: z.number().int().nullable(),
  }),
  /** Per month of the period: average rate offered and average rate agreed in the region. */
  rates: z.array(
    z.object({
      month: z.string(),
      offeredRate: z.number().nullable(),
      agreedRate: z.number().nullable(),
      offers: z.number().int(),
      deals: z.number().int(),
    }),
  ),
  /** Per region; avgPrice, change and count are null where too few deals or firms back them. */
  regions: z.array(
    z.object({ region: marketRegion, avgPrice: z.number().nullable(), change: z.number().nullable(), count: z.number().int().nullable() }),
  ),
  lenders: z.array(
    z.object({
      agentId: z.number().int(),
      name: z.string(),
      deals: z.number().int(),
      marketShare: z.number(),
      avgRate: z.number(),
      criteria: z.enum(LENDER_CRITERIA_LABELS),
    }),
  ),
  insights: z.array(marketInsight),
});
export type MarketView = z.infer<typeof marketView>;

/** The region an agent's criteria name, read as the agents read it ("Leeds, Manchester" is Leeds); null when none. */
export function regionOfCriteria(criteria: unknown): MarketRegion | null {
  if (!criteria || typeof criteria !== 'object') return null;
  return readCriteria(criteria).regions?.[0] ?? null;
}
