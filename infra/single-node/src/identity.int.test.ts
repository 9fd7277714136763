import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '@pf/infra/testing';
import { randomUUID } from 'node:crypto';
import { PersonalDataVault, PostgresEventStore, createPool, verifyAllStreams } from '@pf/infra';
import { startSingleNode, type RunningServer } from './server';
import { ApiClient } from './testing/api-client';
import { PDF_BYTES, uploadDocument } from './testing/documents';
import { testServerEnv } from './testing/server-env';
import {
  streams,
  type AgentView,
  type ApiError,
  type CurrentUserView,
  type DealCreatedAnswer,
  type DocumentView,
  type NotificationPreferences,
  type PreferencesView,
  type ProfileView,
  type Sealed,
  type SessionView,
} from '@pf/events';

/** Signs in like a browser that keeps every cookie it is given (session and device identity). */
async function browserSignIn(baseUrl: string, deviceCookie?: string): Promise<{ client: ApiClient; device: string }> {
  const response = await fetch(`${baseUrl}/api/login`, { redirect: 'manual', headers: deviceCookie ? { cookie: deviceCookie } : {} });
  const cookies = response.headers.getSetCookie().map((cookie) => cookie.split(';')[0]!);
  const client = new ApiClient(baseUrl);
  client.cookie = cookies.find((c) => c.startsWith('pf_session='))!;
  const device = cookies.find((c) => c.startsWith('pf_device=')) ?? deviceCookie!;
  return { client, device };
}

const PROFILE = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada.lovelace@example.co.uk',
  phone: '+44 20 7946 0958',
  company: 'Analytical Engines Ltd',
  role: 'lender',
  address: '12 St James Square, London',
  bio: 'Lends on Georgian townhouses.',
  timezone: 'Europe/London',
  language: 'en',
};

describe('accounts that last, and Settings', () => {
  let database: TestDatabase;
  let server: RunningServer;
  let sql: pg.Pool;

  beforeAll(async () => {
    database = await createTestDatabase();
    server = await startSingleNode(testServerEnv(database.url));
    sql = createPool(database.url, 2);
  });
  afterAll(async () => {
    await sql?.end();
    await server?.close();
    await database?.drop();
  });

  it('brings a browser back to the same account, with its agents, after signing out and in again', async () => {
    const { client, device } = await browserSignIn(server.url);
    const me = (await client.get<CurrentUserView>('/api/auth/user')).body;
    expect((await client.post('/api/agents', { name: 'Harriet Cole', type: 'borrower' })).status).toBe(201);
    await fetch(`${server.url}/api/logout`, { method: 'POST', redirect: 'manual', headers: { cookie: client.cookie } });
    expect((await client.get('/api/auth/user')).status).toBe(401);

    const again = await browserSignIn(server.url, device);
    // A person signs in again seconds after signing out; this test does so within milliseconds, when the
    // projector may not have folded the agent yet. It reads its own write as the README says a client does:
    // with the position the command answered (x-after-position).
    again.client.lastPosition = client.lastPosition;
    expect((await again.client.get<CurrentUserView>('/api/auth/user')).body.id).toBe(me.id);
    expect((await again.client.get<AgentView[]>('/api/agents')).body.map((a) => a.name)).toEqual(['Harriet Cole']);
    // Another browser (no device cookie) is another account.
    const stranger = await browserSignIn(server.url);
    expect((await stranger.client.get<CurrentUserView>('/api/auth/user')).body.id).not.toBe(me.id);
  });

  // docs/decisions/hash-chain.md "Erasure": the profile is in events only as UserProfileChanged, sealed under the
  // person's own key (the current one, which the console reads, is the users row).
  it('validates the profile naming the field, stores it as a sealed event, and keeps it across a restart', async () => {
    const { client } = await browserSignIn(server.url);
    const bad = await client.put<ApiError>('/api/auth/profile', { ...PROFILE, email: 'not-an-email' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('Email must be an email address');
    expect((await client.put<ApiError>('/api/auth/profile', { ...PROFILE, timezone: 'Mars/Olympus' })).body.message).toContain(
      'Timezone must be',
    );

    const saved = await client.put('/api/auth/profile', PROFILE);
    expect(saved.status).toBe(200);
    const me = (await client.get<CurrentUserView>('/api/auth/user')).body;
    expect(me).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace', email: PROFILE.email });
    const stored = await sql.query<{ data: { profile: Sealed } }>(
      "select data from events where stream_name = $1 and type = 'UserProfileChanged'",
      [streams.user(me.id)],
    );
    expect(stored.rows).toHaveLength(1);
    expect(JSON.stringify(stored.rows[0]!.data)).not.toContain('Lovelace');
    expect(await new PersonalDataVault(sql).open(me.id, stored.rows[0]!.data.profile)).toMatchObject({
      lastName: 'Lovelace',
      phone: PROFILE.phone,
    });

    await server.close();
    server = await startSingleNode(testServerEnv(database.url));
    const restarted = Object.assign(new ApiClient(server.url), { cookie: client.cookie });
    expect((await restarted.get<ProfileView>('/api/auth/profile')).body).toEqual({ ...PROFILE });
    expect((await restarted.get<CurrentUserView>('/api/auth/user')).body.firstName).toBe('Ada');
  });

  it('records notification preferences as NotificationPreferencesChanged on user-{id}, and enforces the session timeout', async () => {
    const { client } = await browserSignIn(server.url);
    const me = (await client.get<CurrentUserView>('/api/auth/user')).body;
    const current = (await client.get<PreferencesView>('/api/auth/preferences')).body;
    expect(current.sessionTimeout).toBe(30);
    expect((await client.put<ApiError>('/api/auth/preferences', { ...current, sessionTimeout: 45 })).body.message).toBe(
      'sessionTimeout: sessionTimeout must be 15, 30, 60 or 120 minutes',
    );
    const preferences = { ...current.notifications, dealUpdates: false, marketInsights: false };
    expect((await client.put('/api/auth/preferences', { notifications: preferences, sessionTimeout: 15 })).status).toBe(200);
    const events = await sql.query<{ type: string; data: unknown }>(
      'select type, data from events where stream_name = $1 order by stream_version',
      [streams.user(me.id)],
    );
    expect(events.rows).toEqual([
      { type: 'NotificationPreferencesChanged', data: { userId: me.id, preferences } },
      { type: 'SessionTimeoutChanged', data: { userId: me.id, minutes: 15 } },
    ]);

    // Idle for 14 minutes: still signed in (and the use counts). Idle for 16: signed out, and purged.
    await sql.query("update sessions set last_seen_at = now() - interval '14 minutes' where user_id = $1", [me.id]);
    expect((await client.get('/api/auth/user')).status).toBe(200);
    await sql.query("update sessions set last_seen_at = now() - interval '16 minutes' where user_id = $1", [me.id]);
    await new Promise((resolve) => setTimeout(resolve, 2100)); // past SESSION_CACHE_MS, the trust of a just-confirmed session
    expect((await client.get('/api/auth/user')).status).toBe(401);
    const left = await sql.query<{ n: number }>('select count(*)::int as n from sessions where user_id = $1', [me.id]);
    expect(left.rows[0]!.n).toBe(1);
    // The purge (every ten minutes and at start) deletes it; a restart runs one.
    await server.close();
    server = await startSingleNode(testServerEnv(database.url));
    await expect
      .poll(async () => (await sql.query<{ n: number }>('select count(*)::int as n from sessions where user_id = $1', [me.id])).rows[0]!.n)
      .toBe(0);
  });

  it('keeps one record of notification preferences, whichever screen saves them; unconnected channels stay off', async () => {
    const { client } = await browserSignIn(server.url);
    const me = (await client.get<CurrentUserView>('/api/auth/user')).body;
    const current = (await client.get<PreferencesView>('/api/auth/preferences')).body;
    // Notifications → Settings saves the kinds: Settings → Preferences reads them back, the timeout untouched.
    const fromNotifications = { ...current.notifications, agentMatches: false };
    expect((await client.put('/api/notifications/preferences', fromNotifications)).status).toBe(200);
    expect((await client.get<PreferencesView>('/api/auth/preferences')).body).toEqual({
      notifications: fromNotifications,
      sessionTimeout: current.sessionTimeout,
    });
    // Settings → Preferences saves: the Notifications screen reads the same.
    const fromSettings = { ...fromNotifications, agentMatches: true, messageAlerts: false };
    expect((await client.put('/api/auth/preferences', { notifications: fromSettings, sessionTimeout: 60 })).status).toBe(200);
    expect((await client.get<NotificationPreferences>('/api/notifications/preferences')).body).toEqual(fromSettings);
    const recorded = await sql.query<{ type: string; data: { preferences: NotificationPreferences } }>(
      "select type, data from events where stream_name = $1 and type = 'NotificationPreferencesChanged' order by stream_version",
      [streams.user(me.id)],
    );
    expect(recorded.rows.map((r) => r.data.preferences)).toEqual([fromNotifications, fromSettings]);

    // Nothing here sends email or SMS: those cannot be switched on (400 naming the field), and nothing is stored.
    const digest = await client.put<ApiError>('/api/auth/preferences', {
      notifications: { ...fromSettings, weeklyDigest: true },
      sessionTimeout: 60,
    });
    expect(digest.status).toBe(400);
    expect(digest.body.message).toBe(
      'notifications.weeklyDigest: The weekly digest is not connected to email, so it cannot be switched on',
    );
    expect((await client.put<ApiError>('/api/notifications/preferences', { ...fromSettings, smsNotifications: true })).body.message).toBe(
      'smsNotifications: SMS notifications are not connected to SMS, so they cannot be switched on',
    );
    expect((await client.get<PreferencesView>('/api/auth/preferences')).body.notifications).toEqual(fromSettings);
  });

  it('lists sessions with their device, and refuses a revoked one at once', async () => {
    const laptop = await browserSignIn(server.url);
    const device = laptop.device;
    const phone = await browserSignIn(server.url, device);
    const sessions = (await laptop.client.get<SessionView[]>('/api/auth/sessions')).body;
    expect(sessions).toHaveLength(2);
    expect(sessions.filter((s) => s.isCurrent)).toHaveLength(1);
    expect(sessions[0]!.device).toBe('node'); // what Node's fetch sends as its User-Agent
    const other = sessions.find((s) => !s.isCurrent)!;
    expect((await phone.client.get('/api/auth/user')).status).toBe(200);
    expect((await laptop.client.delete(`/api/auth/sessions/${other.id}`)).status).toBe(200);
    expect((await phone.client.get('/api/auth/user')).status).toBe(401);
    expect((await laptop.client.delete<ApiError>('/api/auth/sessions/not-a-uuid')).body.message).toBe('id: Session id must be a UUID');
  });

  it('deletes an account: no personal data readable in the events table, gone from the read models', async () => {
    const { client } = await browserSignIn(server.url);
    const me = (await client.get<CurrentUserView>('/api/auth/user')).body;
    const grace = {
      ...PROFILE,
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'grace.hopper@example.co.uk',
      phone: '+44 117 496 0123',
      address: '3 Admiralty Walk, Bristol',
    };
    // Sent with an Idempotency-Key, so its answer (the profile) is kept for retries: it must go too.
    expect((await client.request('PUT', '/api/auth/profile', grace, { 'idempotency-key': 'profile-1' })).status).toBe(200);
    await client.post('/api/seed-demo');
    const agents = (await client.get<AgentView[]>('/api/agents')).body;
    const borrower = agents.find((a) => a.type === 'borrower')!;
    const lender = agents.find((a) => a.type === 'lender')!;
    const deal = await client.post<DealCreatedAnswer>('/api/deals', {
      propertyAddress: '7 Harbour Row, Bristol',
      borrowerAgentId: borrower.id,
      lenderAgentId: lender.id,
      propertyValue: 300_000,
      loanAmount: 240_000,
      interestRate: 4.5,
      termYears: 25,
    });
    expect(deal.status).toBe(201);
    const uploaded = await uploadDocument(
      client,
      { dealId: deal.body.id, type: 'valuation', name: 'Valuation.pdf' },
      { name: 'valuation.pdf', bytes: PDF_BYTES },
    );
    expect(uploaded.status).toBe(201);
    // While the account exists the document names its uploader (from the account, not from the event).
    expect((await client.get<DocumentView[]>('/api/documents')).body.map((d) => d.uploadedBy)).toEqual(['Grace Hopper']);

    // Created just before: the agents read model may not list it yet when the deletion starts.
    expect((await client.post('/api/agents', { name: 'Last-minute lender', type: 'lender' })).status).toBe(201);
    expect((await client.request<ApiError>('DELETE', '/api/auth/account', { confirm: 'yes' })).body.message).toBe(
      'confirm: Type DELETE to confirm',
    );
    const deleted = await client.request('DELETE', '/api/auth/account', { confirm: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect((await client.get('/api/auth/user')).status).toBe(401);
    expect((await client.get('/api/auth/profile')).status).toBe(401);

    const everything = (
      await sql.query<{ type: string; data: string; metadata: string }>(
        'select type, data::text as data, metadata::text as metadata from events',
      )
    ).rows;
    expect(everything.some((row) => row.type === 'DocumentUploaded')).toBe(true);
    const personal = ['Grace', 'Hopper', grace.email, grace.phone, grace.address];
    for (const text of personal) {
      expect(everything.filter((row) => row.data.includes(text) || row.metadata.includes(text))).toEqual([]);
    }
    // docs/decisions/hash-chain.md "Erasure": Delete Account deletes the key, so the sealed profile is unreadable, the
    // store included, and the users row with the profile in the clear is gone.
    const sealed = await sql.query<{ data: { profile: Sealed } }>(
      "select data from events where stream_name = $1 and type = 'UserProfileChanged'",
      [streams.user(me.id)],
    );
    expect(sealed.rows).toHaveLength(1);
    expect(await new PersonalDataVault(sql).open(me.id, sealed.rows[0]!.data.profile)).toBeNull();
    expect((await sql.query<{ n: number }>('select count(*)::int as n from users where id = $1', [me.id])).rows[0]!.n).toBe(0);
    expect((await sql.query<{ n: number }>('select count(*)::int as n from user_keys where user_id = $1', [me.id])).rows[0]!.n).toBe(0);
    // Every agent they had was deleted on its own stream, the automation's cue to let it go.
    const agentsLeft = await sql.query<{ id: string }>(
      `select c.data->>'agentId' as id from events c where c.type = 'AgentCreated' and c.data->>'ownerId' = $1
         and not exists (select 1 from events d where d.type = 'AgentDeleted' and d.stream_name = c.stream_name)`,
      [me.id],
    );
    expect(agentsLeft.rows).toEqual([]);

    // Every read model lets the user go, once the projector has passed AccountDeleted.
    const owned = async () => {
      const rows = await sql.query<{ model: string; n: number }>(
        // Their agents stay in rm_agents as "Deleted agent" with nothing of theirs, as matches and deals name their firms
        // (docs/decisions/hash-chain.md "Erasure"); none keeps a name, description or criteria, or acts.
        `select 'agents' as model, count(*)::int as n from rm_agents where owner_id = $1
           and (not is_deleted or is_active or name <> 'Deleted agent' or description <> '' or criteria is not null)
         union all select 'deals', count(*)::int from rm_deal_board where owners @> array[$1]::text[]
         union all select 'documents', count(*)::int from rm_document_board where owners @> array[$1]::text[]
         union all select 'matches', count(*)::int from rm_match_board where owners @> array[$1]::text[]
         union all select 'leads', count(*)::int from rm_lead_board where owners @> array[$1]::text[]
         union all select 'notifications', count(*)::int from rm_notifications where firm_id = $1`,
        [me.id],
      );
      return Object.fromEntries(rows.rows.map((r) => [r.model, r.n]));
    };
    await expect.poll(owned, { timeout: 10_000 }).toEqual({ agents: 0, deals: 0, documents: 0, matches: 0, leads: 0, notifications: 0 });
    // The analytics consumer's own agent table keeps their agents for the figures, as "Deleted agent", without
    // their names or criteria (account-deleted.ts); their criteria history goes.
    const analytics = async () =>
      (
        await sql.query<{ kept: number; named: number; criteria: number }>(
          `select count(*)::int as kept, count(*) filter (where name <> 'Deleted agent' or criteria is not null)::int as named,
             (select count(*)::int from rm_an_criteria where agent_id in (select agent_id from rm_an_agents where owner_id = $1)) as criteria
           from rm_an_agents where owner_id = $1`,
          [me.id],
        )
      ).rows[0];
    await expect.poll(analytics, { timeout: 10_000 }).toEqual({ kept: agents.length + 1, named: 0, criteria: 0 });
    // And no table at all (events, read models, idempotency answers, sessions) holds their personal data.
    const tables = await sql.query<{ name: string }>(
      "select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'",
    );
    for (const { name } of tables.rows) {
      const dump = (await sql.query<{ row: string }>(`select t::text as row from "${name}" t`)).rows.map((r) => r.row);
      for (const text of personal) expect(dump.filter((row) => row.includes(text)).map(() => `${name} holds ${text}`)).toEqual([]);
    }

    // The events themselves are untouched: every stream's hash chain still verifies (the history stays auditable).
    const store = new PostgresEventStore(sql, database.url);
    try {
      const broken = (await verifyAllStreams(store)).filter((stream) => !stream.intact);
      expect(broken).toEqual([]);
    } finally {
      await store.close();
    }

    // A retry after the deletion (the answer was lost, say) finds no session: nothing half-done is left to finish.
    expect((await client.request('DELETE', '/api/auth/account', { confirm: 'DELETE' })).status).toBe(401);
  });

  it('finishes a Delete Account that stopped part-way when it is asked again, recording AccountDeleted once', async () => {
    const { client } = await browserSignIn(server.url);
    const me = (await client.get<CurrentUserView>('/api/auth/user')).body;
    await client.put('/api/auth/profile', { ...PROFILE, firstName: 'Alan', lastName: 'Turing', email: 'alan.turing@example.co.uk' });
    // As if the first attempt stopped after its key went and AccountDeleted was recorded, before the row went.
    await new PersonalDataVault(sql).shred(me.id);
    const store = new PostgresEventStore(sql, database.url);
    const metadata = { actor: { kind: 'user' as const, userId: me.id }, correlationId: randomUUID(), causationId: null };
    await store.append(streams.user(me.id), [{ id: randomUUID(), type: 'AccountDeleted', data: { userId: me.id }, metadata }], 'any');
    await store.close();
    await server.close();
    server = await startSingleNode(testServerEnv(database.url));
    const again = Object.assign(new ApiClient(server.url), { cookie: client.cookie });
    expect((await again.request('DELETE', '/api/auth/account', { confirm: 'DELETE' })).status).toBe(200);
    const recorded = await sql.query<{ n: number }>(
      "select count(*)::int as n from events where stream_name = $1 and type = 'AccountDeleted'",
      [streams.user(me.id)],
    );
    expect(recorded.rows[0]!.n).toBe(1);
    expect((await sql.query<{ n: number }>('select count(*)::int as n from users where id = $1', [me.id])).rows[0]!.n).toBe(0);
  });
});
