import type pg from 'pg';
import { comparePositions, START, type Position } from '@pf/events';
import type { RunningServer } from '../server';

interface SettleOptions {
  readonly timeoutMs?: number;
  /** Which followers, by name, are waited for (all by default). */
  readonly waitsFor?: (name: string) => boolean;
  /** How long to wait between looks, in milliseconds, when idle and when not. */
  readonly pollMs?: { readonly idle: number; readonly busy: number };
}

/**
 * Waits until the node has nothing left to do: every supervised follower (the projector, the analytics, the deal
 * opener, the illustration maker, …) running at the head of the store and no move of the automation pending, with
 * the head unchanged over two looks (a follower that writes, as the illustration maker does, moves the head on).
 * Followers that write events of their own are not waited for by reads naming a position; this waits for them too.
 */
export async function followersSettled(
  server: RunningServer,
  pool: pg.Pool,
  { timeoutMs = 30_000, waitsFor = () => true, pollMs = { idle: 20, busy: 50 } }: SettleOptions = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let quietRounds = 0;
  let lastHead: Position | null = null;
  for (;;) {
    const head = await committedHead(pool);
    const behind = server.probe
      .followers()
      .filter((f) => waitsFor(f.name))
      .filter((f) => f.state !== 'running' || (f.position !== null && comparePositions(f.position, head) < 0));
    const idle = behind.length === 0 && server.probe.automationPending() === 0;
    quietRounds = idle && lastHead !== null && comparePositions(head, lastHead) === 0 ? quietRounds + 1 : 0;
    if (quietRounds >= 2) return;
    lastHead = head;
    if (Date.now() > deadline) {
      const who = behind.map((f) => `${f.name} (${f.state}${f.lastError ? `: ${f.lastError}` : ''})`).join(', ');
      throw new Error(
        `The node did not settle within ${timeoutMs / 1000} s: ${who || `${server.probe.automationPending()} moves pending`}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, idle ? pollMs.idle : pollMs.busy));
  }
}

/** The last committed event, also one not yet visible to readers (a transaction older than its own still runs). */
async function committedHead(pool: pg.Pool): Promise<Position> {
  const result = await pool.query<{ tx: string; position: string }>(
    'select transaction_id::text as tx, position::text from events order by transaction_id desc, position desc limit 1',
  );
  const row = result.rows[0];
  return row ? { commit: BigInt(row.tx), prepare: BigInt(row.position) } : START;
}
