import type pg from 'pg';
import { DomainError } from '../errors';

/** Too many wrong passwords or codes: 429, saying for how long. */
export class TooManyAttempts extends DomainError {
  constructor(message: string) {
    super(message, 429);
  }
}

/** How many wrong attempts a window allows, per account and per client address (docs/behaviour/sign-in.md). */
export const SIGN_IN_LIMITS = { perAccount: 5, perClient: 20, windowMinutes: 15 } as const;

const minutes = (n: number) => (n === 1 ? '1 minute' : `${n} minutes`);

/**
 * Wrong passwords and codes, counted in PostgreSQL so every copy of the service shares the count: an account
 * refuses further attempts after 5 wrong ones in 15 minutes (a guess at one person's password), a client address
 * after 20 (a guess across many accounts), until the oldest falls out of the window. A right answer forgets the
 * account's wrong ones, not the address's.
 */
export class SignInThrottle {
  constructor(private readonly pool: pg.Pool) {}

  /** Refuses (429) while the account or the address has used up its wrong attempts. */
  async check(userId: string | null, client: string): Promise<void> {
    const { perAccount, perClient, windowMinutes } = SIGN_IN_LIMITS;
    const result = await this.pool.query<{ key: string; count: number; wait_minutes: number }>(
      `select key, count(*)::int as count,
              ceil(extract(epoch from (min(at) + make_interval(mins => $2) - now())) / 60)::int as wait_minutes
       from sign_in_failures where key = any($1) and at > now() - make_interval(mins => $2) group by key`,
      [[`account:${userId ?? ''}`, `client:${client}`], windowMinutes],
    );
    for (const row of result.rows) {
      const wait = minutes(Math.max(1, row.wait_minutes));
      if (row.key.startsWith('account:') && userId !== null && row.count >= perAccount)
        throw new TooManyAttempts(`Too many wrong attempts for this account: try again in ${wait}`);
      if (row.key.startsWith('client:') && row.count >= perClient)
        throw new TooManyAttempts(`Too many wrong attempts from this network address: try again in ${wait}`);
    }
  }

  async fail(userId: string | null, client: string): Promise<void> {
    const keys = userId === null ? [`client:${client}`] : [`account:${userId}`, `client:${client}`];
    await this.pool.query('insert into sign_in_failures (key) select unnest($1::text[])', [keys]);
  }

  async succeed(userId: string): Promise<void> {
    await this.pool.query('delete from sign_in_failures where key = $1', [`account:${userId}`]);
  }

  /** Forgets attempts older than the window (they no longer count). */
  async purge(): Promise<void> {
    await this.pool.query('delete from sign_in_failures where at <= now() - make_interval(mins => $1)', [SIGN_IN_LIMITS.windowMinutes]);
  }
}
