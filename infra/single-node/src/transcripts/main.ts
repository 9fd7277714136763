/**
 * npm run transcripts -- --seeds 1001-1020 [--steps 500] [--pairs 5000] [--tournament-seed 1] [--lanes 2] [--report FILE] [--all]
 * Reads every conversation the simulation (each seed, on a fresh database) and the negotiation tournament produce,
 * as people read them, and checks the rules of docs/behaviour/transcripts.md. Prints per rule what was checked and
 * what broke it; exits 1 on any violation, any conversation that could not be read, or a seed that gave no
 * conversation with offers to read. `--lanes N` runs the seeds in N processes, each on an embedded PostgreSQL of its
 * own (as the simulation's test does; `--lane FILE` is such a process, writing its seeds' readings there);
 * `--report FILE` writes every reading as JSON; `--all` prints every violation, not the first few of each rule.
 */
import { spawn } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '@pf/infra/embedded';
import { textOption, wholeNumberOption } from '../command-line';
import { printReadings, type Readings } from './print';
import { readTournamentTranscripts } from './read-tournament';
import { checkTranscripts } from './rules';
import { readSeed, type SeedReading } from './run-seeds';

function seedRange(): number[] {
  const at = process.argv.indexOf('--seeds');
  const text = at < 0 ? '1001-1020' : (process.argv[at + 1] ?? '');
  const match = /^(\d+)(?:-(\d+))?$/.exec(text);
  if (!match || Number(match[2] ?? match[1]) < Number(match[1])) {
    console.error(`--seeds must be N or N-M (got ${text || 'nothing'})`);
    process.exit(2);
  }
  const first = Number(match[1]);
  return Array.from({ length: Number(match[2] ?? match[1]) - first + 1 }, (_, i) => first + i);
}

const seeds = seedRange();
const steps = wholeNumberOption('steps', 500);
const pairs = wholeNumberOption('pairs', 5000);
const tournamentSeed = wholeNumberOption('tournament-seed', 1);
const lanes = Math.max(1, Math.min(wholeNumberOption('lanes', 1), seeds.length));
const reportFile = textOption('report');
const laneFile = textOption('lane');
const here = path.dirname(fileURLToPath(import.meta.url));

/** One lane: a child process reading `laneSeeds` on an embedded server of its own; its readings once it has exited. */
async function runLane(laneSeeds: readonly number[], dir: string): Promise<SeedReading[]> {
  const answer = path.join(dir, `lane-${laneSeeds[0]}.json`);
  const env = { ...process.env };
  delete env.DATABASE_URL;
  delete env.TEST_DATABASE_URL;
  const args = ['--seeds', `${laneSeeds[0]}-${laneSeeds.at(-1)}`, '--steps', String(steps), '--lane', answer];
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'main.ts'), ...args], {
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const readings = JSON.parse(await readFile(answer, 'utf8').catch(() => '[]')) as SeedReading[];
  if (readings.length !== laneSeeds.length)
    throw new Error(`the lane of seeds ${args[1]} exited with ${code} after ${readings.length} seeds`);
  return readings;
}

async function readSeedsHere(): Promise<SeedReading[]> {
  let embedded: EmbeddedDatabase | null = null;
  let dataDir: string | null = null;
  const readings: SeedReading[] = [];
  try {
    if (!process.env.TEST_DATABASE_URL) {
      if (process.env.DATABASE_URL) process.env.TEST_DATABASE_URL = process.env.DATABASE_URL;
      else {
        // Under /tmp, whose parents the embedded server's "postgres" user can traverse (as the tests' setup does).
        dataDir = await mkdtemp(path.join(os.tmpdir(), 'pf-transcripts-'));
        await chmod(dataDir, 0o755);
        embedded = await startEmbeddedPostgres(dataDir);
        process.env.TEST_DATABASE_URL = embedded.url;
      }
    }
    for (const seed of seeds) {
      const reading = await readSeed(seed, steps);
      readings.push(reading);
      console.log(
        `seed ${seed}: ${reading.check.conversations} conversations read (${reading.check.withOffers} with offers), ` +
          `${reading.check.violations.length} violations, ${reading.problems.length} unreadable; ${(reading.ms / 1000).toFixed(1)} s`,
      );
      if (laneFile) await writeFile(laneFile, JSON.stringify(readings));
    }
  } finally {
    await embedded?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  }
  return readings;
}

async function readSeeds(): Promise<SeedReading[]> {
  if (lanes === 1) return readSeedsHere();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'pf-transcripts-lanes-'));
  try {
    const perLane = Math.ceil(seeds.length / lanes);
    const split = Array.from({ length: lanes }, (_, lane) => seeds.slice(lane * perLane, (lane + 1) * perLane)).filter((s) => s.length > 0);
    return (await Promise.all(split.map((laneSeeds) => runLane(laneSeeds, dir)))).flat();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (laneFile) {
  await readSeedsHere();
  process.exit(0);
}
const started = Date.now();
function readTournament(): Readings['tournament'] {
  if (pairs === 0) return null;
  const t0 = Date.now();
  const check = checkTranscripts(readTournamentTranscripts({ pairs, seed: tournamentSeed }));
  return { pairs, seed: tournamentSeed, check, ms: Date.now() - t0 };
}

// The tournament is read while the lanes run; in one process, after the seeds (it would hold up the node's loop).
const seedReadings = steps > 0 ? readSeeds() : Promise.resolve([]);
const early = lanes > 1 ? readTournament() : undefined;
const seedsRead = await seedReadings;
const readings: Readings = {
  seeds: seedsRead,
  steps,
  tournament: early === undefined ? readTournament() : early,
  ms: Date.now() - started,
};
if (reportFile) await writeFile(reportFile, JSON.stringify(readings));
process.exit(printReadings(readings, (line) => console.log(line), { all: process.argv.includes('--all') }) ? 0 : 1);
