import { runStandalone } from '@pf/infra';
import { commandMigrations, commandService, startAutomation } from './index';

/** The command-service on its own: every non-GET /api route, behind the proxy. */
await runStandalone('command-service', commandMigrations, async (app, context) => {
  await app.register(commandService, context);
  // Every copy may run it: one leads (advisory lock), the others take over if it stops.
  const automation = context.config.AUTOMATION === 'on' ? startAutomation(context) : null;
  return { close: async () => automation?.close() };
});
