import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The fault tests (npm run faults): real processes of the product against a PostgreSQL server of each test's
 * own, which the tests stop, restart and kill. Not part of npm test's run: they take a few minutes.
 */
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('..', import.meta.url)),
    include: ['faults/**/*.fault.test.ts'],
    testTimeout: 240_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    maxWorkers: 1,
  },
});
