import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkInWorkers, shares } from './property';
import { emptyFuzzReport } from './report';

const emptyReport = () => emptyFuzzReport(1, 0);

describe('the fuzzer checks inputs as fast-check properties', () => {
  it('splits the runs over the workers without losing any', () => {
    expect(shares(10, 4)).toEqual([3, 3, 2, 2]);
    expect(shares(2, 4)).toEqual([1, 1]);
  });

  it('reports a failure with its shrunk counterexample and seed, and counts shrink steps apart', async () => {
    const report = emptyReport();
    let counted = 0;
    // Fails on any list holding a number of 500 or more: the minimal counterexample is [500].
    await checkInWorkers(
      report,
      fc.array(fc.nat({ max: 100_000 }), { minLength: 1 }),
      { runs: 200, workers: 2, seed: 42, label: 'test' },
      async (input, isCounted) => {
        if (isCounted) counted += 1;
        return input.some((n) => n >= 500) ? `too big: ${input.join(',')}` : null;
      },
    );
    expect(report.counterexamples.length).toBeGreaterThan(0);
    for (const failure of report.counterexamples) {
      expect(failure).toMatch(/seed: 4[23]/);
      expect(failure).toContain('Counterexample: [[500]]');
    }
    expect(report.shrinkRuns).toBeGreaterThan(0);
    expect(counted).toBeLessThanOrEqual(200);
  });

  it('reports nothing when every input passes', async () => {
    const report = emptyReport();
    await checkInWorkers(report, fc.nat(), { runs: 50, workers: 3, seed: 7, label: 'test' }, async () => null);
    expect(report.counterexamples).toEqual([]);
    expect(report.shrinkRuns).toBe(0);
  });
});
