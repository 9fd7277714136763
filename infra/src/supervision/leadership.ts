import pg from 'pg';

/** Leadership held: the advisory lock's session is open. */
export interface Lease {
  /** Rejects when the lock's connection is lost (another copy may lead now); never resolves. */
  readonly lost: Promise<never>;
  release(): Promise<void>;
}

export interface LeadershipOptions {
  /** How often the lock's connection is checked; a dead TCP connection is noticed by this query failing. */
  readonly checkEveryMs?: number;
  readonly checkTimeoutMs?: number;
}

export class LeadershipLost extends Error {
  constructor(key: string, cause?: unknown) {
    super(`lost the leadership of ${key}: its database connection ${cause ? 'failed' : 'ended'}`, { cause });
    this.name = 'LeadershipLost';
  }
}

/**
 * One leader among the copies of a service: a session-level PostgreSQL advisory lock, held on a connection of
 * its own (not the pool's: a pooled connection would hand the lock to whoever borrows it next). Returns null
 * when another copy leads. The lock dies with its session, so a leader that crashes or loses its connection
 * frees it for the others; `lost` tells this copy, so it stops acting as the leader at once.
 */
export async function tryLead(databaseUrl: string, key: string, options: LeadershipOptions = {}): Promise<Lease | null> {
  const client = new pg.Client({
    connectionString: databaseUrl,
    application_name: `leader:${key}`.slice(0, 63),
    connectionTimeoutMillis: 5000,
    keepAlive: true,
  });
  let lose: (error: LeadershipLost) => void = () => undefined;
  const lost = new Promise<never>((_, reject) => (lose = reject));
  lost.catch(() => undefined);
  let released = false;
  const dropped = (cause?: unknown) => {
    if (!released) lose(new LeadershipLost(key, cause));
  };
  client.on('error', dropped);
  client.on('end', () => dropped());
  try {
    await client.connect();
    const { rows } = await client.query<{ locked: boolean }>('select pg_try_advisory_lock(hashtextextended($1, 0)) as locked', [key]);
    if (!rows[0]?.locked) {
      released = true;
      await client.end();
      return null;
    }
  } catch (error) {
    released = true;
    await client.end().catch(() => undefined);
    throw error;
  }

  const checkTimeoutMs = options.checkTimeoutMs ?? 3000;
  const check = setInterval(() => {
    void client.query({ text: 'select 1', query_timeout: checkTimeoutMs } as pg.QueryConfig).catch((error: unknown) => {
      dropped(error);
      void client.end().catch(() => undefined);
    });
  }, options.checkEveryMs ?? 5000);
  check.unref();
  return {
    lost,
    async release() {
      released = true;
      clearInterval(check);
      // Ending the session frees the lock; no unlock query, which would hang on a dead connection.
      await client.end().catch(() => undefined);
    },
  };
}
