import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { START } from '@pf/events';
import { createPool } from '../db/pool';
import { eventStoreDatabase } from '../testing/event-store-database';
import { PostgresEventStore } from './postgres-event-store';
import type { StoredEvent } from './port';

const metadata = { actor: { kind: 'system' as const, name: 'test' }, correlationId: randomUUID(), causationId: null };
const noted = () => ({ id: randomUUID(), type: 'Noted', data: {}, metadata });

/** A store sends NOTIFY only while another session listens on its database; its own followers are woken in process. */
describe('NOTIFY only when someone else listens (real PostgreSQL)', () => {
  const database = eventStoreDatabase();

  it('a store with no follower of its own (it only appends) notifies only while another store listens', async () => {
    const notifies = database.count((sql) => sql.includes('pg_notify'));
    const appendOnly = new PostgresEventStore(database.pool, database.url);
    const notifiesOfAnAppend = async () => {
      const before = notifies();
      await appendOnly.append(`append-only-${randomUUID()}`, [noted()], 'no_stream');
      return notifies() - before;
    };
    await expect.poll(notifiesOfAnAppend, { timeout: 10_000, interval: 500 }).toBe(0);

    const listeningPool = createPool(database.url, 2);
    const listening = new PostgresEventStore(listeningPool, database.url);
    const theirs: string[] = [];
    const subscription = listening.subscribe(
      START,
      async (batch: readonly StoredEvent[]) => void theirs.push(...batch.map((e) => e.stream)),
    );
    await subscription.caughtUp;
    await expect.poll(notifiesOfAnAppend, { timeout: 10_000, interval: 500 }).toBeGreaterThan(0);

    await subscription.close();
    await listening.close();
    await listeningPool.end();
    await appendOnly.close();
  });

  it('stops notifying when it is the only listener, and a second store in another process is woken once it listens', async () => {
    const notifies = database.count((sql) => sql.includes('pg_notify'));
    const alone = database.store;
    const seen: string[] = [];
    const own = alone.subscribe(START, async (batch: readonly StoredEvent[]) => void seen.push(...batch.map((e) => e.stream)));
    await own.caughtUp;
    // Once it has looked (every 2 s), its appends send no NOTIFY, and its own follower still gets each one.
    await expect
      .poll(
        async () => {
          const before = notifies();
          await alone.append(`alone-${randomUUID()}`, [noted()], 'no_stream');
          return notifies() - before;
        },
        { timeout: 10_000, interval: 500 },
      )
      .toBe(0);
    await expect.poll(() => seen.length).toBeGreaterThan(0);

    // Another store with its own listening connection (as another process would have): NOTIFY again.
    const elsewherePool = createPool(database.url, 2);
    const elsewhere = new PostgresEventStore(elsewherePool, database.url);
    const theirs: string[] = [];
    const subscription = elsewhere.subscribe(
      START,
      async (batch: readonly StoredEvent[]) => void theirs.push(...batch.map((e) => e.stream)),
    );
    await subscription.caughtUp;
    await expect
      .poll(
        async () => {
          const before = notifies();
          await alone.append(`shared-${randomUUID()}`, [noted()], 'no_stream');
          return notifies() - before;
        },
        { timeout: 10_000, interval: 500 },
      )
      .toBeGreaterThan(0);
    await expect.poll(() => theirs.some((stream) => stream.startsWith('shared-'))).toBe(true);

    await subscription.close();
    await own.close();
    await elsewhere.close();
    await elsewherePool.end();
  });
});
