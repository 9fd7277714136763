import fc from 'fast-check';
import type { FuzzReport } from './report';

/** `runs` split over `workers`, each its own share (the first ones take the remainder). */
export function shares(runs: number, workers: number): number[] {
  return Array.from({ length: workers }, (_, index) => Math.floor(runs / workers) + (index < runs % workers ? 1 : 0)).filter((n) => n > 0);
}

/**
 * Properties checked by fast-check in several workers at once (the server is the bottleneck, not the client):
 * worker w runs its share with seed + w, so FUZZ_SEED replays every worker. A failing input (a 5xx, a broken
 * connection) fails that worker's property, which fast-check then shrinks to a minimal counterexample; the
 * other workers carry on. After a worker's first failure every run is a shrink step: counted apart.
 */
export async function checkInWorkers<T>(
  report: FuzzReport,
  arbitrary: fc.Arbitrary<T>,
  options: { runs: number; workers: number; seed: number; label: string },
  check: (input: T, counted: boolean, worker: number) => Promise<string | null>,
): Promise<void> {
  await Promise.all(
    shares(options.runs, options.workers).map(async (numRuns, worker) => {
      let shrinking = false;
      const property = fc.asyncProperty(arbitrary, async (input) => {
        if (shrinking) report.shrinkRuns += 1;
        const problem = await check(input, !shrinking, worker);
        if (problem === null) return;
        shrinking = true;
        throw new Error(problem);
      });
      try {
        await fc.assert(property, { numRuns, seed: options.seed + worker });
      } catch (error) {
        report.counterexamples.push(`${options.label} worker ${worker}: ${(error as Error).message.slice(0, 3000)}`);
      }
    }),
  );
}
