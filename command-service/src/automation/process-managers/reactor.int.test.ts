import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventMetadata } from '@pf/events';
import { createLogger, openServiceContext, parseConfig, type OpenedContext, type StoredEvent } from '@pf/infra';
import { createTestDatabase } from '@pf/infra/testing';
import { commandMigrations } from '../../index';
import { startReactor, type Reactor } from './reactor';

const metadata: EventMetadata = { actor: { kind: 'user', userId: 'u' }, correlationId: 'c', causationId: null };
/** A Ticked event's number (no event of the contract: the reactor does not depend on what the events are). */
const numberOf = ({ data }: StoredEvent): number =>
  typeof data === 'object' && data !== null && 'n' in data && typeof data.n === 'number' ? data.n : Number.NaN;

const until = async (check: () => boolean | Promise<boolean>, what: string, timeoutMs = 8000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

/** A process manager whose state is the list of event numbers it has seen; it records each leadership. */
function countingReactor(context: OpenedContext, everyEvents: number) {
  const leaderships: { restored: number[] | null; replayed: number[]; reacted: number[] }[] = [];
  const reacted: number[] = [];
  let seen: number[] = [];
  const reactor: Reactor = startReactor({
    name: 'counting',
    pool: context.pool,
    supervisor: context.supervisor,
    store: context.storedEvents,
    log: context.log,
    snapshots: { format: 1, everyEvents, everyMs: 3_600_000 },
    handlers: (restored) => {
      const leadership = { restored: restored as number[] | null, replayed: [] as number[], reacted: [] as number[] };
      leaderships.push(leadership);
      seen = [...((restored as number[] | null) ?? [])];
      const n = numberOf;
      return {
        replay: (event) => {
          leadership.replayed.push(n(event));
          seen.push(n(event));
        },
        react: async (batch) => {
          for (const event of batch) {
            leadership.reacted.push(n(event));
            reacted.push(n(event));
            seen.push(n(event));
          }
        },
        caughtUp: () => undefined,
        snapshot: () => seen,
      };
    },
  });
  return { reactor, leaderships, reacted, seen: () => seen };
}

describe('process manager reactor: a new leader resumes from its snapshot and checkpoint', () => {
  let context: OpenedContext;
  let appended = 0;
  beforeAll(async () => {
    const database = await createTestDatabase();
    const config = parseConfig({ DATABASE_URL: database.url, LOG_LEVEL: 'silent' });
    const opened = await openServiceContext(config, createLogger('silent'), database.url, commandMigrations);
    context = { ...opened, close: async () => (await opened.close(), await database.drop()) };
  });
  afterAll(async () => context?.close());

  const append = async (count: number) => {
    const events = Array.from({ length: count }, () => ({ id: randomUUID(), type: 'Ticked', data: { n: ++appended }, metadata }));
    await context.store.append(`ticks-${appended}`, events, 'no_stream');
  };
  const numbers = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

  // docs/architecture.md "The automation" and docs/decisions/bounded-restart.md: a restart resumes from its snapshot and checkpoint.
  it('reacts to each event once across a lost leadership and a hand-over, replaying only what follows the snapshot', async () => {
    const first = countingReactor(context, 10);
    await append(25); // one batch: reacted to, checkpoint at 25, snapshot at 25
    await until(() => first.reacted.length === 25, 'the first 25 events');
    await append(5); // checkpoint at 30; 5 < 10 events since the snapshot, so none is saved
    await until(() => first.reacted.length === 30, 'the next 5');

    // The leader's lock connection dies (a database blip): it leads again from its snapshot and checkpoint.
    await context.pool.query("select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'leader:reactor:counting'");
    await until(() => first.leaderships.length === 2, 'the second leadership', 10_000);
    await append(2);
    await until(() => first.reacted.length === 32, 'the events after the second leadership began');
    const second = first.leaderships[1]!;
    expect(second.restored).toEqual(numbers(1, 25));
    expect(second.replayed).toEqual(numbers(26, 30)); // not 1..30: no replay from zero
    expect(second.reacted).toEqual([31, 32]);

    // A graceful hand-over saves the state as it stands, so the next leader replays nothing at all.
    await first.reactor.close();
    await append(3);
    const next = countingReactor(context, 10);
    await until(() => next.reacted.length === 3, 'the new leader to react');
    await next.reactor.close();
    expect(next.leaderships[0]!.restored).toEqual(numbers(1, 32));
    expect(next.leaderships[0]!.replayed).toEqual([]);
    expect(next.reacted).toEqual([33, 34, 35]);
    expect([...first.reacted, ...next.reacted]).toEqual(numbers(1, 35));
    expect(next.seen()).toEqual(numbers(1, 35));
  });

  it('ignores a snapshot of another format and replays from the start instead', async () => {
    await context.pool.query("update process_manager_snapshots set format = 0 where name = 'counting'");
    const next = countingReactor(context, 10);
    await until(() => next.leaderships.length === 1 && next.seen().length === appended, 'the replay from zero');
    await next.reactor.close();
    expect(next.leaderships[0]!.restored).toBeNull();
    expect(next.leaderships[0]!.replayed).toEqual(numbers(1, appended));
    expect(next.reacted).toEqual([]);
  });
});
