import type pg from 'pg';
import { inTransaction, liftSessionLimits } from './pool';

export interface Migration {
  /** Unique across the whole product, for example "event-store/001-events". */
  readonly name: string;
  readonly sql: string;
}

/**
 * Applies the migrations not yet applied, in order, each in its own transaction. Several processes
 * starting at once (two copies of a service) take turns on an advisory lock.
 */
export async function migrate(pool: pg.Pool, migrations: readonly Migration[]): Promise<string[]> {
  await inTransaction(pool, async (client) => {
    // Another copy may hold the lock while it migrates for as long as that takes.
    await liftSessionLimits(client);
    await client.query("select pg_advisory_xact_lock(hashtext('schema_migrations'))");
    await client.query(
      'create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())',
    );
  });
  const applied: string[] = [];
  for (const migration of migrations) {
    await inTransaction(pool, async (client) => {
      await liftSessionLimits(client);
      await client.query("select pg_advisory_xact_lock(hashtext('schema_migrations'))");
      const done = await client.query('select 1 from schema_migrations where name = $1', [migration.name]);
      if (done.rowCount) return;
      await client.query(migration.sql);
      await client.query('insert into schema_migrations (name) values ($1)', [migration.name]);
      applied.push(migration.name);
    });
  }
  return applied;
}
