import { runStandalone } from '@pf/infra';
import { commandMigrations, commandService } from './index';

/** The command-service on its own: every non-GET /api route, behind the proxy. */
await runStandalone('command-service', commandMigrations, async (app, context) => {
  await app.register(commandService, context);
});
