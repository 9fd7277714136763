import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { CurrentUserView } from '@pf/events';

export const SESSION_COOKIE = 'pf_session';

export interface SessionUser extends CurrentUserView {}

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Server-side sessions in PostgreSQL: the cookie holds a random token, the table only its hash,
 * so a leaked table cannot be replayed as cookies, and a session is revoked by deleting its row.
 */
export class SessionStore {
  /** Recently confirmed sessions, so that a burst of reads does not look each one up again. */
  private readonly recent = new Map<string, { user: SessionUser; until: number }>();

  /**
   * `cacheMs`: how long a confirmed session is trusted without asking the database again. A session
   * revoked by another process stays usable here for at most that long; 0 asks every time.
   */
  constructor(
    private readonly pool: pg.Pool,
    private readonly ttlHours: number,
    private readonly cacheMs = 0,
  ) {}

  /** Sign-in without registration: a new user with a guest identity and a session for them. */
  async signInGuest(userAgent: string | undefined): Promise<{ token: string; user: SessionUser }> {
    const user: SessionUser = {
      id: randomUUID(),
      firstName: 'Guest',
      lastName: 'Operator',
      email: null,
      userType: 'operator',
    };
    const token = randomBytes(32).toString('base64url');
    const client = await this.pool.connect();
    try {
      await client.query('begin');
      await client.query(
        'insert into users (id, first_name, last_name, email, user_type) values ($1, $2, $3, $4, $5)',
        [user.id, user.firstName, user.lastName, user.email, user.userType],
      );
      await client.query(
        `insert into sessions (token_hash, user_id, expires_at, user_agent)
         values ($1, $2, now() + make_interval(hours => $3::int), $4)`,
        [hash(token), user.id, Math.round(this.ttlHours), userAgent?.slice(0, 300) ?? null],
      );
      await client.query('commit');
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
    return { token, user };
  }

  async findUser(token: string | undefined): Promise<SessionUser | null> {
    if (!token || token.length > 100) return null;
    const key = hash(token);
    const cached = this.recent.get(key);
    if (cached && cached.until > Date.now()) return cached.user;
    const user = await this.lookUp(key);
    if (user && this.cacheMs > 0) {
      this.recent.delete(key);
      this.recent.set(key, { user, until: Date.now() + this.cacheMs });
      if (this.recent.size > 10_000) this.recent.delete(this.recent.keys().next().value!);
    } else {
      this.recent.delete(key);
    }
    return user;
  }

  private async lookUp(tokenHash: string): Promise<SessionUser | null> {
    const result = await this.pool.query<{
      id: string;
      first_name: string | null;
      last_name: string | null;
      email: string | null;
      user_type: string | null;
    }>(
      `select u.id, u.first_name, u.last_name, u.email, u.user_type
       from sessions s join users u on u.id = s.user_id
       where s.token_hash = $1 and s.expires_at > now()`,
      [tokenHash],
    );
    const row = result.rows[0];
    if (!row) return null;
    return { id: row.id, firstName: row.first_name, lastName: row.last_name, email: row.email, userType: row.user_type };
  }

  async revoke(token: string | undefined): Promise<void> {
    if (!token) return;
    this.recent.delete(hash(token));
    await this.pool.query('delete from sessions where token_hash = $1', [hash(token)]);
  }
}

/** Reads one cookie from a raw Cookie header (the socket upgrade has no Fastify request). */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index > 0 && part.slice(0, index).trim() === name) {
      try {
        return decodeURIComponent(part.slice(index + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}
