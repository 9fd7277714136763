import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '@pf/infra/testing';
import { createPool } from '@pf/infra';
import { OidcSignIn, readFlow } from '@pf/command-service/oidc';
import { startSingleNode, type RunningServer } from './server';
import { ApiClient } from './testing/api-client';
import { OidcTestBrowser } from './testing/oidc-browser';
import { startTestProvider, type TestProvider } from './testing/oidc-provider';
import { testServerEnv } from './testing/server-env';
import type { ApiError, AgentView, CurrentUserView } from '@pf/events';

const PEOPLE = {
  grace: { given_name: 'Grace', family_name: 'Hopper', email: 'grace.hopper@example.co.uk' },
  alan: { given_name: 'Alan', family_name: 'Turing', email: 'alan.turing@example.co.uk' },
};

/**
 * With OIDC_* set, sign-in (docs/behaviour/sign-in.md) goes through a real OpenID provider (oidc-provider, started here on a free
 * port) by the authorization code flow with PKCE; accounts are keyed by issuer and subject.
 */
describe('sign-in through OpenID Connect', () => {
  let database: TestDatabase;
  let provider: TestProvider;
  let server: RunningServer;
  let sql: pg.Pool;
  let callback: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    provider = await startTestProvider(PEOPLE);
    server = await startSingleNode(testServerEnv(database.url, provider.settings));
    callback = `${server.url}/api/auth/callback`;
    provider.register(callback);
    sql = createPool(database.url, 2);
  });
  afterAll(async () => {
    await sql?.end();
    await server?.close();
    await provider?.stop();
    await database?.drop();
  });

  /** A new browser signs in as `login` at the provider and comes back signed in on /auth. */
  async function signIn(login: keyof typeof PEOPLE): Promise<ApiClient> {
    const browser = new OidcTestBrowser();
    const end = await browser.walk(`${server.url}/api/login`, { login, stopAt: `${server.url}/auth` });
    expect(end.url).toBe(`${server.url}/auth`);
    const client = new ApiClient(server.url);
    client.cookie = `pf_session=${browser.cookie(server.url, 'pf_session')}`;
    return client;
  }

  /** A new browser goes through the provider and stops at the callback, not yet requested. */
  async function upToCallback(login: string, consent: 'accept' | 'cancel' = 'accept'): Promise<{ browser: OidcTestBrowser; url: string }> {
    const browser = new OidcTestBrowser();
    const end = await browser.walk(`${server.url}/api/login`, { login, consent, stopAt: callback });
    expect(end.url.startsWith(`${callback}?`)).toBe(true);
    return { browser, url: end.url };
  }

  it('sends /api/login to the provider with an S256 PKCE challenge, state and nonce, and makes no guest account', async () => {
    const users = async () => Number((await sql.query<{ count: string }>('select count(*) from users')).rows[0]!.count);
    const before = await users();
    const browser = new OidcTestBrowser();
    const response = await browser.request(`${server.url}/api/login`);
    expect(response.status).toBe(302);
    const to = new URL(response.headers.get('location')!);
    expect(to.origin).toBe(provider.issuer);
    expect(Object.fromEntries(to.searchParams)).toMatchObject({
      client_id: provider.clientId,
      redirect_uri: callback,
      response_type: 'code',
      scope: 'openid profile email',
      code_challenge_method: 'S256',
      code_challenge: expect.stringMatching(/^[\w-]{43}$/) as unknown,
      state: expect.stringMatching(/^[\w-]{20,}$/) as unknown,
      nonce: expect.stringMatching(/^[\w-]{20,}$/) as unknown,
    });
    const flowCookie = response.headers.getSetCookie().find((c) => c.startsWith('pf_oidc='))!;
    expect(flowCookie).toMatch(/HttpOnly/i);
    expect(flowCookie).toMatch(/Path=\/api\/auth\/callback/);
    expect(response.headers.getSetCookie().some((c) => c.startsWith('pf_session='))).toBe(false);
    expect(await users()).toBe(before);
  });

  it("signs in the provider's account keyed by issuer and subject; the same subject again is the same account, another is another", async () => {
    const grace = await signIn('grace');
    const me = (await grace.get<CurrentUserView>('/api/auth/user')).body;
    expect(me).toMatchObject({ firstName: 'Grace', lastName: 'Hopper', email: PEOPLE.grace.email, userType: 'operator' });
    const row = (
      await sql.query<{ oidc_issuer: string; oidc_subject: string }>('select oidc_issuer, oidc_subject from users where id = $1', [me.id])
    ).rows[0];
    expect(row).toEqual({ oidc_issuer: provider.issuer, oidc_subject: 'grace' });
    expect((await grace.post('/api/agents', { name: 'Harriet Cole', type: 'borrower' })).status).toBe(201);

    await fetch(`${server.url}/api/logout`, { method: 'POST', redirect: 'manual', headers: { cookie: grace.cookie } });
    expect((await grace.get('/api/auth/user')).status).toBe(401);

    // Another browser, the same person at the provider: the same account, its agent still there.
    const again = await signIn('grace');
    // Read with the position the agent's creation answered (x-after-position), as the README says a client reads its
    // own write: this sign-in comes milliseconds after the write, before the projector may have folded it.
    again.lastPosition = grace.lastPosition;
    expect((await again.get<CurrentUserView>('/api/auth/user')).body.id).toBe(me.id);
    expect((await again.get<AgentView[]>('/api/agents')).body.map((agent) => agent.name)).toEqual(['Harriet Cole']);

    const alan = await signIn('alan');
    const other = (await alan.get<CurrentUserView>('/api/auth/user')).body;
    expect(other).toMatchObject({ firstName: 'Alan', lastName: 'Turing' });
    expect(other.id).not.toBe(me.id);
    expect((await alan.get('/api/agents')).body).toEqual([]);
    expect(Number((await sql.query<{ count: string }>("select count(*) from users where oidc_subject = 'grace'")).rows[0]!.count)).toBe(1);
  });

  it('answers a callback without its sign-in, with a wrong state or after denied consent with 4xx naming the problem', async () => {
    const stray = await fetch(`${callback}?code=abc&state=xyz`, { redirect: 'manual' });
    expect(stray.status).toBe(400);
    expect(((await stray.json()) as ApiError).message).toContain('sign in again');

    const forged = await upToCallback('grace');
    const wrongState = new URL(forged.url);
    wrongState.searchParams.set('state', 'not-the-state-this-browser-was-given');
    const refused = await forged.browser.request(wrongState.href);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as ApiError).message).toMatch(/^state: /);
    expect(forged.browser.cookie(server.url, 'pf_session')).toBeUndefined();

    const denied = await upToCallback('alan', 'cancel');
    expect(new URL(denied.url).searchParams.get('error')).toBe('access_denied');
    const answer = await denied.browser.request(denied.url);
    expect(answer.status).toBe(403);
    expect(((await answer.json()) as ApiError).message).toContain('Sign-in was not completed at the provider: access_denied');
  });

  it('lets the provider refuse a replayed code and a code redeemed without its PKCE verifier (400, no session), and a wrong client secret (502)', async () => {
    const first = await upToCallback('grace');
    const flow = first.browser.cookie(server.url, 'pf_oidc')!;
    expect((await first.browser.request(first.url)).status).toBe(302);
    // The same answer again, with the sign-in's cookie put back: the provider has already redeemed the code.
    const replay = new OidcTestBrowser();
    replay.setCookie(server.url, 'pf_oidc', flow);
    const replayed = await replay.request(first.url);
    expect(replayed.status).toBe(400);
    expect(((await replayed.json()) as ApiError).message).toContain('the provider refused the sign-in (invalid_grant');

    // An attacker's own verifier with a stolen code: the provider checks it against the S256 challenge.
    const second = await upToCallback('grace');
    const decoded = JSON.parse(Buffer.from(second.browser.cookie(server.url, 'pf_oidc')!, 'base64url').toString()) as Record<
      string,
      unknown
    >;
    const stolen = new OidcTestBrowser();
    stolen.setCookie(server.url, 'pf_oidc', Buffer.from(JSON.stringify({ ...decoded, verifier: 'x'.repeat(64) })).toString('base64url'));
    const withoutVerifier = await stolen.request(second.url);
    expect(withoutVerifier.status).toBe(400);
    expect(((await withoutVerifier.json()) as ApiError).message).toContain('invalid_grant');
    expect(stolen.cookie(server.url, 'pf_session')).toBeUndefined();

    // A server with the wrong client secret: the operator's mistake, so 502 (logged), not the visitor's 400.
    const third = await upToCallback('alan');
    const misconfigured = new OidcSignIn({ issuer: provider.issuer, clientId: provider.clientId, clientSecret: 'not-the-secret' });
    await expect(
      misconfigured.finish(readFlow(third.browser.cookie(server.url, 'pf_oidc'))!, new URL(third.url).searchParams),
    ).rejects.toMatchObject({
      statusCode: 502,
      detail: expect.stringContaining('invalid_client') as unknown,
    });
  });

  it('answers 502 when the provider cannot be reached, at discovery and at the code exchange', async () => {
    const nowhere = new OidcSignIn({ issuer: 'http://127.0.0.1:9', clientId: 'x', clientSecret: 'y' });
    await expect(nowhere.start(callback)).rejects.toMatchObject({
      statusCode: 502,
      detail: expect.stringContaining('discovery at http://127.0.0.1:9 failed') as unknown,
    });

    const late = await upToCallback('alan');
    await provider.stop();
    const answer = await late.browser.request(late.url);
    expect(answer.status).toBe(502);
    // The answer names no internals (the reason, an address refusing connections, is logged).
    expect(((await answer.json()) as ApiError).message).toBe(
      'The sign-in provider could not be reached or gave an answer that could not be used; try again shortly',
    );
  });
});
