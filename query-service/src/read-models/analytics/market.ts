import {
  MARKET_MIN_DEALS,
  MARKET_MIN_FIRMS,
  MARKET_PERIOD_MONTHS,
  MARKET_REGIONS,
  type MarketInsight,
  type MarketPeriod,
  type MarketRegion,
  type MarketView,
} from '@pf/events';
import type { DealFact, OfferFact } from './fact-state';
import { lenderCriteriaLabel } from './lender-criteria';
import { before, bucketOf, bucketStarts, inRange, monthWindow, round1, round2 } from './period';

export interface MarketInput {
  /** The firm asking: its own lenders are named in the lender analysis, nobody else's (null: every lender, for tests). */
  viewerFirmId: string | null;
  /** The firms of a deal's (or an offer's) agents. */
  firmsOf: (parties: { borrowerAgentId: number | null; lenderAgentId: number | null; brokerAgentId: number | null }) => string[];
  deals: readonly DealFact[];
  offers: readonly OfferFact[];
  lenders: ReadonlyMap<number, { name: string; criteria: unknown }>;
}

/**
 * Whether enough records back a figure: at least MARKET_MIN_DEALS of them, from at least MARKET_MIN_FIRMS
 * distinct firms (the firms of their agents, counted once each: splitting deals adds no firm).
 */
function backed(
  records: readonly { borrowerAgentId: number | null; lenderAgentId: number | null; brokerAgentId: number | null }[],
  firmsOf: MarketInput['firmsOf'],
): boolean {
  if (records.length < MARKET_MIN_DEALS) return false;
  return new Set(records.flatMap((record) => firmsOf(record))).size >= MARKET_MIN_FIRMS;
}

/** A rate that moved by at least this many percentage points between two months is worth an insight. */
const RATE_MOVE_THRESHOLD = 0.25;

const average = (values: number[]) => (values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length);
const capital = (region: string) => region.charAt(0).toUpperCase() + region.slice(1);
const monthName = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { month: 'short', year: 'numeric', timeZone: 'UTC' });

/** Market Intelligence from the platform's own offers and agreed deals, for one region and period. */
export function buildMarket(input: MarketInput, region: MarketRegion, period: MarketPeriod, now: Date): MarketView {
  const { from, to, previousFrom } = monthWindow(MARKET_PERIOD_MONTHS[period], now);
  const starts = bucketStarts('month', from, to);
  const inPeriod = input.deals.filter((d) => inRange(d.agreedAt, from, to));
  const here = inPeriod.filter((d) => d.region === region);
  const offersHere = input.offers.filter((o) => o.region === region && inRange(o.at, from, to));

  const enough = (records: Parameters<typeof backed>[0]) => backed(records, input.firmsOf);
  const hereBacked = enough(here);
  // An offer's firms are its borrower's (offers name no lender here): enough offers from enough firms, per month.
  const offerParties = (o: OfferFact) => ({ borrowerAgentId: o.borrowerAgentId, lenderAgentId: null, brokerAgentId: null });

  const rates = starts.map((start) => ({ month: start.toISOString().slice(0, 7), offered: [] as OfferFact[], agreed: [] as DealFact[] }));
  for (const o of offersHere) rates[bucketOf(starts, new Date(o.at))]?.offered.push(o);
  for (const d of here) rates[bucketOf(starts, new Date(d.agreedAt))]?.agreed.push(d);

  const regions = MARKET_REGIONS.map((name) => {
    const now_ = inPeriod.filter((d) => d.region === name);
    const then = input.deals.filter((d) => d.region === name && before(d.agreedAt, previousFrom, from));
    const nowBacked = enough(now_);
    const avgNow = nowBacked ? average(now_.map((d) => d.propertyValue)) : null;
    const avgThen = enough(then) ? average(then.map((d) => d.propertyValue)) : null;
    return {
      region: name,
      avgPrice: avgNow === null ? null : Math.round(avgNow),
      change: avgNow !== null && avgThen ? round1(((avgNow - avgThen) / avgThen) * 100) : null,
      count: nowBacked ? now_.length : null,
      previousCount: enough(then) ? then.length : 0,
    };
  });

  const byLender = new Map<number, DealFact[]>();
  for (const d of hereBacked ? here : []) byLender.set(d.lenderAgentId, [...(byLender.get(d.lenderAgentId) ?? []), d]);
  const ownLender = (agentId: number) =>
    input.viewerFirmId === null ||
    input.firmsOf({ borrowerAgentId: null, lenderAgentId: agentId, brokerAgentId: null }).includes(input.viewerFirmId);
  const lenders = [...byLender]
    .filter(([agentId]) => ownLender(agentId))
    .map(([agentId, deals]) => ({
      agentId,
      name: input.lenders.get(agentId)?.name ?? `Lender ${agentId}`,
      deals: deals.length,
      marketShare: round1((deals.length / here.length) * 100),
      avgRate: round2(average(deals.map((d) => d.interestRate))!),
      criteria: lenderCriteriaLabel(input.lenders.get(agentId)?.criteria),
    }))
    .sort((a, b) => b.deals - a.deals || a.avgRate - b.avgRate || a.agentId - b.agentId);

  const avgRate = hereBacked ? average(here.map((d) => d.interestRate)) : null;
  const avgPrice = hereBacked ? average(here.map((d) => d.propertyValue)) : null;
  // A month's figure is shown only where enough of that month's records, from enough firms, back it.
  const series = rates.map((r) => {
    const offeredShown = enough(r.offered.map(offerParties));
    const agreedShown = enough(r.agreed);
    return {
      month: r.month,
      offeredRate: offeredShown ? round2(average(r.offered.map((o) => o.interestRate))!) : null,
      agreedRate: agreedShown ? round2(average(r.agreed.map((d) => d.interestRate))!) : null,
      offers: offeredShown ? r.offered.length : 0,
      deals: agreedShown ? r.agreed.length : 0,
    };
  });
  return {
    region,
    period,
    from: from.toISOString(),
    to: to.toISOString(),
    deals: hereBacked ? here.length : null,
    enoughData: hereBacked,
    headline: {
      avgInterestRate: avgRate === null ? null : round2(avgRate),
      avgPropertyPrice: avgPrice === null ? null : Math.round(avgPrice),
      marketVolume: hereBacked ? here.reduce((total, d) => total + d.loanAmount, 0) : null,
      mortgageApprovals: hereBacked ? here.length : null,
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
  regions: { region: MarketRegion; count: number | null; previousCount: number }[],
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
    if (r.count !== null && r.count > r.previousCount && r.count >= MARKET_MIN_DEALS) {
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
