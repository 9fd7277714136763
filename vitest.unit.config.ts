import { defineConfig } from 'vitest/config';

// npm run test:unit: the pure unit files, in parallel, with no database at all (no global PostgreSQL setup), for
// feedback in seconds. npm test (vitest.config.ts) still runs them, with the integration files.
export default defineConfig({
  test: {
    include: ['**/src/**/*.unit.test.{ts,tsx}', 'tests/**/*.unit.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**', 'data/**'],
    testTimeout: 30_000,
    // Each worker imports the contract (zod schemas), fast-check and the AsyncAPI parser once and reuses them for
    // every file it runs, instead of once per file: on two cores that is ~7 s instead of ~33 s, nearly all of the
    // difference being imports. Safe because unit files do no I/O and keep no module state between files; the one
    // global they stub (fetch, in console/src/lib/api-client.unit.test.ts) is restored after each test. A unit file
    // that needs a fresh module graph says so with vi.resetModules() rather than turning this back on for all.
    isolate: false,
  },
});
