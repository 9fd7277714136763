import pg from 'pg';
import { START } from '@pf/events';
import type { EventStore, RecordedEvent } from '@pf/infra';
import { projectReadModels, READ_MODEL_TABLES } from '@pf/query-service';
import type { Violation } from './invariants';

async function snapshot(client: pg.ClientBase): Promise<Record<string, string[]>> {
  const tables: Record<string, string[]> = {};
  for (const table of READ_MODEL_TABLES) {
    const rows = (await client.query(`select * from ${table}`)).rows.map((row) => JSON.stringify(row));
    tables[table] = rows.sort();
  }
  return tables;
}

/**
 * The read models equal a fresh fold of every event: the live tables are read, then, in a transaction that is
 * rolled back, emptied and projected again from the whole store with the projector's own code, and read again.
 */
export async function readModelsEqualFreshFold(pool: pg.Pool, store: EventStore): Promise<Violation[]> {
  const events: RecordedEvent[] = [];
  for (let batch = await store.readAll(START, 5000); batch.length > 0; batch = await store.readAll(batch[batch.length - 1]!.position, 5000))
    events.push(...batch);
  const client = await pool.connect();
  try {
    await client.query('begin isolation level repeatable read');
    const live = await snapshot(client);
    await client.query(`truncate ${READ_MODEL_TABLES.join(', ')}`);
    await projectReadModels(client, events);
    const fresh = await snapshot(client);
    await client.query('rollback');
    const found: Violation[] = [];
    for (const table of READ_MODEL_TABLES) {
      const a = live[table]!;
      const b = fresh[table]!;
      const onlyLive = a.filter((row) => !b.includes(row));
      const onlyFresh = b.filter((row) => !a.includes(row));
      if (onlyLive.length || onlyFresh.length) {
        found.push({
          invariant: 'read models equal a fresh fold of the events',
          detail: `${table}: ${onlyLive.length} live row(s) not in the fold (first ${onlyLive[0] ?? '-'}), ${onlyFresh.length} folded row(s) not live (first ${onlyFresh[0] ?? '-'})`,
        });
      }
    }
    return found;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
