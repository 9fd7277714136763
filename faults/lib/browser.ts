import { existsSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { consoleDist, ensureConsoleBuilt } from '@pf/console/e2e-server';
import { CHROMIUM_CANDIDATES, chromiumLaunchOptions, systemChromium } from '@pf/infra/chromium';

/**
 * Why the browser part cannot run here, or null when it can. On CI a missing Chromium is a failure (the
 * browser part must run there); elsewhere the test says why it skips, so a skipped run is never mistaken
 * for a passing one.
 */
export function browserUnavailable(): string | null {
  if (systemChromium) return null;
  const reason = `no Chromium at ${CHROMIUM_CANDIDATES.join(' or ')} (set CHROMIUM_PATH, or apt-get install -y chromium)`;
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
  return chromium.launch(chromiumLaunchOptions);
}
