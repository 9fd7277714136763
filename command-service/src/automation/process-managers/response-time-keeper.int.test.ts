import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLogger, openServiceContext, parseConfig, type OpenedContext } from '@pf/infra';
import { createTestDatabase } from '@pf/infra/testing';
import { commandMigrations } from '../../index';
import { startResponseTimeKeeper } from './response-time-keeper';

const until = async (check: () => boolean | Promise<boolean>, what: string, timeoutMs = 8000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

// docs/simulation.md "What runs": the simulation moves the response-time clock and runs the check itself; a check the
// keeper's timer ran on its own could hand a side back after a step was found idle and before the invariants read it.
describe('response-time keeper with a clock of its own', () => {
  let context: OpenedContext;
  beforeAll(async () => {
    const database = await createTestDatabase();
    // An hour of 200 ms: on its timer the keeper would check every 50 ms.
    const config = parseConfig({ DATABASE_URL: database.url, LOG_LEVEL: 'silent', AGENT_RESPONSE_HOUR_MS: '200' });
    const opened = await openServiceContext(config, createLogger('silent'), database.url, commandMigrations);
    context = { ...opened, close: async () => (await opened.close(), await database.drop()) };
  });
  afterEach(() => vi.useRealTimers());
  afterAll(async () => context?.close());

  it('checks only when asked: neither catching up nor its timer reads that clock', async () => {
    // Only intervals are faked: the store, the pool and the waits below keep real time.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    let reads = 0;
    const keeper = startResponseTimeKeeper(context, {
      now: () => {
        reads += 1;
        return Date.now();
      },
    });
    try {
      // A check before the keeper has caught up reads nothing; the first one after reads the clock once.
      await until(async () => (await keeper.check(), reads > 0), 'the keeper to catch up and check when asked');
      expect(reads).toBe(1);
      vi.advanceTimersByTime(1_000);
      await keeper.check();
      expect(reads).toBe(2);
    } finally {
      await keeper.close();
    }
  });
});
