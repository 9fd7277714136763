import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { SimulationReport } from './run';

/**
 * The whole-system simulation on fixed seeds (docs/simulation.md): the real single node on real PostgreSQL,
 * four operators in two firms, 500 steps a seed, every invariant checked after every step (the read models
 * against a fresh fold and the pushes against them every 250 steps and at the end).
 * The seeds run in two processes (`npm run simulate`), each on an embedded PostgreSQL server of its own: two
 * seeds on one server would hold back each other's followers (the store reads below the oldest open transaction
 * of the whole cluster), while two servers use both cores.
 */
/** The same as `npm run simulate -- --seed 1001 --seeds 20 --steps 500 --fold-every 250`, split in two. */
const FIRST_SEED = 1001;
const SEED_COUNT = 20;
const STEPS = 500;
const LANES = 2;
const LANE_TIMEOUT_MS = 3_000_000;

const here = path.dirname(fileURLToPath(import.meta.url));
const main = path.join(here, 'main.ts');

/** One lane: `count` seeds from `first`, in a child process; resolves with its reports once it has exited. */
async function runLane(first: number, count: number, dir: string): Promise<SimulationReport[]> {
  const reportFile = path.join(dir, `lane-${first}.json`);
  const env = { ...process.env };
  // No shared server: the child starts an embedded one of its own.
  delete env.DATABASE_URL;
  delete env.TEST_DATABASE_URL;
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      main,
      '--seed',
      String(first),
      '--seeds',
      String(count),
      '--steps',
      String(STEPS),
      '--fold-every',
      '250',
      '--report',
      reportFile,
    ],
    { env, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  child.stdout.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) if (line.startsWith('seed ')) console.log(`[simulation] ${line.slice(0, 200)}`);
  });
  // Bounded: a lane that does not end is stopped (its embedded server stops with it on SIGTERM), then killed.
  const timer = setTimeout(() => {
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
  }, LANE_TIMEOUT_MS);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
  clearTimeout(timer);
  const reports = JSON.parse(await readFile(reportFile, 'utf8').catch(() => '[]')) as SimulationReport[];
  if (code !== 0 && reports.every((report) => report.violations.length === 0)) {
    throw new Error(`simulation lane from seed ${first} exited with ${code} after ${reports.length} of ${count} seeds`);
  }
  return reports;
}

describe('the simulation', () => {
  it(`keeps every invariant over ${SEED_COUNT} seeds of ${STEPS} steps`, async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'pf-simulation-reports-'));
    let reports: SimulationReport[];
    try {
      const perLane = Math.ceil(SEED_COUNT / LANES);
      const lanes = Array.from({ length: LANES }, (_, lane) => FIRST_SEED + lane * perLane);
      reports = (await Promise.all(lanes.map((first) => runLane(first, Math.min(perLane, FIRST_SEED + SEED_COUNT - first), dir)))).flat();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    for (const report of reports) {
      for (const violation of report.violations) console.log(`[simulation] seed ${report.seed}: ${JSON.stringify(violation)}`);
    }
    const total = (pick: (report: SimulationReport) => number) => reports.reduce((sum, report) => sum + pick(report), 0);
    console.log(
      `[simulation] ${reports.length} seeds × ${STEPS} steps: ${total((r) => r.violations.length)} violations; ${total((r) => r.tally.events)} events, ` +
        `${total((r) => r.tally.dealsAgreed)} deals agreed, ${total((r) => r.tally.reopenings)} needs reopened, ` +
        `${total((r) => r.tally.operatorOffersRecorded)} operator offers recorded exactly, ${total((r) => r.tally.operatorOffersRefused)} refused with a reason, ` +
        `${total((r) => r.tally.handBacks)} hand-backs by response time`,
    );
    expect(reports.flatMap((report) => report.violations)).toEqual([]);
    expect(reports.map((report) => report.seed)).toEqual(Array.from({ length: SEED_COUNT }, (_, index) => FIRST_SEED + index));
    // The runs did what they are for: agreements were made, needs reopened, operators' offers recorded.
    expect(total((r) => r.tally.dealsAgreed)).toBeGreaterThan(SEED_COUNT);
    expect(total((r) => r.tally.reopenings)).toBeGreaterThan(0);
    expect(total((r) => r.tally.operatorOffersRecorded)).toBeGreaterThan(SEED_COUNT);
  }, 3_600_000);
});
