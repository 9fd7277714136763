/**
 * npm run simulate -- --seed N --steps M [--seeds K] [--fold-every F] [--keep-going] [--report FILE]
 * Runs the whole-system simulation (docs/simulation.md) for seed N (and the K-1 seeds after it), M steps each,
 * on a fresh database per seed: on the server DATABASE_URL names, else an embedded PostgreSQL in a temporary
 * directory (removed afterwards). Prints each violation with its seed and step; the same seed replays the same
 * steps. Exits 1 when any invariant was violated. `--report FILE` also writes every seed's report there as JSON
 * (the CI test runs its seeds in two such processes, each on a server of its own).
 */
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '@pf/infra/embedded';
import { createTestDatabase } from '@pf/infra/testing';
import { textOption, wholeNumberOption } from '../command-line';
import { runSimulation, type SimulationReport } from './run';

const seed = wholeNumberOption('seed', 1);
const steps = wholeNumberOption('steps', 500);
const seeds = wholeNumberOption('seeds', 1);
const foldEvery = wholeNumberOption('fold-every', 100);
const keepGoing = process.argv.includes('--keep-going');
const reportFile = textOption('report');
const reports: SimulationReport[] = [];

let embedded: EmbeddedDatabase | null = null;
// Stopped by Ctrl-C or a signal: the embedded server stops too (bounded), not left running.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    const stop = embedded ? Promise.race([embedded.stop(), new Promise((resolve) => setTimeout(resolve, 10_000))]) : Promise.resolve();
    void stop.finally(() => process.exit(130));
  });
}
let dataDir: string | null = null;
let failed = false;
try {
  if (!process.env.TEST_DATABASE_URL) {
    if (process.env.DATABASE_URL) process.env.TEST_DATABASE_URL = process.env.DATABASE_URL;
    else {
      // Under /tmp, whose parents the embedded server's "postgres" user can traverse (as the tests' setup does).
      dataDir = await mkdtemp(path.join(os.tmpdir(), 'pf-simulation-'));
      await chmod(dataDir, 0o755);
      embedded = await startEmbeddedPostgres(dataDir);
      process.env.TEST_DATABASE_URL = embedded.url;
    }
  }
  for (let s = seed; s < seed + seeds; s += 1) {
    const database = await createTestDatabase('pf_simulation');
    try {
      const report = await runSimulation({
        seed: s,
        steps,
        databaseUrl: database.url,
        foldEvery,
        stopAtFirst: !keepGoing,
        log: (line) => console.log(line),
      });
      failed ||= report.violations.length > 0;
      reports.push(report);
      if (reportFile) await writeFile(reportFile, JSON.stringify(reports));
      console.log(
        `seed ${s}: ${report.violations.length} violation(s) in ${steps} steps, ${(report.ms / 1000).toFixed(1)} s; ` +
          `${report.tally.events} events, ${report.tally.dealsAgreed} deals agreed, ${report.tally.commitments} commitments, ${report.tally.reopenings} reopened, ` +
          `${report.tally.operatorOffersRecorded} operator offers recorded exactly, ${report.tally.operatorOffersRefused} refused with a reason, ` +
          `${report.tally.handBacks} hand-backs by response time, ${report.tally.stalls} stalls; actions ${JSON.stringify(report.actions)}`,
      );
    } finally {
      await database.drop();
    }
  }
} finally {
  await embedded?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
