import { runStandalone } from '@pf/infra';
import { commandMigrations, commandService, startAutomation, startDealOpener } from './index';

/** The command-service on its own: every non-GET /api route and identity (sign-in, sessions), behind the proxy. */
await runStandalone('command-service', commandMigrations, async (app, context) => {
  await app.register(commandService, context);
  // Every copy may run it: one leads (advisory lock), the others take over if it stops.
  const automation = context.config.AUTOMATION === 'on' ? startAutomation(context) : null;
  // Every copy runs it too: opening a deal is idempotent.
  const dealOpener = startDealOpener(context);
  return { close: async () => Promise.all([automation?.close(), dealOpener.close()]).then(() => undefined) };
});
