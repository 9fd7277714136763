import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { chromiumLaunchOptions } from '@pf/infra/chromium';
import type { BenchUser } from '../lib/session';
import { percentile, round } from '../lib/stats';

export interface ConsoleResult {
  readonly console_js_gzip_kb: number;
  readonly console_dashboard_js_gzip_kb: number;
  readonly dashboard_lcp_ms: number;
}

const gzipKb = (bytes: Buffer) => gzipSync(bytes).length / 1024;
const STATIC_IMPORT = /(?:^|[;}\s])import\s*(?:[\w*{}\s,$]+from\s*)?["']([^"']+\.js)["']/g;

/** The JS index.html loads eagerly: its module scripts and modulepreloads, and their static imports. */
async function initialJs(dist: string): Promise<string[]> {
  const html = await readFile(path.join(dist, 'index.html'), 'utf8');
  const roots = [...html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"|<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)].map(
    (m) => (m[1] ?? m[2])!,
  );
  const seen = new Set<string>();
  const queue = roots.map((src) => path.join(dist, src));
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const code = await readFile(file, 'utf8');
    for (const match of code.matchAll(STATIC_IMPORT)) queue.push(path.resolve(path.dirname(file), match[1]!));
  }
  return [...seen];
}

/**
 * Size of the eager JS (gzip, as a compressing proxy would serve it) and the largest contentful paint of
 * /dashboard for a signed-in user with data, in headless Chromium; median of `runs` fresh browser contexts.
 */
export async function measureConsole(options: { productUrl: string; dist: string; user: BenchUser; runs: number }): Promise<ConsoleResult> {
  let eager = 0;
  for (const file of await initialJs(options.dist)) eager += gzipKb(await readFile(file));

  const browser = await chromium.launch(chromiumLaunchOptions);
  const paints: number[] = [];
  let dashboardJs = 0;
  try {
    const [name, value] = options.user.cookie.split('=') as [string, string];
    for (let run = 0; run < options.runs; run++) {
      const context = await browser.newContext();
      await context.addCookies([{ name, value, url: options.productUrl }]);
      const page = await context.newPage();
      const scripts = new Set<string>();
      page.on('response', (response) => {
        if (response.url().endsWith('.js') && response.url().startsWith(options.productUrl)) scripts.add(new URL(response.url()).pathname);
      });
      await page.goto(`${options.productUrl}/dashboard`, { waitUntil: 'networkidle' });
      const lcp = await page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            new PerformanceObserver((list) => {
              const entries = list.getEntries();
              resolve(entries[entries.length - 1]!.startTime);
            }).observe({ type: 'largest-contentful-paint', buffered: true });
            setTimeout(() => resolve(Number.NaN), 3000);
          }),
      );
      paints.push(lcp);
      if (run === 0) {
        for (const script of scripts) dashboardJs += gzipKb(await readFile(path.join(options.dist, script)));
      }
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return {
    console_js_gzip_kb: round(eager, 1),
    console_dashboard_js_gzip_kb: round(dashboardJs, 1),
    dashboard_lcp_ms: round(percentile(paints.filter(Number.isFinite), 50), 0),
  };
}
