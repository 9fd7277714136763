import { createLogger, loadConfig, openServiceContext } from '@pf/infra';
import { startEmbeddedPostgres } from '@pf/infra/embedded';
import { isOfflineAudit, runAudit } from './audit';

/** npm run audit -- ...: the auditor's CLI against DATABASE_URL (or EVENTSTORE_URL), else the embedded database under DATA_DIR. */
const argv = process.argv.slice(2);
const print = (line: string) => process.stdout.write(`${line}\n`);
if (isOfflineAudit(argv)) {
  // An exported file is checked with nothing else: an auditor's machine has no database to open.
  const noDatabase = (): never => {
    throw new Error('verify --file needs no database');
  };
  process.exit(
    await runAudit(argv, {
      get store() {
        return noDatabase();
      },
      get pool() {
        return noDatabase();
      },
      print,
      now: () => new Date(),
    }),
  );
}
const config = loadConfig();
const log = createLogger(config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL, 'audit');
const embedded = config.DATABASE_URL
  ? null
  : await startEmbeddedPostgres(config.DATA_DIR).catch((error: unknown) => {
      process.stderr.write(
        `Could not start the embedded database under ${config.DATA_DIR} (${String(error)}); stop npm start first, or set DATABASE_URL\n`,
      );
      process.exit(2);
    });
const context = await openServiceContext(config, log, config.DATABASE_URL ?? embedded!.url, []);
let status = 2;
try {
  status = await runAudit(argv, { store: context.storedEvents, pool: context.pool, print, now: () => new Date() });
} finally {
  await context.close();
  await embedded?.stop();
}
process.exit(status);
