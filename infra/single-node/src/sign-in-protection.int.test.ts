import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { streams, type ApiError, type RecoveryCodesView, type SecurityView, type SignInView, type TwoFactorSetupView } from '@pf/events';
import { createPool } from '@pf/infra';
import { ApiClient } from './testing/api-client';
import { readFeedPage } from './testing/event-feed';
import { testSingleNode } from './testing/single-node';

/**
 * Sign-in protection against a real server and PostgreSQL (docs/decisions/sign-in-secrets.md): secrets stored
 * hashed and out of every event, a TOTP code and a recovery code each working once, Log out locking a protected
 * account's browser, and wrong answers limited per account and per client address.
 */
const appFor = (secret: string) => new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
const PASSWORD = 'a long and careful passphrase';

describe('sign-in protection', () => {
  // Each test signs in from an address of its own (TEST-NET-1, RFC 5737), told by X-Forwarded-For, so the per-address count is the test's.
  const node = testSingleNode({ TRUST_PROXY: 'true' });
  let sequence = 0;

  /** A browser's sign-in: the cookies it was given (session, device), or the refusal. */
  async function signIn(body: Record<string, unknown>, device = '', address = '192.0.2.1') {
    const response = await fetch(`${node.server.url}/api/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: node.server.url, cookie: device, 'x-forwarded-for': address },
      body: JSON.stringify(body),
    });
    const cookies = response.headers.getSetCookie().map((cookie) => cookie.split(';')[0]!);
    return {
      status: response.status,
      body: (await response.json()) as SignInView & ApiError,
      session: cookies.find((c) => c.startsWith('pf_session=')),
    };
  }

  /** A new guest account protected with a password and two-factor: its client, email, app and recovery codes. */
  async function protectedAccount() {
    const client = await ApiClient.signIn(node.server.url);
    const email = `owner${++sequence}@example.co.uk`;
    expect((await client.put<SecurityView>('/api/auth/password', { email, password: PASSWORD, confirm: PASSWORD })).body).toMatchObject({
      password: true,
      twoFactor: false,
      email,
    });
    const setup = (await client.post<TwoFactorSetupView>('/api/auth/two-factor/setup')).body;
    expect(setup.uri).toMatch(/^otpauth:\/\/totp\/Property%20Finance:.+\?.*secret=/);
    const app = appFor(setup.secret);
    const turnedOnWith = app.generate();
    const enabled = await client.post<RecoveryCodesView>('/api/auth/two-factor', { code: turnedOnWith });
    expect(enabled.status).toBe(200);
    expect(enabled.body.codes).toHaveLength(10);
    const me = (await client.get<{ id: string }>('/api/auth/user')).body;
    return { client, email, app, setup, turnedOnWith, codes: enabled.body.codes, userId: me.id };
  }

  it('stores the password as argon2id and the recovery codes as hashes, and no secret reaches an event or the event feed', async () => {
    const { client, setup, codes, userId } = await protectedAccount();
    const sql = createPool(node.database.url, 1);
    try {
      const stored = await sql.query<{ password_hash: string; totp_secret: string; recovery_code_hashes: string[] }>(
        'select password_hash, totp_secret, recovery_code_hashes from account_protection where user_id = $1',
        [userId],
      );
      const row = stored.rows[0]!;
      expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=65536,p=4,t=3\$/);
      expect(row.password_hash).not.toContain(PASSWORD);
      expect(row.totp_secret).toBe(setup.secret);
      expect(row.recovery_code_hashes).toHaveLength(10);
      for (const code of codes) expect(row.recovery_code_hashes.join()).not.toContain(code.replace('-', ''));

      const events = await sql.query<{ type: string; data: unknown }>(
        'select type, data from events where stream_name = $1 order by stream_version',
        [streams.user(userId)],
      );
      expect(events.rows.map((event) => event.type)).toEqual(['PasswordChanged', 'TwoFactorEnabled']);
      expect(events.rows.map((event) => event.data)).toEqual([
        { userId, first: true },
        { userId, recoveryCodes: 10 },
      ]);

      // Nothing in the whole store (which the Kafka relay publishes as it is) holds a secret or a hash of one.
      const secrets = [
        PASSWORD,
        setup.secret,
        row.password_hash,
        ...codes,
        ...codes.map((code) => code.replace('-', '')),
        ...row.recovery_code_hashes,
      ];
      const everything = (await sql.query<{ text: string }>("select string_agg(data::text || metadata::text, '') as text from events"))
        .rows[0]!.text;
      for (const secret of secrets) expect(everything).not.toContain(secret);

      // The event feed answers the firm's work, and a person's own settings stream not at all.
      expect((await client.post('/api/seed-demo')).status).toBe(201);
      const token = (await client.post<{ token: string }>('/api/auth/tokens', { name: 'Secrets check', scopes: ['events:read'] })).body
        .token;
      const feed = await readFeedPage(node.server.url, token);
      expect(feed.status).toBe(200);
      expect(feed.events.some((event) => event.type === 'AgentCreated')).toBe(true);
      expect(feed.events.filter((event) => event.stream === streams.user(userId))).toEqual([]);
      for (const secret of secrets) expect(feed.text).not.toContain(secret);
    } finally {
      await sql.end();
    }
  });

  it("locks a protected account's browser after Log out: Get Started leads to /sign-in and opens no session", async () => {
    const login = await fetch(`${node.server.url}/api/login`, { redirect: 'manual' });
    const device = login.headers
      .getSetCookie()
      .find((cookie) => cookie.startsWith('pf_device='))!
      .split(';')[0]!;
    // This browser's own account, protected, then signed out.
    const browser = Object.assign(new ApiClient(node.server.url), {
      cookie: `${
        login.headers
          .getSetCookie()
          .find((c) => c.startsWith('pf_session='))!
          .split(';')[0]
      }; ${device}`,
    });
    const email = `browser${++sequence}@example.co.uk`;
    expect((await browser.put('/api/auth/password', { email, password: PASSWORD, confirm: PASSWORD })).status).toBe(200);
    const me = (await browser.get<{ id: string }>('/api/auth/user')).body;
    await fetch(`${node.server.url}/api/logout`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: browser.cookie, origin: node.server.url },
    });
    expect((await browser.get('/api/auth/user')).status).toBe(401);

    const again = await fetch(`${node.server.url}/api/login`, { redirect: 'manual', headers: { cookie: device } });
    expect(again.status).toBe(302);
    expect(again.headers.get('location')).toBe('/sign-in');
    expect(again.headers.getSetCookie().some((cookie) => cookie.startsWith('pf_session='))).toBe(false);

    // Someone else at that computer starts an account of their own; the owner still signs in to theirs.
    const fresh = await fetch(`${node.server.url}/api/login?fresh=1`, { redirect: 'manual', headers: { cookie: device } });
    expect(fresh.headers.get('location')).toBe('/auth');
    const newcomer = Object.assign(new ApiClient(node.server.url), {
      cookie: fresh.headers
        .getSetCookie()
        .find((c) => c.startsWith('pf_session='))!
        .split(';')[0]!,
    });
    expect((await newcomer.get<{ id: string }>('/api/auth/user')).body.id).not.toBe(me.id);
    expect(
      fresh.headers
        .getSetCookie()
        .find((c) => c.startsWith('pf_device='))!
        .split(';')[0],
    ).not.toBe(device);

    const signedIn = await signIn({ email, password: PASSWORD }, device);
    expect(signedIn.body).toEqual({ status: 'signed-in' });
    const back = Object.assign(new ApiClient(node.server.url), { cookie: signedIn.session! });
    expect((await back.get<{ id: string }>('/api/auth/user')).body.id).toBe(me.id);
  });

  it('asks for the code after the right password; a code and a recovery code each work once', async () => {
    const { email, app, turnedOnWith, codes, userId } = await protectedAccount();
    expect((await signIn({ email, password: PASSWORD })).body).toEqual({ status: 'code-required' });
    // The code that turned two-factor on has been used: refused, in words. That code itself, not the app's code of
    // the moment: a 30-second step may have begun since, and its code has not been used.
    const replayed = await signIn({ email, password: PASSWORD, code: turnedOnWith });
    expect(replayed.status).toBe(401);
    expect(replayed.body.message).toBe(
      'That code is not right: enter the 6-digit code your authenticator app shows now, or one of your recovery codes. A code works once',
    );
    const next = app.generate({ timestamp: Date.now() + 30_000 });
    expect((await signIn({ email, password: PASSWORD, code: next })).status).toBe(200);
    expect((await signIn({ email, password: PASSWORD, code: next })).status).toBe(401);

    const recovery = codes[3]!;
    const used = await signIn({ email, password: PASSWORD, code: recovery.toLowerCase() });
    expect(used.body).toEqual({ status: 'signed-in' });
    expect((await signIn({ email, password: PASSWORD, code: recovery })).status).toBe(401);
    const signedIn = Object.assign(new ApiClient(node.server.url), { cookie: used.session! });
    expect((await signedIn.get<SecurityView>('/api/auth/security')).body.recoveryCodesLeft).toBe(9);
    const sql = createPool(node.database.url, 1);
    try {
      const events = await sql.query<{ data: unknown }>("select data from events where stream_name = $1 and type = 'RecoveryCodeUsed'", [
        streams.user(userId),
      ]);
      expect(events.rows.map((event) => event.data)).toEqual([{ userId, remaining: 9 }]);
    } finally {
      await sql.end();
    }
  });

  it('ends other sessions on a new password, and turning two-factor off needs a right code or password', async () => {
    const { client, email, codes } = await protectedAccount();
    const other = await signIn({ email, password: PASSWORD, code: codes[0]! });
    const otherClient = Object.assign(new ApiClient(node.server.url), { cookie: other.session! });
    expect((await otherClient.get('/api/auth/user')).status).toBe(200);

    const wrongCurrent = await client.put<ApiError>('/api/auth/password', {
      current: 'not my password',
      password: `${PASSWORD}!`,
      confirm: `${PASSWORD}!`,
    });
    expect(wrongCurrent.status).toBe(400);
    expect(wrongCurrent.body.message).toBe('current: Your current password is not right');
    expect(
      (await client.put<ApiError>('/api/auth/password', { current: PASSWORD, password: 'short', confirm: 'short' })).body.message,
    ).toBe('password: New password must be at least 12 characters');
    expect((await client.put('/api/auth/password', { current: PASSWORD, password: `${PASSWORD}!`, confirm: `${PASSWORD}!` })).status).toBe(
      200,
    );
    expect((await otherClient.get('/api/auth/user')).status).toBe(401);

    expect((await client.request<ApiError>('DELETE', '/api/auth/two-factor', { password: PASSWORD })).body.message).toBe(
      'password: Your password is not right',
    );
    const off = await client.request<SecurityView>('DELETE', '/api/auth/two-factor', { password: `${PASSWORD}!` });
    expect(off.body).toMatchObject({ password: true, twoFactor: false, recoveryCodesLeft: 0 });
    expect((await signIn({ email, password: `${PASSWORD}!` })).body).toEqual({ status: 'signed-in' });
  });

  it('refuses an account after 5 wrong passwords in 15 minutes, even with the right one, and a client address after 20', async () => {
    const { email } = await protectedAccount();
    const address = '192.0.2.99';
    for (let attempt = 0; attempt < 5; attempt++) {
      const wrong = await signIn({ email, password: `wrong ${attempt}` }, '', address);
      expect(wrong.status).toBe(401);
      expect(wrong.body.message).toBe('The email or password is not right');
    }
    const locked = await signIn({ email, password: PASSWORD }, '', address);
    expect(locked.status).toBe(429);
    expect(locked.body.message).toMatch(/^Too many wrong attempts for this account: try again in (1[0-5]|[1-9]) minutes?$/);

    // An email no account has is answered in the same words, and counts against the address: 20 wrong in all.
    // From another address too: the account's count is its own.
    expect((await signIn({ email, password: PASSWORD }, '', '192.0.2.100')).status).toBe(429);
    const unknown = await signIn({ email: 'nobody@example.co.uk', password: PASSWORD }, '', address);
    expect(unknown.body.message).toBe('The email or password is not right');
    for (let attempt = 7; attempt <= 20; attempt++)
      expect((await signIn({ email: `nobody${attempt}@example.co.uk`, password: 'x' }, '', address)).status).toBe(401);
    const blocked = await signIn({ email: 'nobody21@example.co.uk', password: 'x' }, '', address);
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toMatch(/^Too many wrong attempts from this network address: try again in/);
  });
});
