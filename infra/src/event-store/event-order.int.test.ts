import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventMetadata } from '@pf/events';
import { createPool } from '../db/pool';
import { migrate } from '../db/migrate';
import { createTestDatabase, type TestDatabase } from '../testing/database';
import { PostgresEventStore } from './postgres-event-store';
import { eventStoreMigrations } from './postgres-schema';

const metadata: EventMetadata = { actor: { kind: 'system', name: 'event-order' }, correlationId: 'c', causationId: null };

// docs/decisions/event-order-by-transaction-id.md: a reader reads only the events whose transaction is older than
// the oldest transaction still running, so an event that commits while an older transaction is open is not read
// until that one ends: nothing can appear behind a position a reader has passed.
describe('the global order by transaction id (real PostgreSQL)', () => {
  let database: TestDatabase;
  let pool: pg.Pool;
  let store: PostgresEventStore;
  beforeAll(async () => {
    database = await createTestDatabase();
    pool = createPool(database.url, 5);
    await migrate(pool, eventStoreMigrations);
    store = new PostgresEventStore(pool, database.url);
  });
  afterAll(async () => {
    await store?.close();
    await pool?.end();
    await database?.drop();
  });

  it('reads no event committed after a transaction still open, until that transaction ends', async () => {
    const head = await store.headPosition();
    const stream = `order-${randomUUID()}`;
    const older = new pg.Client({ connectionString: database.url });
    await older.connect();
    await older.query('begin');
    await older.query('select pg_current_xact_id()');
    const inGlobalRead = async () => (await store.readAll(head, 10_000)).filter((event) => event.stream === stream);
    try {
      await store.append(stream, [{ id: randomUUID(), type: 'Tested', data: {}, metadata }], 'no_stream');
      expect(await store.readStream(stream)).toHaveLength(1);
      expect(await inGlobalRead()).toEqual([]);
    } finally {
      await older.query('rollback');
      await older.end();
    }
    const deadline = Date.now() + 10_000;
    while ((await inGlobalRead()).length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await inGlobalRead()).map((event) => event.stream)).toEqual([stream]);
  });
});
