import { existsSync } from 'node:fs';

/** CHROMIUM_PATH, else a system Chromium as CI installs it (Debian's /usr/bin/chromium, or chromium-browser). */
export const CHROMIUM_CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(
  (candidate): candidate is string => Boolean(candidate),
);

/** The first candidate present; undefined leaves Playwright to its own download. */
export const systemChromium = CHROMIUM_CANDIDATES.find((candidate) => existsSync(candidate));

/**
 * How every headless Chromium here is launched (the browser tests, the fault drills, the benchmarks): no sandbox
 * (containers run it as root), no GPU, and none of the background traffic that would add noise to a measurement.
 */
export const chromiumLaunchOptions = {
  executablePath: systemChromium,
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};
