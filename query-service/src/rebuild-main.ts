import { parseArgs } from 'node:util';
import { createLogger, loadConfig, openServiceContext } from '@pf/infra';
import { runningEmbeddedUrl, startEmbeddedPostgres } from '@pf/infra/embedded';
import { queryMigrations } from './index';
import { liveRebuild, RebuildRunning } from './rebuild/live-rebuild';
import { UnknownReadModel } from './rebuild/parts';
import { progressLine } from './rebuild/progress-line';

/**
 * npm run rebuild [-- --only deals[,leads]]: rebuilds the read models live (docs/decisions/live-rebuild.md), on
 * DATABASE_URL, else on the embedded database under DATA_DIR: the running product's when `npm start` has it
 * open (its postmaster.pid names the port, its password file the password), else started here. The product may keep running throughout.
 */
const { values } = parseArgs({ options: { only: { type: 'string', multiple: true } } });
const only = (values.only ?? [])
  .flatMap((value) => value.split(','))
  .map((name) => name.trim())
  .filter(Boolean);
const config = loadConfig();
const log = createLogger(config.LOG_LEVEL, 'rebuild');

const shared = config.DATABASE_URL ?? runningEmbeddedUrl(config.DATA_DIR);
const embedded = shared
  ? null
  : await startEmbeddedPostgres(config.DATA_DIR).catch((error: unknown) => {
      process.stderr.write(`Could not start the embedded database under ${config.DATA_DIR} (${String(error)}); set DATABASE_URL\n`);
      process.exit(1);
    });
const context = await openServiceContext(config, log, shared ?? embedded!.url, queryMigrations);
const stop = new AbortController();
process.once('SIGINT', () => stop.abort(new Error('Interrupted')));
let lastLine = 0;
let code = 0;
try {
  const result = await liveRebuild(context.pool, context.store, {
    only,
    signal: stop.signal,
    onProgress(progress) {
      // At most a line a second while building; every change of phase.
      if (progress.phase === 'building' && performance.now() - lastLine < 1000) return;
      lastLine = performance.now();
      process.stdout.write(`${progressLine(progress)}\n`);
    },
  });
  process.stdout.write(`Done in ${result.seconds.toFixed(1)} s; the switch held the live followers for ${result.switchMs.toFixed(0)} ms\n`);
} catch (error) {
  code = 1;
  if (error instanceof UnknownReadModel || error instanceof RebuildRunning) process.stderr.write(`${error.message}\n`);
  else if (stop.signal.aborted)
    process.stderr.write('Interrupted: the live tables are as they were; npm run rebuild takes it up where it stopped\n');
  else throw error;
} finally {
  await context.close();
  await embedded?.stop();
}
process.exitCode = code;
