import { ensureConsoleBuilt, startE2eServer } from './server';

/** Builds the console if needed and starts the real single-node server; its URL reaches the tests via env. */
export default async function globalSetup() {
  ensureConsoleBuilt();
  const server = await startE2eServer();
  process.env.E2E_BASE_URL = server.url;
  // For a test that writes a past into the store by hand (negotiation-fixture.ts).
  process.env.E2E_DATABASE_URL = server.databaseUrl;
  return async () => {
    await server.stop();
  };
}
