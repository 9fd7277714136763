import { defineConfig } from 'vitest/config';

// npm run test:unit: the pure unit files, in parallel, with no database at all (no global PostgreSQL setup), for
// feedback in seconds. npm test (vitest.config.ts) still runs them, with the integration files.
export default defineConfig({
  test: {
    include: ['**/src/**/*.unit.test.{ts,tsx}'],
    exclude: ['**/node_modules/**', '**/dist/**', 'data/**'],
    testTimeout: 30_000,
  },
});
