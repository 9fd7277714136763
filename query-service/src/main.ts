import { runStandalone } from '@pf/infra';
import { queryMigrations, queryService, startQueryJobs, tokenReadService } from './index';

/** The query-service on its own: GET /api routes (identity is the command-service's), the projector and the stream jobs. */
await runStandalone('query-service', queryMigrations, async (app, context) => {
  const jobs = await startQueryJobs(context);
  await app.register(queryService, { ...context, progress: jobs.progress });
  await app.register(tokenReadService, { ...context, progress: jobs.progress });
  return { ready: jobs.caughtUp, close: () => jobs.close() };
});
