/** Nearest-rank percentile of samples (milliseconds or any unit); NaN for no samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1]!;
}

export interface Distribution {
  readonly p50: number;
  readonly p99: number;
  readonly samples: number;
}

export function distribution(samples: readonly number[]): Distribution {
  return { p50: round(percentile(samples, 50)), p99: round(percentile(samples, 99)), samples: samples.length };
}

export function round(value: number, digits = 2): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs `clients` loops side by side until `until()` says stop; each loop calls `work(client index)`. */
export async function concurrently(clients: number, until: () => boolean, work: (client: number) => Promise<void>): Promise<void> {
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      while (!until()) await work(client);
    }),
  );
}

/** `clients` loops side by side for `seconds`, each call of `work` reporting how many units it did: the units per second. */
export async function unitsPerSecond(clients: number, seconds: number, work: (client: number) => Promise<number>): Promise<number> {
  let done = 0;
  const started = performance.now();
  const end = started + seconds * 1000;
  await concurrently(
    clients,
    () => performance.now() >= end,
    async (client) => {
      // Not `done += await work(client)`: that reads `done` before the await, so loops finishing together
      // (a group commit settles its appends in one turn) overwrite each other's counts.
      const units = await work(client);
      done += units;
    },
  );
  return done / ((performance.now() - started) / 1000);
}
