import pg from 'pg';

// bigint columns come back as strings by default; the counts and ids we keep fit in a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;

/**
 * Limits on every pooled session. A global read of the event store waits for the oldest open transaction
 * (pg_snapshot_xmin), so one transaction left open, or one statement stuck behind a lock, would freeze every
 * follower of the stream: the server ends them instead. Work that legitimately runs long (the rebuild, a
 * migration) raises its own limits with `set local`.
 */
export const SESSION_LIMITS = {
  statementTimeoutMs: 15_000,
  idleInTransactionTimeoutMs: 10_000,
  /** Waiting for a connection (a new one, or a free one from a busy pool) fails after this. */
  connectTimeoutMs: 5_000,
} as const;

export function createPool(connectionString: string, max = 10): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max,
    application_name: 'property-finance',
    statement_timeout: SESSION_LIMITS.statementTimeoutMs,
    idle_in_transaction_session_timeout: SESSION_LIMITS.idleInTransactionTimeoutMs,
    connectionTimeoutMillis: SESSION_LIMITS.connectTimeoutMs,
    // A server that vanished without closing the connection (a network cut) is noticed by TCP keep-alive.
    keepAlive: true,
  });
  // An idle client's connection can drop (server restart); the pool replaces it, so this is not fatal.
  pool.on('error', () => undefined);
  // A checked-out client whose server goes away between two queries (mid-transaction, say) emits 'error' with
  // no query to hand it to, and the pool listens only on idle clients: unheard, that event kills the process.
  // The holder's next query fails ("not queryable"), and release() then discards the client.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}

export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('begin');
    const result = await work(client);
    await client.query('commit');
    return result;
  } catch (error) {
    await client.query('rollback').catch((rollbackFailed: Error) => (broken = rollbackFailed));
    throw error;
  } finally {
    // A connection whose rollback failed is dead or in an unknown state: destroy it, never hand it out again.
    client.release(broken);
  }
}

/** For long work in a transaction (the rebuild, migrations): no statement or idle limit until it ends. */
export async function liftSessionLimits(client: pg.ClientBase): Promise<void> {
  await client.query('set local statement_timeout = 0; set local idle_in_transaction_session_timeout = 0');
}
