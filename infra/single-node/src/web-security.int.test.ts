import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '@pf/infra/testing';
import { createPool } from '@pf/infra';
import { invisibleControlMessage, type ApiError, type CurrentUserView } from '@pf/events';
import { startSingleNode, type RunningServer } from './server';
import { ApiClient } from './testing/api-client';
import { testServerEnv } from './testing/server-env';

/** Sign-out, notifications, cookies, write limits and names, as a browser or another site would try them. */
describe('cross-site requests, ownership, cookies and limits', () => {
  let database: TestDatabase;
  let server: RunningServer;
  let sql: pg.Pool;
  const WRITES_PER_MINUTE = 8;

  beforeAll(async () => {
    database = await createTestDatabase();
    server = await startSingleNode(
      testServerEnv(database.url, { RATE_LIMIT_PER_MINUTE: String(WRITES_PER_MINUTE), TRUST_PROXY: 'loopback' }),
    );
    sql = createPool(database.url, 2);
  });
  afterAll(async () => {
    await sql?.end();
    await server?.close();
    await database?.drop();
  });

  const signedIn = async (client: ApiClient) => (await client.get('/api/auth/user')).status === 200;

  it('signs out on a POST from its own pages; a POST from another site is refused and a GET from anywhere only asks to confirm', async () => {
    const ada = await ApiClient.signIn(server.url);

    // A link or an image on another site: GET signs nobody out; it answers a page whose button POSTs.
    const linked = await fetch(`${server.url}/api/logout`, {
      redirect: 'manual',
      headers: { cookie: ada.cookie, 'sec-fetch-site': 'cross-site' },
    });
    expect(linked.status).toBe(200);
    expect(linked.headers.get('content-type')).toMatch(/^text\/html/);
    expect(linked.headers.get('set-cookie')).toBeNull();
    const page = await linked.text();
    expect(page).toContain('<h1 style="font-size: 1.5rem">Sign out?</h1>');
    expect(page).toContain('A link asked to sign you out of Property Finance. Nothing has changed yet.');
    expect(page).toMatch(
      /<form method="post" action="\/api\/logout" enctype="text\/plain">\s*<button type="submit"[^>]*>Sign out<\/button>/,
    );
    expect(await signedIn(ada)).toBe(true);

    // A form on another site posting here: the Origin check refuses it.
    const forged = await fetch(`${server.url}/api/logout`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: ada.cookie, origin: 'https://evil.example' },
    });
    expect(forged.status).toBe(403);
    expect(((await forged.json()) as ApiError).message).toBe('Requests from origin https://evil.example are not allowed');
    expect(await signedIn(ada)).toBe(true);

    // The confirmation page's button (and the console's Log out): a form POST from this origin, empty text/plain body.
    const out = await fetch(`${server.url}/api/logout`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: ada.cookie, origin: server.url, 'content-type': 'text/plain' },
      body: '',
    });
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe('/');
    expect(out.headers.get('set-cookie')).toMatch(/^pf_session=;/);
    expect(await signedIn(ada)).toBe(false);

    // Signed out already: the GET goes home.
    const again = await fetch(`${server.url}/api/logout`, { redirect: 'manual', headers: { cookie: ada.cookie } });
    expect(again.status).toBe(302);
    expect(again.headers.get('location')).toBe('/');
  });

  it("marks only the caller's own notification read: another person's id is 404 and appends nothing", async () => {
    const ada = await ApiClient.signIn(server.url);
    const bob = await ApiClient.signIn(server.url);
    const adaId = (await ada.get<CurrentUserView>('/api/auth/user')).body.id;
    // A notification of Ada's in the read model (as the projection writes one for a match of her agents).
    const notification = randomBytes(12).toString('hex');
    await sql.query(
      `insert into rm_notifications (id, firm_id, kind, type, title, message, priority, link, created_at)
       values ($1, $2, 'agentMatches', 'agent', 'New match found', 'A and B matched', 'low', '/matching', now())`,
      [notification, adaId],
    );
    const events = async () => Number((await sql.query<{ n: string }>('select count(*) as n from events')).rows[0]!.n);

    const before = await events();
    const foreign = await bob.post(`/api/notifications/${notification}/read`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ message: `Notification ${notification} not found` });
    const unknown = await bob.post(`/api/notifications/${'0'.repeat(24)}/read`);
    expect(unknown.status).toBe(404);
    expect(await events()).toBe(before);

    const own = await ada.post(`/api/notifications/${notification}/read`);
    expect(own.status).toBe(200);
    expect(own.body).toEqual({ id: notification });
    expect(await events()).toBe(before + 1);
  });

  it('sets Secure on every cookie when the request came over https through a trusted proxy, and not over plain http', async () => {
    const viaProxy = await fetch(`${server.url}/api/login`, { redirect: 'manual', headers: { 'x-forwarded-proto': 'https' } });
    const cookies = viaProxy.headers.getSetCookie();
    expect(cookies.map((cookie) => cookie.split('=')[0]).sort()).toEqual(['pf_device', 'pf_session']);
    for (const cookie of cookies) expect(cookie).toMatch(/; Secure(;|$)/);
    const session = cookies.find((cookie) => cookie.startsWith('pf_session='))!.split(';')[0]!;

    // The cookie cleared at sign-out is Secure too.
    const out = await fetch(`${server.url}/api/logout`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: session, 'x-forwarded-proto': 'https' },
    });
    expect(out.headers.getSetCookie()).toEqual([expect.stringMatching(/^pf_session=;.*; Secure(;|$)/)]);

    const plain = await fetch(`${server.url}/api/login`, { redirect: 'manual' });
    for (const cookie of plain.headers.getSetCookie()) expect(cookie).not.toMatch(/Secure/i);
  });

  it('limits writes per signed-in person, so two people behind one address each get their own limit', async () => {
    const [ada, bob] = [await ApiClient.signIn(server.url), await ApiClient.signIn(server.url)];
    const statuses = async (client: ApiClient, count: number) => {
      const seen: number[] = [];
      for (let i = 0; i < count; i++) seen.push((await client.post('/api/agents', { name: `Limit ${i}`, type: 'borrower' })).status);
      return seen;
    };
    const adas = await statuses(ada, WRITES_PER_MINUTE + 1);
    expect(adas.slice(0, WRITES_PER_MINUTE).every((status) => status === 201)).toBe(true);
    expect(adas.at(-1)).toBe(429);
    // Bob shares Ada's address (both on loopback here) but not her limit.
    expect(await statuses(bob, WRITES_PER_MINUTE)).toEqual(Array(WRITES_PER_MINUTE).fill(201));
    const refused = await ada.post<ApiError>('/api/agents', { name: 'One more', type: 'borrower' });
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(new RegExp(`^Too many requests: at most ${WRITES_PER_MINUTE} a minute`));
  });

  it('refuses a right-to-left override in a name with a 400 naming the field', async () => {
    const ada = await ApiClient.signIn(server.url);
    const spoofed = await ada.post<ApiError>('/api/agents', { name: 'Invoice\u202Efdp.exe', type: 'borrower' });
    expect(spoofed.status).toBe(400);
    expect(spoofed.body.message).toBe(`name: ${invisibleControlMessage('Agent name')}`);
    const profile = await ada.put<ApiError>('/api/auth/profile', { firstName: 'Ada', lastName: 'Love\u2067lace' });
    expect(profile.status).toBe(400);
    expect(profile.body.message).toContain(`lastName: ${invisibleControlMessage('Last name')}`);
  });
});
