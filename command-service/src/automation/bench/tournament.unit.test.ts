import { describe, expect, it } from 'vitest';
import { median, runTournament } from './tournament';

describe('the negotiation tournament', () => {
  it('reports its figures and negotiations per second from the injected clock', () => {
    let tick = 0;
    const report = runTournament({ pairs: 200, seed: 11, now: () => (tick += 100) });
    expect(report.pairs).toBe(200);
    expect(report.negotiationsPerSecond).toBe(2000);
    expect(report.pairsWithZone).toBeGreaterThan(50);
    expect(report.agreementRateWithZone).toBeGreaterThanOrEqual(0.99);
    expect(report.agreementsWithoutZone).toBe(0);
    expect(report.agreementsOutsideLimits).toBe(0);
    expect(report.offersOutsideLimits).toBe(0);
    // Agreements lie on the lender's ladder, which walks the Pareto frontier of the grid of price points.
    expect(report.meanDistanceToPareto).toBeLessThan(0.01);
    expect(report.meanDistanceToPareto).toBeLessThanOrEqual(report.meanDistanceToNash + 1e-9);
    expect(Object.keys(report.byPairing)).toHaveLength(9);
    expect(Object.values(report.byPairing).reduce((sum, figures) => sum + figures.pairs, 0)).toBe(200);
    expect(runTournament({ pairs: 200, seed: 11, now: () => 0 }).agreements).toBe(report.agreements);
  });

  it('takes the median of odd and even lists', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
});
