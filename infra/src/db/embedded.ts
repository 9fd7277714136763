/**
 * The embedded PostgreSQL of the single node (docs/operations/embedded-database.md): starting it (server.ts),
 * who may reach it (access.ts), a server left running by an earlier run (leftover.ts), and keeping it running
 * (supervisor.ts).
 */
export { embeddedDatabaseUrl, passwordFile, runningEmbeddedUrl } from './embedded/access';
export { DataDirectoryInUse, EmbeddedStartFailed } from './embedded/errors';
export { stopLeftoverPostmaster } from './embedded/leftover';
export { freePort, startEmbeddedPostgres, type EmbeddedDatabase } from './embedded/server';
export {
  superviseEmbeddedPostgres,
  type EmbeddedStatus,
  type EmbeddedSupervisionOptions,
  type SupervisedEmbeddedDatabase,
} from './embedded/supervisor';
