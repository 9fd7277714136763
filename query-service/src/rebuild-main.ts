import { createLogger, loadConfig, openServiceContext } from '@pf/infra';
import { startEmbeddedPostgres } from '@pf/infra/embedded';
import { queryMigrations } from './index';
import { rebuildReadModels } from './rebuild';

/** npm run rebuild: drop the read models and replay every event into them (DATABASE_URL, else the embedded database under DATA_DIR). */
const config = loadConfig();
const log = createLogger(config.LOG_LEVEL, 'rebuild');
const embedded = config.DATABASE_URL
  ? null
  : await startEmbeddedPostgres(config.DATA_DIR).catch((error: unknown) => {
      process.stderr.write(
        `Could not start the embedded database under ${config.DATA_DIR} (${String(error)}); stop npm start first, or set DATABASE_URL\n`,
      );
      process.exit(1);
    });
const context = await openServiceContext(config, log, config.DATABASE_URL ?? embedded!.url, queryMigrations);
const started = performance.now();
const applied = await rebuildReadModels(context.pool, context.store);
const seconds = (performance.now() - started) / 1000;
process.stdout.write(`Rebuilt the read models from ${applied} events in ${seconds.toFixed(1)} s\n`);
await context.close();
await embedded?.stop();
