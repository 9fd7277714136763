import { existsSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { consoleDist, ensureConsoleBuilt } from '@pf/console/e2e-server';

/** CHROMIUM_PATH, else a system Chromium as CI installs it (Debian's /usr/bin/chromium), as npm test looks for it. */
const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter((found): found is string =>
  Boolean(found),
);
const chromiumPath = candidates.find((candidate) => existsSync(candidate)) ?? candidates[0]!;

/**
 * Why the browser part cannot run here, or null when it can. On CI a missing Chromium is a failure (the
 * browser part must run there); elsewhere the test says why it skips, so a skipped run is never mistaken
 * for a passing one.
 */
export function browserUnavailable(): string | null {
  if (existsSync(chromiumPath)) return null;
  const reason = `no Chromium at ${candidates.join(' or ')} (set CHROMIUM_PATH, or apt-get install -y chromium)`;
  if (process.env.CI === 'true') throw new Error(`The browser fault test must run on CI, but there is ${reason}`);
  return reason;
}

/**
 * The built console, as the e2e tests get it: E2E_CONSOLE_DIST when given (built there beforehand), else
 * console/dist, (re)built when missing or older than the sources.
 */
export function builtConsole(): string {
  ensureConsoleBuilt();
  if (!existsSync(path.join(consoleDist, 'index.html'))) throw new Error(`No built console at ${consoleDist}`);
  return consoleDist;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
