import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../testing/database';
import { createPool } from '../db/pool';
import { migrate } from '../db/migrate';
import { eventStoreMigrations } from '../event-store/postgres-schema';
import { PostgresEventStore } from '../event-store/postgres-event-store';
import { tryLead } from './leadership';

let database: TestDatabase;
let admin: pg.Client;

beforeAll(async () => {
  database = await createTestDatabase();
  admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
});
afterAll(async () => {
  await admin.end();
  await database.drop();
});

/** Ends the sessions of one application as a database restart or a network cut would. */
async function terminate(applicationName: string): Promise<number> {
  const { rowCount } = await admin.query(
    'select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1 and datname = current_database()',
    [applicationName],
  );
  return rowCount ?? 0;
}

const eventually = async (check: () => Promise<boolean>, timeoutMs = 10_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

describe('leadership', () => {
  // docs/architecture.md "The automation": run on one node at a time, leadership through the supervisor.
  it('has one leader; a leader whose lock connection is lost is told, and another copy takes over', async () => {
    const first = await tryLead(database.url, 'relay:test');
    expect(first).not.toBeNull();
    expect(await tryLead(database.url, 'relay:test')).toBeNull();
    const other = await tryLead(database.url, 'another-key');
    expect(other).not.toBeNull();

    expect(await terminate('leader:relay:test')).toBe(1);
    await expect(first!.lost).rejects.toThrow('lost the leadership of relay:test');
    const second = await tryLead(database.url, 'relay:test');
    expect(second).not.toBeNull();

    await second!.release();
    await other!.release();
    await first!.release();
  });
});

describe('the event store notifier', () => {
  it('listens again after its connection is lost', async () => {
    const pool = createPool(database.url, 2);
    await migrate(pool, eventStoreMigrations);
    const store = new PostgresEventStore(pool, database.url);
    const subscription = store.subscribe({ commit: 0n, prepare: 0n }, async () => undefined);
    const listening = async () =>
      (
        await admin.query(
          `select 1 from pg_stat_activity where application_name = 'event-notifier' and datname = current_database()
           and query ilike 'listen%'`,
        )
      ).rowCount === 1;
    await eventually(listening);
    expect(await terminate('event-notifier')).toBe(1);
    await eventually(async () => !(await listening()));
    await eventually(listening);
    await subscription.close();
    await store.close();
    await pool.end();
  });
});
