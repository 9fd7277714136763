import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/src/**/*.{unit,int}.test.{ts,tsx}', 'tests/**/*.{unit,int}.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**', 'data/**'],
    globalSetup: ['./vitest.global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: integration files each create their own database; two at a time keeps them honest and quick.
    maxWorkers: 2,
  },
});
