import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from '@pf/infra/chromium';

export default defineConfig({
  testDir: './e2e',
  testMatch: '*.e2e.test.ts',
  outputDir: '../test-results/console-e2e',
  workers: 1,
  fullyParallel: false,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  globalSetup: './e2e/global-setup.ts',
  use: {
    // Set by the global setup, which runs before the test files are loaded in the workers.
    baseURL: process.env.E2E_BASE_URL,
    viewport: { width: 1280, height: 800 },
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    // A system Chromium first (CI installs Debian's); Playwright's own download only if that is absent.
    launchOptions: chromiumLaunchOptions,
  },
});
