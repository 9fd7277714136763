import { describe, expect, it } from 'vitest';
import { median, runTournament } from './tournament';

describe('the negotiation tournament', () => {
  it('reports its figures and negotiations per second from the injected clock', () => {
    let tick = 0;
    const report = runTournament({ pairs: 300, seed: 11, now: () => (tick += 150) });
    expect(report.pairs).toBe(300);
    expect(report.negotiationsPerSecond).toBe(2000);
    expect(report.agreementsWithoutZone).toBe(0);
    expect(report.agreementRateWithZone).toBeGreaterThanOrEqual(0.95);
    expect(report.meanDistanceToPareto).toBeLessThanOrEqual(report.meanDistanceToNash + 1e-9);
    expect(report.agreementsOutsideLimits).toBe(0);
    expect(report.medianRoundsWithZone).toBeGreaterThan(1);
    expect(report.medianRoundsWithZone).toBeLessThanOrEqual(6);
    expect(report.meanDistanceToNash).toBeLessThanOrEqual(0.08);
    expect(Object.keys(report.byPairing)).toHaveLength(9);
    expect(Object.values(report.byPairing).reduce((sum, figures) => sum + figures.pairs, 0)).toBe(300);
    expect(runTournament({ pairs: 300, seed: 11, now: () => 0 }).agreements).toBe(report.agreements);
  });

  it('takes the median of odd and even lists', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
});
