import {
  MARKET_MIN_DEALS,
  MARKET_PERIOD_MONTHS,
  MARKET_REGIONS,
  type MarketInsight,
  type MarketPeriod,
  type MarketRegion,
  type MarketView,
} from '@pf/events';
import type { DealFact, OfferFact } from './facts';
import { lenderCriteriaLabel } from './lender-criteria';
import { before, bucketOf, bucketStarts, inRange, monthWindow, round1, round2 } from './period';

export interface MarketInput {
  deals: readonly DealFact[];
  offers: readonly OfferFact[];
  lenders: ReadonlyMap<number, { name: string; criteria: unknown }>;
}

/** A rate that moved by at least this many percentage points between two months is worth an insight. */
export const RATE_MOVE_THRESHOLD = 0.25;

const average = (values: number[]) => (values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length);
const capital = (region: string) => region.charAt(0).toUpperCase() + region.slice(1);
const monthName = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { month: 'short', year: 'numeric', timeZone: 'UTC' });

/** Spec §2 Market Intelligence from the platform's own offers and agreed deals, for one region and period. */
export function buildMarket(input: MarketInput, region: MarketRegion, period: MarketPeriod, now: Date): MarketView {
  const { from, to, previousFrom } = monthWindow(MARKET_PERIOD_MONTHS[period], now);
  const starts = bucketStarts('month', from, to);
  const inPeriod = input.deals.filter((d) => inRange(d.agreedAt, from, to));
  const here = inPeriod.filter((d) => d.region === region);
  const offersHere = input.offers.filter((o) => o.region === region && inRange(o.at, from, to));

  const rates = starts.map((start) => ({ month: start.toISOString().slice(0, 7), offered: [] as number[], agreed: [] as number[] }));
  for (const o of offersHere) rates[bucketOf(starts, new Date(o.at))]?.offered.push(o.interestRate);
  for (const d of here) rates[bucketOf(starts, new Date(d.agreedAt))]?.agreed.push(d.interestRate);

  const regions = MARKET_REGIONS.map((name) => {
    const now_ = inPeriod.filter((d) => d.region === name);
    const then = input.deals.filter((d) => d.region === name && before(d.agreedAt, previousFrom, from));
    const avgNow = average(now_.map((d) => d.propertyValue));
    const avgThen = average(then.map((d) => d.propertyValue));
    return {
      region: name,
      avgPrice: avgNow === null ? null : Math.round(avgNow),
      change: avgNow !== null && avgThen ? round1(((avgNow - avgThen) / avgThen) * 100) : null,
      count: now_.length,
      previousCount: then.length,
    };
  });

  const byLender = new Map<number, DealFact[]>();
  for (const d of here) byLender.set(d.lenderAgentId, [...(byLender.get(d.lenderAgentId) ?? []), d]);
  const lenders = [...byLender]
    .map(([agentId, deals]) => ({
      agentId,
      name: input.lenders.get(agentId)?.name ?? `Lender ${agentId}`,
      deals: deals.length,
      marketShare: round1((deals.length / here.length) * 100),
      avgRate: round2(average(deals.map((d) => d.interestRate))!),
      criteria: lenderCriteriaLabel(input.lenders.get(agentId)?.criteria),
    }))
    .sort((a, b) => b.deals - a.deals || a.avgRate - b.avgRate || a.agentId - b.agentId);

  const avgRate = average(here.map((d) => d.interestRate));
  const avgPrice = average(here.map((d) => d.propertyValue));
  const series = rates.map((r) => ({
    month: r.month,
    offeredRate: r.offered.length ? round2(average(r.offered)!) : null,
    agreedRate: r.agreed.length ? round2(average(r.agreed)!) : null,
    offers: r.offered.length,
    deals: r.agreed.length,
  }));
  return {
    region,
    period,
    from: from.toISOString(),
    to: to.toISOString(),
    deals: here.length,
    enoughData: here.length >= MARKET_MIN_DEALS,
    headline: {
      avgInterestRate: avgRate === null ? null : round2(avgRate),
      avgPropertyPrice: avgPrice === null ? null : Math.round(avgPrice),
      marketVolume: here.reduce((total, d) => total + d.loanAmount, 0),
      mortgageApprovals: here.length,
    },
    rates: series,
    regions: regions.map(({ previousCount: _, ...row }) => row),
    lenders,
    insights: insights(region, series, regions),
  };
}

/** Insights only where the data carries them, each stating the figures it rests on. */
function insights(
  region: MarketRegion,
  series: MarketView['rates'],
  regions: { region: MarketRegion; count: number; previousCount: number }[],
): MarketInsight[] {
  const found: MarketInsight[] = [];
  // Two latest months with at least two agreed deals each: a move of the average rate between them.
  const months = series.filter((m) => m.deals >= 2 && m.agreedRate !== null);
  if (months.length >= 2) {
    const [a, b] = months.slice(-2) as [MarketView['rates'][number], MarketView['rates'][number]];
    const move = round2(b.agreedRate! - a.agreedRate!);
    if (Math.abs(move) >= RATE_MOVE_THRESHOLD) {
      found.push({
        title: `Agreed rates ${move < 0 ? 'fell' : 'rose'} in ${capital(region)}`,
        content: `The average agreed rate moved from ${a.agreedRate!.toFixed(2)}% in ${monthName(a.month + '-01')} (${a.deals} deals) to ${b.agreedRate!.toFixed(2)}% in ${monthName(b.month + '-01')} (${b.deals} deals), ${Math.abs(move).toFixed(2)} percentage points.`,
        type: move < 0 ? 'positive' : 'negative',
        impact: Math.abs(move) >= 2 * RATE_MOVE_THRESHOLD ? 'High' : 'Medium',
      });
    }
  }
  for (const r of regions) {
    if (r.count > r.previousCount && r.count >= MARKET_MIN_DEALS) {
      const rise = r.previousCount > 0 ? Math.round(((r.count - r.previousCount) / r.previousCount) * 100) : null;
      found.push({
        title: `Volume rose in ${capital(r.region)}`,
        content: `${r.count} deals agreed in ${capital(r.region)} this period against ${r.previousCount} in the period before${rise === null ? '' : ` (up ${rise}%)`}.`,
        type: 'positive',
        impact: rise === null || rise >= 50 ? 'High' : 'Medium',
      });
    }
  }
  return found;
}

