import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
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

/** A request as any client may send it (node:http, so Host can be anything), answered in full. */
function rawRequest(url: string, options: { method?: string; path: string; headers: Record<string, string>; body?: string }) {
  return new Promise<{ status: number; body: string; upgraded: boolean }>((resolve, reject) => {
    const request = http.request(`${url}${options.path}`, { method: options.method ?? 'GET', headers: options.headers });
    request.on('response', (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body, upgraded: false }));
    });
    request.on('upgrade', (response, socket) => {
      socket.destroy();
      resolve({ status: response.statusCode ?? 0, body: '', upgraded: true });
    });
    request.on('error', reject);
    request.end(options.body);
  });
}

const upgradeHeaders = {
  connection: 'Upgrade',
  upgrade: 'websocket',
  'sec-websocket-key': randomBytes(16).toString('base64'),
  'sec-websocket-version': '13',
};

/**
 * The names the server answers to, the scheme an Origin must have, and how long a request may take to arrive
 * (docs/operations/web-security.md): over HTTP and the socket upgrade alike, with real sockets.
 */
describe('hosts, origins by scheme, and request timeouts', () => {
  let database: TestDatabase;
  let server: RunningServer;
  let host: string;
  let ada: ApiClient;

  beforeAll(async () => {
    database = await createTestDatabase();
    server = await startSingleNode(
      testServerEnv(database.url, {
        TRUST_PROXY: 'loopback',
        ALLOWED_HOSTS: 'console.example.com',
        REQUEST_TIMEOUT_MS: '2000',
        BODY_TIMEOUT_MS: '500',
      }),
    );
    host = new URL(server.url).host;
    ada = await ApiClient.signIn(server.url);
  });
  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  it('answers only to its own host names, over HTTP and the socket upgrade, naming the host it refused', async () => {
    const port = new URL(server.url).port;
    const foreign = await rawRequest(server.url, {
      path: '/api/auth/user',
      headers: { host: `rebound.example:${port}`, cookie: ada.cookie },
    });
    expect(foreign.status).toBe(400);
    expect((JSON.parse(foreign.body) as ApiError).message).toBe(
      'This server does not answer to the host "rebound.example:' + port + '"; add it to ALLOWED_HOSTS if it is yours',
    );
    for (const name of [`localhost:${port}`, `127.0.0.1:${port}`, `console.example.com:${port}`, `CONSOLE.example.com`]) {
      expect({
        name,
        status: (await rawRequest(server.url, { path: '/api/auth/user', headers: { host: name, cookie: ada.cookie } })).status,
      }).toEqual({
        name,
        status: 200,
      });
    }
    // A probe reaches the process by whatever address it has.
    expect((await rawRequest(server.url, { path: '/healthz', headers: { host: '10.1.2.3:5000' } })).status).toBe(200);
    const socket = await rawRequest(server.url, {
      path: '/ws',
      headers: { ...upgradeHeaders, host: `rebound.example:${port}`, origin: `http://rebound.example:${port}`, cookie: ada.cookie },
    });
    expect(socket).toMatchObject({ status: 400, upgraded: false });
    expect(socket.body).toContain('does not answer to the host');
    const own = await rawRequest(server.url, { path: '/ws', headers: { ...upgradeHeaders, host, origin: server.url, cookie: ada.cookie } });
    expect(own).toMatchObject({ status: 101, upgraded: true });
  });

  it('compares the Origin with its scheme: an https page of this host writes only when the request came over https', async () => {
    const write = (origin: string, headers: Record<string, string> = {}) =>
      rawRequest(server.url, {
        method: 'POST',
        path: '/api/agents',
        headers: { host, origin, cookie: ada.cookie, 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ name: 'Scheme Borrower', type: 'borrower' }),
      });
    const httpsPageOverHttp = await write(`https://${host}`);
    expect(httpsPageOverHttp.status).toBe(403);
    expect((JSON.parse(httpsPageOverHttp.body) as ApiError).message).toBe(`Requests from origin https://${host} are not allowed`);
    // Through a proxy TRUST_PROXY believes (loopback here) that says the request came over https.
    expect((await write(`https://${host}`, { 'x-forwarded-proto': 'https' })).status).toBe(201);
    expect((await write(`http://${host}`, { 'x-forwarded-proto': 'https' })).status).toBe(403);
    expect((await write(`http://${host}`)).status).toBe(201);
    const socket = await rawRequest(server.url, {
      path: '/ws',
      headers: { ...upgradeHeaders, host, origin: `https://${host}`, cookie: ada.cookie },
    });
    expect(socket).toMatchObject({ status: 403, upgraded: false });
  });

  /** Sends the head of a request and `send(socket)` of its body, and reads until the server closes the connection. */
  const stall = (body: (socket: net.Socket) => void, contentLength: number) =>
    new Promise<string>((resolve, reject) => {
      const { port } = new URL(server.url);
      const socket = net.connect(Number(port), '127.0.0.1');
      let answer = '';
      socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
      socket.on('close', () => resolve(answer));
      socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? undefined : reject(error)));
      socket.on('connect', () => {
        socket.write(
          `POST /api/agents HTTP/1.1\r\nHost: ${host}\r\nCookie: ${ada.cookie}\r\nContent-Type: application/json\r\nContent-Length: ${contentLength}\r\n\r\n`,
        );
        body(socket);
      });
    });

  it('answers 408 and closes the connection when a body stops arriving', async () => {
    const answer = await stall((socket) => socket.write('{"name":'), 100);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toContain('"message":"The request body stopped arriving for 0.5 s; send it again"');
  });

  it('answers 408 and closes the connection when a body trickles in for longer than the request may take', async () => {
    let trickle: NodeJS.Timeout | undefined;
    const answer = await stall((socket) => {
      // A byte every 100 ms: never idle for the body timeout, but never done.
      trickle = setInterval(() => (socket.writable ? socket.write(' ') : clearInterval(trickle)), 100);
    }, 60_000);
    clearInterval(trickle);
    expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout/);
  }, 60_000);
});
