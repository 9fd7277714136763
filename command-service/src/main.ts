import { runStandalone } from '@pf/infra';
import { commandMigrations, commandService, startAutomation, startDealOpener, startIllustrationMaker } from './index';

/** The command-service on its own: every non-GET /api route and identity (sign-in, sessions), behind the proxy. */
await runStandalone('command-service', commandMigrations, async (app, context) => {
  await app.register(commandService, context);
  // Every copy may run it: one leads (advisory lock), the others take over if it stops.
  const automation = context.config.AUTOMATION === 'on' ? startAutomation(context) : null;
  // Every copy runs it too: opening a deal is idempotent.
  const dealOpener = startDealOpener(context);
  // And this: a deal's illustration is made once, whichever copy gets there first.
  const illustrations = startIllustrationMaker(context);
  return {
    close: async () => Promise.all([automation?.close(), dealOpener.close(), illustrations.close()]).then(() => undefined),
  };
});
