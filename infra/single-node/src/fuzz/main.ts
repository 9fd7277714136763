import { mkdtemp, chmod, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres } from '@pf/infra/embedded';
import type { FuzzReport } from './report';
import { fuzz } from './run';
import { startFuzzTarget, stillHealthy } from './target';

/**
 * npm run fuzz: generated hostile inputs (fast-check) against a real single node on real PostgreSQL (an
 * embedded server of its own, or DATABASE_URL), over every HTTP route it declares and every socket message
 * type, each input a fast-check property run (a failure is shrunk to a minimal counterexample, printed with
 * its seed and path). Fails (exit 1) on any 5xx, crash, closed socket, or a node that no longer works afterwards.
 * FUZZ_HTTP_RUNS, FUZZ_SOCKET_RUNS and FUZZ_SEED (to replay a run) may be set.
 */
const httpRuns = Number(process.env.FUZZ_HTTP_RUNS ?? 9000);
const socketRuns = Number(process.env.FUZZ_SOCKET_RUNS ?? 3000);
const targetedRuns = Number(process.env.FUZZ_TARGETED_RUNS ?? 1500);
const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;

let dir: string | null = null;
let databaseUrl = process.env.DATABASE_URL;
let stopDatabase: () => Promise<void> = async () => undefined;
if (!databaseUrl) {
  dir = await mkdtemp(path.join(os.tmpdir(), 'pf-fuzz-pg-'));
  await chmod(dir, 0o755);
  const embedded = await startEmbeddedPostgres(dir);
  databaseUrl = embedded.url;
  stopDatabase = () => embedded.stop();
}

const started = Date.now();
const { server, target, client } = await startFuzzTarget({
  DATABASE_URL: databaseUrl,
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'fatal',
  AUTOMATION: 'on',
  AGENT_REPLY_DELAY_MS: '0',
  // The fuzzer is one client sending thousands of requests: rate limits would stop it at the door.
  RATE_LIMIT_PER_MINUTE: '10000000',
  READ_WAIT_TIMEOUT_MS: '500',
});
let report: FuzzReport | null = null;
let problems: string[] = [];
try {
  report = await fuzz(target, { httpRuns, socketRuns, targetedRuns, seed, concurrency: 8 });
  problems = await stillHealthy(server, client);
} finally {
  await server.close();
  await stopDatabase();
  if (dir) await rm(dir, { recursive: true, force: true });
}

const targetedInputs = Object.values(report.targeted).reduce((sum, tally) => sum + tally.tried, 0);
const inputs = report.httpInputs + report.socketInputs + targetedInputs;
const print = (line: string) => process.stdout.write(`${line}\n`);
print(`fuzz: seed ${report.seed}, ${report.routes} routes, ${((Date.now() - started) / 1000).toFixed(1)} s`);
print(
  `inputs tried: ${inputs} (HTTP ${report.httpInputs}, socket ${report.socketInputs}, aimed ${targetedInputs}; ${report.httpUnsendable} HTTP inputs the client could not send)`,
);
print(
  `aimed inputs (tried / answered as they must): ${Object.entries(report.targeted)
    .map(([kind, tally]) => `${kind} ${tally.tried} / ${tally.asExpected}`)
    .join('; ')}`,
);
print(`HTTP answers: ${JSON.stringify(report.statusCounts)}`);
print(
  `5xx answers: ${report.serverErrors.length}; socket server failures: ${report.socketServerErrors.length}; answers too large for the client to read: ${report.unreadable.length}`,
);
print(
  `crashes: ${report.crashes.length}; sockets closed or silent: ${report.socketsClosedUnexpectedly}; node afterwards: ${problems.length ? problems.join('; ') : 'healthy'}`,
);
for (const error of report.serverErrors.slice(0, 20))
  print(`  ${error.status} ${error.method} ${error.path.slice(0, 120)} ${error.body} <- ${error.input}`);
for (const answer of report.unreadable.slice(0, 5))
  print(`  unreadable answer (not a 5xx): ${answer.method} ${answer.path.slice(0, 100)}: ${answer.problem}`);
for (const error of report.socketServerErrors.slice(0, 10)) print(`  socket: ${error.message}`);
for (const crash of report.crashes.slice(0, 10)) print(`  crash: ${crash}`);
// fast-check's own report of each failed property: the minimal input, its seed and the path to replay it.
print(`failed properties: ${report.counterexamples.length} (${report.shrinkRuns} shrink steps, not counted above)`);
for (const failure of report.counterexamples.slice(0, 10)) print(`  ${failure.replace(/\n/g, '\n    ')}`);
const failed =
  inputs < 10_000 && httpRuns + socketRuns + targetedRuns >= 10_000
    ? true
    : report.serverErrors.length +
        report.socketServerErrors.length +
        report.crashes.length +
        report.socketsClosedUnexpectedly +
        report.counterexamples.length +
        problems.length >
      0;
process.exit(failed ? 1 : 0);
