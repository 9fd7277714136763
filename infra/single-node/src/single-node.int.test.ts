import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '@pf/infra/testing';
import { PostgresEventStore, readingTheContract, createPool } from '@pf/infra';
import { rebuildReadModels } from '@pf/query-service';
import { startSingleNode, type RunningServer } from './server';
import { ApiClient } from './testing/api-client';
import { PNG_BYTES, uploadDocument } from './testing/documents';
import { testServerEnv } from './testing/server-env';
import { rebuiltRows } from './testing/rebuilt-rows';
import { compareTokens } from '@pf/events';
import type { AgentView, ApiError, ConversationView, DailyAnalyticsView, DealCreatedAnswer, MessageView, StatsView } from '@pf/events';

const serverEnv = (databaseUrl: string) => testServerEnv(databaseUrl, { READ_WAIT_TIMEOUT_MS: '1000' });

async function snapshotReadModels(url: string): Promise<Record<string, unknown[]>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await rebuiltRows(client);
  } finally {
    await client.end();
  }
}

describe('single node: commands become events, projections serve the reads', () => {
  let database: TestDatabase;
  let server: RunningServer;
  let alice: ApiClient;

  beforeAll(async () => {
    database = await createTestDatabase();
    server = await startSingleNode(serverEnv(database.url));
    alice = await ApiClient.signIn(server.url);
  });
  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  it('signs a browser in without registration, keeps a valid session, and signs it out', async () => {
    expect((await alice.get('/api/auth/user')).body).toMatchObject({ firstName: 'Guest', lastName: 'Operator' });
    const again = await fetch(`${server.url}/api/login`, { redirect: 'manual', headers: { cookie: alice.cookie } });
    expect(again.status).toBe(302);
    expect(again.headers.get('location')).toBe('/auth');
    expect(again.headers.get('set-cookie')).toBeNull();
    const bob = await ApiClient.signIn(server.url);
    const out = await fetch(`${server.url}/api/logout`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: bob.cookie, origin: server.url },
    });
    expect(out.headers.get('location')).toBe('/');
    expect((await bob.get('/api/auth/user')).status).toBe(401);
    expect((await new ApiClient(server.url).get('/api/auth/user')).body).toEqual({ message: 'Unauthorized' });
  });

  it('creates an agent with its validation rules, lists it at once, pauses, resumes and deletes it, and the stats follow', async () => {
    const bad = await alice.post<ApiError>('/api/agents', { name: '  ', type: 'banker' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('Agent name is required');
    expect(bad.body.message).toContain('Please select an agent type');

    const created = await alice.post<AgentView>('/api/agents', {
      name: 'Amelia Hart',
      type: 'borrower',
      criteria: { propertyValueMin: '£250,000', loanTermMax: '   ' },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('x-position')).toMatch(/^\d+:\d+$/);
    const id = created.body.id;
    const listed = await alice.get('/api/agents');
    expect(listed.body).toEqual([
      expect.objectContaining({
        id,
        name: 'Amelia Hart',
        description: '',
        criteria: { propertyValueMin: '£250,000' },
        isActive: true,
      }) as unknown,
    ]);
    expect((await alice.get('/api/stats')).body).toMatchObject({ activeAgents: 1 });

    await alice.put(`/api/agents/${id}`, { isActive: false });
    expect((await alice.get<AgentView[]>('/api/agents')).body[0]!.isActive).toBe(false);
    expect((await alice.get<StatsView>('/api/stats')).body.activeAgents).toBe(0);
    await alice.put(`/api/agents/${id}`, { isActive: true, description: 'First-time buyer', strategy: 'linear' });
    expect((await alice.get<AgentView[]>('/api/agents')).body[0]!).toMatchObject({
      isActive: true,
      description: 'First-time buyer',
      strategy: 'linear',
    });
    expect((await alice.put<ApiError>(`/api/agents/${id}`, { strategy: 'stubborn' })).body.message).toContain('strategy');

    expect((await alice.delete(`/api/agents/${id}`)).status).toBe(200);
    expect((await alice.get('/api/agents')).body).toEqual([]);
    expect((await alice.get<StatsView>('/api/stats')).body.activeAgents).toBe(0);
  });

  // docs/architecture.md "A command": bad input is a 400 that names the field and the rule, before anything is read.
  it('answers bad input with a message that names the problem, and writes nothing', async () => {
    const raw = (body: string, contentType = 'application/json') =>
      fetch(`${server.url}/api/agents`, { method: 'POST', headers: { cookie: alice.cookie, 'content-type': contentType }, body });
    const malformed = await raw('{"name":');
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({ message: 'The request body is not valid JSON' });
    const tooBig = await raw(JSON.stringify({ name: 'x'.repeat(70_000), type: 'lender' }));
    expect(tooBig.status).toBe(413);
    expect((await raw(JSON.stringify({ name: 7, type: 'lender' }))).status).toBe(400);
    expect((await alice.put<ApiError>('/api/agents/abc', { isActive: true })).body.message).toContain(
      'Agent id must be a positive whole number',
    );
    expect((await alice.put('/api/agents/1', {})).status).toBe(400);
    expect((await alice.get('/api/conversations/1.5')).status).toBe(400);
    expect((await alice.get('/api/agents')).body).toEqual([]);
  });

  it("hides one user's agents and conversations from another: 404", async () => {
    const seeded = await alice.post('/api/seed-demo');
    expect(seeded.status).toBe(201);
    const conversations = (await alice.get<ConversationView[]>('/api/conversations')).body;
    expect(conversations.length).toBeGreaterThanOrEqual(2);
    const agentId = (await alice.get<AgentView[]>('/api/agents')).body[0]!.id;
    const conversationId = conversations[0]!.id;

    const mallory = await ApiClient.signIn(server.url);
    expect((await mallory.put(`/api/agents/${agentId}`, { isActive: false })).status).toBe(404);
    expect((await mallory.delete(`/api/agents/${agentId}`)).status).toBe(404);
    expect((await mallory.get(`/api/conversations/${conversationId}`)).status).toBe(404);
    expect((await mallory.get(`/api/conversations/${conversationId}/messages`)).status).toBe(404);
    expect((await mallory.patch(`/api/conversations/${conversationId}`, { isManualMode: true })).status).toBe(404);
    expect((await mallory.post(`/api/conversations/${conversationId}/messages`, { content: 'hello' })).status).toBe(404);
    expect((await mallory.get('/api/conversations')).body).toEqual([]);
    expect((await alice.get<AgentView[]>('/api/agents')).body[0]!.isActive).toBe(true);
  });

  it('serves seeded conversations with their messages, real senders, and a person speaking in manual mode', async () => {
    const conversations = (await alice.get<ConversationView[]>('/api/conversations')).body;
    const amelia = conversations.find((c) => c.title.startsWith('Amelia Hart'))!;
    const messages = (await alice.get<MessageView[]>(`/api/conversations/${amelia.id}/messages`)).body;
    expect(messages.length).toBe(3);
    expect(messages[1]).toMatchObject({ fromAgentName: 'Northgate Building Society', fromAgentType: 'lender', isAutomated: true });

    const automatic = await alice.post<ApiError>(`/api/conversations/${amelia.id}/messages`, { content: 'hello' });
    expect(automatic.status).toBe(400);
    expect(automatic.body.message).toBe('Switch to Manual Mode first to send messages');
    await alice.patch(`/api/conversations/${amelia.id}`, { isManualMode: true });
    expect((await alice.get<ConversationView>(`/api/conversations/${amelia.id}`)).body.isManualMode).toBe(true);
    const lender = amelia.participants.find((p) => p.type === 'lender')!;
    const sent = await alice.post(`/api/conversations/${amelia.id}/messages`, {
      content: '  We can do 4.1%  ',
      fromAgentId: lender.agentId,
    });
    expect(sent.status).toBe(201);
    const thread = (await alice.get<MessageView[]>(`/api/conversations/${amelia.id}/messages`)).body;
    expect(thread.at(-2)).toMatchObject({ content: 'We can do 4.1%', isAutomated: false, fromAgentId: lender.agentId });
    // Read as the lender's offer where it was recorded: the note under that side says so (its other figures completed).
    expect(thread.at(-1)?.content).toMatch(/^Read as an offer: £[\d,]+ at 4\.10% over \d+ years, £[\d,]+ fee$/);
    expect(thread.at(-1)).toMatchObject({ isAutomated: true, fromAgentId: lender.agentId });
    expect((await alice.post(`/api/conversations/${amelia.id}/messages`, { content: 'x'.repeat(4001) })).status).toBe(400);
  });

  it('counts events per type per day for analytics, fed from the event stream', async () => {
    const today = new Date().toISOString().slice(0, 10);
    await expect
      .poll(async () => (await alice.get<DailyAnalyticsView>('/api/analytics/daily?days=7')).body.events, { timeout: 10_000 })
      .toEqual(expect.arrayContaining([{ day: today, type: 'MessageSent', count: expect.any(Number) as unknown }]) as unknown);
    const { body } = await alice.get<DailyAnalyticsView>('/api/analytics/daily?days=7');
    const created = body.events.find((row) => row.type === 'AgentCreated');
    expect(created!.count).toBeGreaterThanOrEqual(7);
    expect((await alice.get('/api/analytics/daily?days=0')).status).toBe(400);
  });

  it('answers 503 naming the position when the read models cannot reach it in time', async () => {
    // An older transaction still open holds every follower of the stream before it (gap-safe reading),
    // so a write committed after it cannot reach the read models until it ends.
    const blocker = new pg.Client({ connectionString: database.url });
    await blocker.connect();
    await blocker.query('begin');
    await blocker.query('select pg_current_xact_id()');
    try {
      const created = await alice.post('/api/agents', { name: 'Behind A Long Transaction', type: 'lender' });
      const position = created.headers.get('x-position')!;
      const response = await fetch(`${server.url}/api/agents`, { headers: { cookie: alice.cookie, 'x-after-position': position } });
      expect(response.status).toBe(503);
      expect(((await response.json()) as ApiError).message).toContain(position);
    } finally {
      await blocker.query('rollback');
      await blocker.end();
    }
    // A position no event ever had is the client's mistake, not a wait: 400 naming it.
    const invented = await fetch(`${server.url}/api/agents`, { headers: { cookie: alice.cookie, 'x-after-position': '99999999999:1' } });
    expect(invented.status).toBe(400);
    expect(((await invented.json()) as ApiError).message).toBe(
      'x-after-position: no event was written at "99999999999:1"; send a position this server gave you',
    );
    const malformed = await fetch(`${server.url}/api/agents`, { headers: { cookie: alice.cookie, 'x-after-position': 'soon' } });
    expect(malformed.status).toBe(400);
  });

  // docs/architecture.md "A read": a read that names the position its write answered waits until the read models
  // have passed it, and the answer says which position it reflects (here: at least the write's).
  it('says which position a read reflects, at least that of the write it waited for', async () => {
    const created = await alice.post('/api/agents', { name: 'Positioned Read', type: 'lender' });
    const written = created.headers.get('x-position')!;
    const read = await fetch(`${server.url}/api/agents`, { headers: { cookie: alice.cookie, 'x-after-position': written } });
    expect(read.status).toBe(200);
    const reflected = read.headers.get('x-position');
    expect(reflected).toMatch(/^\d+:\d+$/);
    expect(compareTokens(reflected!, written)).toBeGreaterThanOrEqual(0);
    expect(((await read.json()) as AgentView[]).map((agent) => agent.name)).toContain('Positioned Read');
  });

  it('rebuilds the read models from the events into the same rows', async () => {
    // A deal with a changed stage and a downloaded document, so the deal and document boards have rows too.
    const borrower = (await alice.post<AgentView>('/api/agents', { name: 'Rebuild Borrower', type: 'borrower' })).body;
    const lender = (await alice.post<AgentView>('/api/agents', { name: 'Rebuild Lender', type: 'lender' })).body;
    const deal = await alice.post<DealCreatedAnswer>('/api/deals', {
      propertyAddress: '9 Quay Street, Exeter EX2 4AN',
      borrowerAgentId: borrower.id,
      lenderAgentId: lender.id,
      propertyValue: 250000,
      loanAmount: 200000,
      interestRate: 4.5,
      termYears: 25,
    });
    await alice.patch(`/api/deals/${deal.body.id}`, { stage: 'valuation' });
    const document = await uploadDocument(alice, { dealId: deal.body.id, type: 'valuation' }, { name: 'survey.png', bytes: PNG_BYTES });
    await alice.post(`/api/documents/${document.body.id}/downloads`);
    await alice.get('/api/stats');
    // The analytics facts and the daily counts have consumers of their own, which take a busy log in batches:
    // reads naming the last position wait until both have applied it, so the snapshot is of a settled state.
    expect((await alice.get('/api/analytics/report')).status).toBe(200);
    expect((await alice.get('/api/analytics/daily')).status).toBe(200);
    const before = await snapshotReadModels(database.url);
    expect(before.rm_messages!.length).toBeGreaterThan(0);
    expect(before.rm_deal_board!.length).toBe(1);
    expect(before.rm_document_board!.length).toBe(1);
    const pool = createPool(database.url);
    const store = readingTheContract(new PostgresEventStore(pool, database.url));
    const applied = await rebuildReadModels(pool, store);
    await store.close();
    await pool.end();
    expect(applied).toBeGreaterThan(20);
    expect(await snapshotReadModels(database.url)).toEqual(before);
  });

  it('keeps everything across a restart', async () => {
    const before = (await alice.get<ConversationView[]>('/api/conversations')).body;
    await server.close();
    server = await startSingleNode(serverEnv(database.url));
    const again = new ApiClient(server.url);
    again.cookie = alice.cookie;
    expect((await again.get('/api/auth/user')).status).toBe(200);
    expect((await again.get('/api/conversations')).body).toEqual(before);
  });
});

describe('single node with the embedded database', () => {
  it('keeps its data under DATA_DIR across a restart', async () => {
    const { mkdtemp, chmod, rm } = await import('node:fs/promises');
    const dir = await mkdtemp('/tmp/pf-embedded-');
    await chmod(dir, 0o755);
    const env = { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', AUTOMATION: 'off', DATA_DIR: dir, DATABASE_URL: undefined };
    let server = await startSingleNode(env);
    const client = await ApiClient.signIn(server.url);
    await client.post('/api/agents', { name: 'Pennine Mutual', type: 'lender' });
    await server.close();
    server = await startSingleNode(env);
    client.lastPosition = null;
    const fresh = new ApiClient(server.url);
    fresh.cookie = client.cookie;
    await expect.poll(async () => (await fresh.get<AgentView[]>('/api/agents')).body.map((a) => a.name)).toEqual(['Pennine Mutual']);
    await server.close();
    await rm(dir, { recursive: true, force: true });
    // Its backups, beside the data directory (docs/operations/backups.md "Where").
    await rm(`${dir}-backups`, { recursive: true, force: true });
  }, 60_000);
});
