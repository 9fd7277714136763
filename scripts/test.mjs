#!/usr/bin/env node
// npm test: type-check, lint (ESLint, then knip for unused or undeclared dependencies, exports and files), unit and integration tests (vitest, real PostgreSQL), then browser tests (Playwright, real Chromium).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const run = (label, command, args, env = process.env) => {
  process.stdout.write(`\n== ${label}: ${command} ${args.join(' ')}\n`);
  const result = spawnSync(command, args, { stdio: 'inherit', env });
  if (result.status !== 0) {
    process.stdout.write(`\n${label} failed (exit ${result.status ?? result.signal})\n`);
    process.exit(result.status ?? 1);
  }
};

run('type-check', 'npx', ['tsc', '-p', 'tsconfig.json']);
run('lint', 'npm', ['run', 'lint']);
run('unused and undeclared code', 'npm', ['run', 'knip']);
run('unit and integration tests', 'npx', ['vitest', 'run']);

// A system Chromium first; Playwright's own download only where one was installed (npx playwright install).
const playwrightOwn = async () => {
  try {
    const { chromium } = await import('playwright-core');
    return chromium.executablePath();
  } catch {
    return undefined;
  }
};
const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', await playwrightOwn()].filter(Boolean);
const chromium = candidates.find((path) => existsSync(path));
if (!chromium) {
  const line = 'Browser tests skipped: no Chromium found (set CHROMIUM_PATH, or apt-get install -y chromium).';
  if (process.env.CI === 'true') {
    process.stdout.write(`${line} In CI a missing browser is a failure.\n`);
    process.exit(1);
  }
  process.stdout.write(`${line}\n`);
  process.exit(0);
}
if (!existsSync('console/playwright.config.ts')) {
  process.stdout.write('Browser tests: console/playwright.config.ts is missing.\n');
  process.exit(1);
}
run('browser tests', 'npx', ['playwright', 'test', '-c', 'console/playwright.config.ts'], { ...process.env, CHROMIUM_PATH: chromium });
