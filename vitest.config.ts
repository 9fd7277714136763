import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/src/**/*.{unit,int}.test.{ts,tsx}', 'tests/**/*.{unit,int}.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**', 'data/**'],
    globalSetup: ['./vitest.global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // One file at a time: the integration files share one PostgreSQL server, and a global read of the event
    // store waits for the oldest open write transaction in the whole cluster, so one file's long transaction
    // (a rebuild, CREATE DATABASE) stalls another file's event stream. Sequential is also faster on 2 cores.
    fileParallelism: false,
    maxWorkers: 1,
  },
});
