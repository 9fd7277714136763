import { runStandalone } from '@pf/infra';
import { queryMigrations, queryService } from './index';

/** The query-service on its own: GET /api routes, sign-in, and the projector (copies share its checkpoint). */
await runStandalone('query-service', queryMigrations, async (app, context) => {
  await app.register(queryService, context);
});
