import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { EventMetadata } from '@pf/events';
import { eventStoreDatabase } from '../testing/event-store-database';

const metadata: EventMetadata = { actor: { kind: 'system', name: 'event-order' }, correlationId: 'c', causationId: null };

// docs/decisions/event-order-by-transaction-id.md: a reader reads only the events whose transaction is older than
// the oldest transaction still running, so an event that commits while an older transaction is open is not read
// until that one ends: nothing can appear behind a position a reader has passed.
describe('the global order by transaction id (real PostgreSQL)', () => {
  const db = eventStoreDatabase(5);

  it('reads no event committed after a transaction still open, until that transaction ends', async () => {
    const head = await db.store.headPosition();
    const stream = `order-${randomUUID()}`;
    const older = new pg.Client({ connectionString: db.url });
    await older.connect();
    await older.query('begin');
    await older.query('select pg_current_xact_id()');
    const inGlobalRead = async () => (await db.store.readAll(head, 10_000)).filter((event) => event.stream === stream);
    try {
      await db.store.append(stream, [{ id: randomUUID(), type: 'Tested', data: {}, metadata }], 'no_stream');
      expect(await db.store.readStream(stream)).toHaveLength(1);
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
