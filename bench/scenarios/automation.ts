import type pg from 'pg';
import type { SessionStore } from '@pf/infra';
import type { ChildServer } from '../lib/children';
import { benchUser, call, expectStatus } from '../lib/session';
import { round, sleep } from '../lib/stats';

export interface AutomationResult {
  readonly automation_moves_per_s: number;
  readonly automation_offers: number;
  readonly automation_seconds: number;
}

const offersStored = async (pool: pg.Pool) =>
  Number((await pool.query<{ n: string }>(`select count(*) as n from events where type = 'OfferMade'`)).rows[0]!.n);

/**
 * End to end: `users` people press Seed Demo Data at once on a product with the automated agents on and no reply
 * delay; the figure is the offers recorded (OfferMade stored) per second, from the presses to the last offer
 * (the count has not moved for 3 s). Beside it in the report: the negotiation engine's own moves per second.
 */
export async function measureAutomationMoves(options: {
  start: () => Promise<ChildServer>;
  pool: pg.Pool;
  sessions: SessionStore;
  users: number;
}): Promise<AutomationResult> {
  const server = await options.start();
  try {
    const users = await Promise.all(Array.from({ length: options.users }, () => benchUser(options.sessions)));
    const before = await offersStored(options.pool);
    const started = performance.now();
    await Promise.all(
      users.map(async (user) => expectStatus(await call(server.url, user, 'POST', '/api/seed-demo', {}), 201, 'seed-demo')),
    );
    let count = before;
    let lastChange = performance.now();
    // Until the first offer (the agents start negotiating), then until the count has not moved for 3 s.
    while ((count === before || performance.now() - lastChange < 3000) && performance.now() - started < 120_000) {
      await sleep(200);
      const now = await offersStored(options.pool);
      if (now !== count) {
        count = now;
        lastChange = performance.now();
      }
    }
    const offers = count - before;
    if (offers === 0) throw new Error('No offer was recorded: are the automated agents running?');
    const seconds = (lastChange - started) / 1000;
    return { automation_moves_per_s: round(offers / seconds, 1), automation_offers: offers, automation_seconds: round(seconds, 2) };
  } finally {
    await server.close();
  }
}
