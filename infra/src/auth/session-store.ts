import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { defaultFirmName, type CurrentUserView, type FirmRole, type SessionView } from '@pf/events';
import { inTransaction } from '../db/pool';
import { Unauthenticated } from '../errors';
import { describeDevice } from './device';

export const SESSION_COOKIE = 'pf_session';
/**
 * The device identity: long-lived and HttpOnly, separate from the session, so signing out ends the session
 * but the same browser signs back in to the same account (DESIGN.md "Accounts") while the account has no
 * password; a protected account's device only leads to its sign-in page (docs/decisions/sign-in-secrets.md).
 */
export const DEVICE_COOKIE = 'pf_device';
export const DEVICE_TTL_DAYS = 400;

export interface SessionUser extends CurrentUserView {
  sessionId: string;
  /** The person's firm, its name and their role in it (docs/decisions/firms-and-visibility.md). */
  firmId: string;
  firmName: string;
  role: FirmRole;
}

export interface SignedIn {
  token: string;
  user: SessionUser;
  /** A device token to set (a new one, or the one the browser sent, renewed). */
  deviceToken: string;
}

const hash = (token: string) => createHash('sha256').update(token).digest('hex');
const newToken = () => randomBytes(32).toString('base64url');
/** How often a session's last use is written: often enough for 15-minute timeouts, rarely enough for bursts. */
const TOUCH_EVERY_SECONDS = 30;

type UserRow = {
  id: string;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  user_type: string | null;
  session_id: string;
  firm_id: string;
  firm_name: string;
  firm_role: FirmRole;
  photo_id: string | null;
};

/** A new account's firm of one: its id is the account's, its founder its admin (the first member may name it). */
async function insertFirmOfOne(client: pg.PoolClient, userId: string, name: string): Promise<void> {
  await client.query('insert into firms (id, name) values ($1, $2)', [userId, name]);
}

/**
 * Server-side sessions in PostgreSQL: the cookie holds a random token, the table only its hash, so a leaked
 * table cannot be replayed as cookies, and a session is revoked by deleting its row. A session ends at its
 * expiry or after the user's idle timeout (Settings → Preferences, enforced here on every request).
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

  /**
   * Sign-in without registration: the account this browser's device identity names, else a new guest
   * account with a new device identity. Either way a new session.
   */
  async signInGuest(userAgent: string | undefined, deviceToken?: string): Promise<SignedIn> {
    return inTransaction(this.pool, async (client) => {
      const known =
        deviceToken && deviceToken.length <= 100
          ? await client.query<{ user_id: string; protected: boolean }>(
              `update devices d set last_seen_at = now() where token_hash = $1
               returning user_id, exists (select 1 from account_protection p where p.user_id = d.user_id) as protected`,
              [hash(deviceToken)],
            )
          : null;
      // A protected account is never opened by its device alone (docs/decisions/sign-in-secrets.md): the route
      // asks for its password first (deviceAccount), so this is only reached by a race with protecting it.
      if (known?.rows[0]?.protected) throw new Unauthenticated('This account is protected: sign in with its password');
      let userId = known?.rows[0]?.user_id;
      let device = deviceToken!;
      if (!userId) {
        userId = randomUUID();
        device = newToken();
        await insertFirmOfOne(client, userId, defaultFirmName('Guest', 'Operator'));
        await client.query(
          `insert into users (id, first_name, last_name, email, user_type, firm_id, firm_role) values ($1::uuid, 'Guest', 'Operator', null, 'operator', $1::text, 'admin')`,
          [userId],
        );
        await client.query('insert into devices (token_hash, user_id) values ($1, $2)', [hash(device), userId]);
      }
      return { ...(await this.openSession(client, userId, userAgent)), deviceToken: device };
    });
  }

  /**
   * Sign-in through OpenID Connect: the account keyed by issuer and subject, created at its first sign-in
   * with the names and email the provider gave. The device identity is linked to it for later guest visits.
   */
  async signInWithProvider(
    identity: { issuer: string; subject: string; firstName: string | null; lastName: string | null; email: string | null },
    userAgent: string | undefined,
  ): Promise<SignedIn> {
    return inTransaction(this.pool, async (client) => {
      const found = await client.query<{ id: string }>('select id from users where oidc_issuer = $1 and oidc_subject = $2', [
        identity.issuer,
        identity.subject,
      ]);
      let userId = found.rows[0]?.id;
      if (!userId) {
        userId = randomUUID();
        await insertFirmOfOne(client, userId, defaultFirmName(identity.firstName, identity.lastName));
        await client.query(
          `insert into users (id, first_name, last_name, email, user_type, oidc_issuer, oidc_subject, firm_id, firm_role) values ($1::uuid, $2, $3, $4, 'operator', $5, $6, $1::text, 'admin')`,
          [userId, identity.firstName, identity.lastName, identity.email, identity.issuer, identity.subject],
        );
      }
      const device = newToken();
      await client.query('insert into devices (token_hash, user_id) values ($1, $2)', [hash(device), userId]);
      return { ...(await this.openSession(client, userId, userAgent)), deviceToken: device };
    });
  }

  /** The account this browser's device identity names, and whether it is protected; null for none. */
  async deviceAccount(deviceToken: string | undefined): Promise<{ userId: string; protected: boolean } | null> {
    if (!deviceToken || deviceToken.length > 100) return null;
    const result = await this.pool.query<{ user_id: string; protected: boolean }>(
      `select d.user_id, exists (select 1 from account_protection p where p.user_id = d.user_id) as protected
       from devices d where d.token_hash = $1`,
      [hash(deviceToken)],
    );
    const row = result.rows[0];
    return row ? { userId: row.user_id, protected: row.protected } : null;
  }

  /**
   * A session for an account whose password (and code) the caller has checked. The browser's device identity
   * is kept when it already names this account, else a new one is made for it.
   */
  async signInVerified(userId: string, userAgent: string | undefined, deviceToken?: string): Promise<SignedIn> {
    return inTransaction(this.pool, async (client) => {
      const known =
        deviceToken && deviceToken.length <= 100
          ? await client.query('update devices set last_seen_at = now() where token_hash = $1 and user_id = $2', [
              hash(deviceToken),
              userId,
            ])
          : null;
      let device = deviceToken!;
      if (!known?.rowCount) {
        device = newToken();
        await client.query('insert into devices (token_hash, user_id) values ($1, $2)', [hash(device), userId]);
      }
      return { ...(await this.openSession(client, userId, userAgent)), deviceToken: device };
    });
  }

  /** Ends every other session of the user (their password or second factor changed): ASVS 5.0 V7.4. */
  async revokeOthers(userId: string, keepSessionId: string): Promise<void> {
    this.forgetUser(userId);
    await this.pool.query('delete from sessions where user_id = $1 and id <> $2', [userId, keepSessionId]);
  }

  private async openSession(client: pg.PoolClient, userId: string, userAgent: string | undefined): Promise<Omit<SignedIn, 'deviceToken'>> {
    const token = newToken();
    const result = await client.query<UserRow>(
      `with s as (
         insert into sessions (token_hash, user_id, expires_at, user_agent)
         values ($1, $2, now() + make_interval(hours => $3::int), $4) returning id, user_id)
       select u.id, u.first_name, u.last_name, u.email, u.user_type, s.id as session_id, u.firm_id, f.name as firm_name, u.firm_role, u.photo_id::text as photo_id
       from s join users u on u.id = s.user_id join firms f on f.id = u.firm_id`,
      [hash(token), userId, Math.round(this.ttlHours), userAgent?.slice(0, 300) ?? null],
    );
    return { token, user: toUser(result.rows[0]!) };
  }

  /**
   * The user of a session token, or null when it is unknown, revoked, expired or idle past the user's timeout.
   * `touch: false` checks without counting as use (the socket's periodic check must not keep a session alive).
   */
  async findUser(token: string | undefined, { touch = true }: { touch?: boolean } = {}): Promise<SessionUser | null> {
    if (!token || token.length > 100) return null;
    const key = hash(token);
    const cached = this.recent.get(key);
    if (cached && cached.until > Date.now()) return cached.user;
    const user = await this.lookUp(key, touch);
    if (user && this.cacheMs > 0) {
      this.recent.delete(key);
      this.recent.set(key, { user, until: Date.now() + this.cacheMs });
      if (this.recent.size > 10_000) this.recent.delete(this.recent.keys().next().value!);
    } else {
      this.recent.delete(key);
    }
    return user;
  }

  private async lookUp(tokenHash: string, touch: boolean): Promise<SessionUser | null> {
    const result = await this.pool.query<UserRow & { stale: boolean }>(
      `select u.id, u.first_name, u.last_name, u.email, u.user_type, s.id as session_id, u.firm_id, f.name as firm_name, u.firm_role, u.photo_id::text as photo_id,
              s.last_seen_at < now() - make_interval(secs => $2) as stale
       from sessions s join users u on u.id = s.user_id join firms f on f.id = u.firm_id
       where s.token_hash = $1 and s.expires_at > now()
         and s.last_seen_at > now() - make_interval(mins => u.session_timeout_minutes)`,
      [tokenHash, TOUCH_EVERY_SECONDS],
    );
    const row = result.rows[0];
    if (!row) return null;
    if (touch && row.stale) await this.pool.query('update sessions set last_seen_at = now() where token_hash = $1', [tokenHash]);
    return toUser(row);
  }

  /**
   * The person of a session still in force, by its id (not its secret): who a side is handed over to
   * (docs/decisions/per-side-control.md). Null when unknown, expired or idle past the user's timeout.
   */
  async userOfSession(sessionId: string): Promise<SessionUser | null> {
    if (!/^[0-9a-f-]{36}$/i.test(sessionId)) return null;
    const result = await this.pool.query<UserRow>(
      `select u.id, u.first_name, u.last_name, u.email, u.user_type, s.id as session_id, u.firm_id, f.name as firm_name, u.firm_role, u.photo_id::text as photo_id
       from sessions s join users u on u.id = s.user_id join firms f on f.id = u.firm_id
       where s.id = $1 and s.expires_at > now() and s.last_seen_at > now() - make_interval(mins => u.session_timeout_minutes)`,
      [sessionId],
    );
    const row = result.rows[0];
    return row ? toUser(row) : null;
  }

  async revoke(token: string | undefined): Promise<void> {
    if (!token) return;
    this.recent.delete(hash(token));
    await this.pool.query('delete from sessions where token_hash = $1', [hash(token)]);
  }

  /** Settings → Security: the user's sessions still in force, the most recently used first. */
  async listSessions(userId: string, currentSessionId: string): Promise<SessionView[]> {
    const result = await this.pool.query<{ id: string; user_agent: string | null; created_at: Date; last_seen_at: Date; expires_at: Date }>(
      `select s.id, s.user_agent, s.created_at, s.last_seen_at, s.expires_at
       from sessions s join users u on u.id = s.user_id
       where s.user_id = $1 and s.expires_at > now() and s.last_seen_at > now() - make_interval(mins => u.session_timeout_minutes)
       order by s.last_seen_at desc, s.created_at desc`,
      [userId],
    );
    return result.rows.map((row) => ({
      id: row.id,
      device: describeDevice(row.user_agent),
      createdAt: row.created_at.toISOString(),
      lastUsedAt: row.last_seen_at.toISOString(),
      expiresAt: row.expires_at.toISOString(),
      isCurrent: row.id === currentSessionId,
    }));
  }

  /** Ends one of the user's sessions at once (in this process; others within their cacheMs). False if none. */
  async revokeSession(userId: string, sessionId: string): Promise<boolean> {
    const result = await this.pool.query<{ token_hash: string }>(
      'delete from sessions where user_id = $1 and id = $2 returning token_hash',
      [userId, sessionId],
    );
    for (const row of result.rows) this.recent.delete(row.token_hash);
    return (result.rowCount ?? 0) > 0;
  }

  /**
   * Ends every session of a user at once (removed from their firm): deleted here, forgotten by this process;
   * another process trusts one for at most its cacheMs, and the socket closes on its next check.
   */
  async revokeAllOf(userId: string): Promise<void> {
    this.forgetUser(userId);
    await this.pool.query('delete from sessions where user_id = $1', [userId]);
  }

  /** Forgets every cached session of the members of a firm (its name changed). */
  forgetFirm(firmId: string): void {
    for (const [key, entry] of this.recent) if (entry.user.firmId === firmId) this.recent.delete(key);
  }

  /** Forgets every cached session of a user (their timeout changed, or their account is going). */
  forgetUser(userId: string): void {
    for (const [key, entry] of this.recent) if (entry.user.id === userId) this.recent.delete(key);
  }

  /** Deletes sessions past their expiry or their user's idle timeout; answers how many. */
  async purgeExpired(): Promise<number> {
    const result = await this.pool.query(
      `delete from sessions s using users u
       where u.id = s.user_id and (s.expires_at <= now() or s.last_seen_at <= now() - make_interval(mins => u.session_timeout_minutes))`,
    );
    return result.rowCount ?? 0;
  }
}

function toUser(row: UserRow): SessionUser {
  return {
    id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    userType: row.user_type,
    sessionId: row.session_id,
    firmId: row.firm_id,
    firmName: row.firm_name,
    role: row.firm_role,
    photoId: row.photo_id,
  };
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
