import { describe, expect, it } from 'vitest';
import pg from 'pg';
import WebSocket from 'ws';
import { parse as parseYaml } from 'yaml';
import { compareTokens, type FeedEnvelope, type AgentView, type ApiError, type CreatedApiTokenView, type InviteView } from '@pf/events';
import { ApiClient } from './testing/api-client';
import { openFeed, readFeedPage } from './testing/event-feed';
import { testSingleNode } from './testing/single-node';

/**
 * The event feed and API tokens on the real single node (docs/event-feed.md): real PostgreSQL, real HTTP
 * streaming, no stand-ins. Without automation, Seed Demo Data records agents and two conversations at once.
 */
describe('the event feed, read with API tokens', () => {
  const node = testSingleNode();

  const createToken = async (client: ApiClient, name: string, scopes = ['events:read']) => {
    const created = await client.post<CreatedApiTokenView>('/api/auth/tokens', { name, scopes });
    expect(created.status).toBe(201);
    return created.body;
  };
  const agentIdsOf = (events: readonly FeedEnvelope[]) =>
    new Set(events.filter((event) => event.type === 'AgentCreated').map((event) => (event.data as { agentId: number }).agentId));

  it("answers a firm's own events in order, resumable from any position, and none of another firm's", async () => {
    const { url } = node.server;
    const alice = await ApiClient.signIn(url);
    const bob = await ApiClient.signIn(url);
    expect((await alice.post('/api/seed-demo')).status).toBe(201);
    expect((await bob.post('/api/seed-demo')).status).toBe(201);
    const aliceToken = await createToken(alice, 'Funnel job');
    const bobToken = await createToken(bob, 'Bob job');
    const aliceAgents = new Set(((await alice.get('/api/agents')).body as { id: number }[]).map((agent) => agent.id));
    const bobAgents = new Set(((await bob.get('/api/agents')).body as { id: number }[]).map((agent) => agent.id));

    const page = await readFeedPage(url, aliceToken.token);
    expect(page.status).toBe(200);
    expect(agentIdsOf(page.events)).toEqual(aliceAgents);
    expect(page.events.some((event) => event.type === 'ConversationStarted')).toBe(true);
    expect(page.events.some((event) => event.type === 'MessageSent')).toBe(true);
    // Nothing of Bob's: none of his agents, and no stream of his conversations.
    const bobPage = await readFeedPage(url, bobToken.token);
    expect(agentIdsOf(bobPage.events)).toEqual(bobAgents);
    const aliceStreams = new Set(page.events.map((event) => event.stream));
    expect(bobPage.events.filter((event) => aliceStreams.has(event.stream))).toEqual([]);
    const bobOwner = (bobPage.events.find((event) => event.type === 'AgentCreated')!.data as { ownerId: string }).ownerId;
    expect(JSON.stringify(page.events)).not.toContain(bobOwner);

    // Every stored event of the firm's streams, counted in the database itself (a page reads on past short reads).
    const firmId = ((await alice.get('/api/auth/firm')).body as { id: string }).id;
    const db = new pg.Client({ connectionString: node.database.url });
    await db.connect();
    const stored = await db
      .query<{ n: string }>(
        'select count(*) as n from events e join rm_feed_streams s on s.stream = e.stream_name where $1 = any(s.firms)',
        [firmId],
      )
      .finally(() => db.end());
    expect(page.events).toHaveLength(Number(stored.rows[0]!.n));

    // The Kafka envelope, in global order, each stream in version order.
    expect(Object.keys(page.events[0]!).sort()).toEqual([
      'data',
      'id',
      'metadata',
      'position',
      'recordedAt',
      'stream',
      'streamVersion',
      'type',
    ]);
    for (let i = 1; i < page.events.length; i++)
      expect(compareTokens(page.events[i - 1]!.position, page.events[i]!.position)).toBeLessThan(0);
    const versions = new Map<string, number>();
    for (const event of page.events) {
      expect(event.streamVersion).toBe((versions.get(event.stream) ?? -1) + 1);
      versions.set(event.stream, event.streamVersion);
    }

    // Resumed after the fifth event: exactly the rest, nothing repeated or skipped.
    const resumed = await readFeedPage(url, aliceToken.token, `after=${page.events[4]!.position}`);
    expect(resumed.events.map((event) => event.id)).toEqual(page.events.slice(5).map((event) => event.id));
    // types and limit.
    const started = await readFeedPage(url, aliceToken.token, 'types=ConversationStarted,AgentPaused');
    expect(started.events.map((event) => event.type)).toEqual(
      page.events.filter((e) => e.type === 'ConversationStarted').map((e) => e.type),
    );
    expect((await readFeedPage(url, aliceToken.token, 'limit=3')).events.map((e) => e.id)).toEqual(
      page.events.slice(0, 3).map((e) => e.id),
    );
  });

  it('streams new events while the connection stays open, from the position asked', async () => {
    const { url } = node.server;
    const alice = await ApiClient.signIn(url);
    const { token } = await createToken(alice, 'Live job');
    const first = await alice.post<AgentView>('/api/agents', { name: 'Feed Lender One', type: 'lender' });
    expect(first.status).toBe(201);
    const page = await readFeedPage(url, token);
    const last = page.events[page.events.length - 1]!;
    expect(last.type).toBe('AgentCreated');

    const feed = await openFeed(url, token, `after=${last.position}`);
    expect(feed.response.headers.get('content-type')).toContain('application/x-ndjson');
    const second = await alice.post<AgentView>('/api/agents', { name: 'Feed Lender Two', type: 'lender' });
    const arrived = await feed.next((event) => event.type === 'AgentCreated');
    expect(arrived.data).toMatchObject({ agentId: second.body.id, name: 'Feed Lender Two' });
    expect((await alice.put(`/api/agents/${second.body.id}`, { isActive: false })).status).toBe(200);
    await feed.next((event) => event.type === 'AgentPaused');
    // From the position asked: not the first agent again.
    expect(feed.received.map((event) => event.type)).toEqual(['AgentCreated', 'AgentPaused']);
    await feed.close();
  });

  it('answers 400 naming the field for an unknown type or a bad position, and 401 to a session without a token', async () => {
    const { url } = node.server;
    const alice = await ApiClient.signIn(url);
    const { token } = await createToken(alice, 'Checked job');
    const unknown = await readFeedPage(url, token, 'types=AgentCreated,AgentExploded');
    expect(unknown.status).toBe(400);
    expect((JSON.parse(unknown.text) as ApiError).message).toContain('unknown event type AgentExploded');
    const badAfter = await readFeedPage(url, token, 'after=yesterday');
    expect(badAfter.status).toBe(400);
    expect((JSON.parse(badAfter.text) as ApiError).message).toMatch(/^after: /);
    expect((await alice.get('/api/events?follow=false')).status).toBe(401);
    expect((await readFeedPage(url, `pf_${'x'.repeat(43)}`)).status).toBe(401);
    const analyticsOnly = await createToken(alice, 'Analytics only', ['analytics:read']);
    const lacking = await readFeedPage(url, analyticsOnly.token);
    expect(lacking.status).toBe(403);
    expect((JSON.parse(lacking.text) as ApiError).message).toContain('events:read');
  });

  it('lets a token with analytics:read read the analytics a signed-in person reads, and nothing else', async () => {
    const { url } = node.server;
    const alice = await ApiClient.signIn(url);
    const analytics = await createToken(alice, 'Report job', ['analytics:read']);
    const eventsOnly = await createToken(alice, 'Feed job', ['events:read']);
    // Both reads name the same position (read your writes), so they see the same facts.
    expect((await alice.post('/api/agents', { name: 'Counted Lender', type: 'lender' })).status).toBe(201);
    const asToken = (path: string, token: string) =>
      fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}`, 'x-after-position': alice.lastPosition! } });
    for (const path of ['/api/analytics/report?period=last30', '/api/analytics/daily?days=7']) {
      const bySession = await alice.get<Record<string, unknown>>(path);
      expect(bySession.status, path).toBe(200);
      const read = await asToken(path, analytics.token);
      expect(read.status, path).toBe(200);
      // The same answer but for the report's end, which is the moment of each read.
      const withoutNow = (body: Record<string, unknown>) => ({ ...body, to: undefined });
      expect(withoutNow((await read.json()) as Record<string, unknown>), path).toEqual(withoutNow(bySession.body));
      const lacking = await asToken(path, eventsOnly.token);
      expect(lacking.status, path).toBe(403);
      expect(((await lacking.json()) as { message: string }).message).toContain('analytics:read');
    }
    expect((await asToken('/api/market?region=london&period=last12', analytics.token)).status).toBe(401);
  });

  it('refuses a revoked token at once, and ends a feed it had open', async () => {
    const { url } = node.server;
    const alice = await ApiClient.signIn(url);
    const created = await createToken(alice, 'Short-lived job');
    expect((await readFeedPage(url, created.token)).status).toBe(200);
    const listed = (await alice.get('/api/auth/tokens')).body as { id: string; name: string; lastUsedAt: string | null }[];
    expect(listed.find((token) => token.id === created.id)).toMatchObject({
      name: 'Short-lived job',
      lastUsedAt: expect.any(String) as unknown,
    });
    expect(JSON.stringify(listed)).not.toContain(created.token);

    const feed = await openFeed(url, created.token);
    expect((await alice.delete(`/api/auth/tokens/${created.id}`)).status).toBe(200);
    const refused = await readFeedPage(url, created.token);
    expect(refused.status).toBe(401);
    expect((JSON.parse(refused.text) as ApiError).message).toContain('revoked');
    // The open answer ends at the next batch, before it carries anything new.
    const after = await alice.post('/api/agents', { name: 'After Revocation', type: 'lender' });
    expect(after.status).toBe(201);
    await feed.ended;
    expect(feed.received.some((event) => (event.data as { name?: string }).name === 'After Revocation')).toBe(false);
    expect(((await alice.get('/api/auth/tokens')).body as { id: string }[]).map((token) => token.id)).not.toContain(created.id);
  });

  it('opens no write route, no console read and not the socket', async () => {
    const { url, routes } = node.server;
    const alice = await ApiClient.signIn(url);
    const { token } = await createToken(alice, 'Nosy job', ['events:read', 'analytics:read']);
    const writes = routes.filter((route) => !['GET', 'HEAD', 'OPTIONS'].includes(route.method));
    expect(writes.length).toBeGreaterThan(20);
    const answers: string[] = [];
    for (const route of writes) {
      const path = route.url.replace(/:(\w+)/g, (_match, name: string) => (name === 'id' ? '1' : 'x'));
      const response = await fetch(`${url}${path}`, {
        method: route.method,
        headers: { authorization: `Bearer ${token}`, origin: url, 'content-type': 'application/json' },
        body: '{}',
      });
      if (response.status !== 401 && response.status !== 403) answers.push(`${route.method} ${route.url}: ${response.status}`);
      else if (response.status === 401)
        expect(((await response.json()) as { message: string }).message).toBe('An API token only reads: changes need a signed-in person');
    }
    expect(answers).toEqual([]);
    for (const path of ['/api/agents', '/api/auth/user', '/api/auth/tokens', '/api/conversations', '/api/stats']) {
      expect((await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}` } })).status, path).toBe(401);
    }
    const socket = new WebSocket(`${url.replace('http', 'ws')}/ws`, { headers: { authorization: `Bearer ${token}`, origin: url } });
    const outcome = await new Promise<string>((resolve) => {
      socket.once('open', () => resolve('open'));
      socket.once('unexpected-response', (_request, response) => resolve(`refused ${response.statusCode}`));
      socket.once('error', () => resolve('error'));
    });
    socket.terminate();
    expect(outcome).toBe('refused 401');
  });

  it('serves the AsyncAPI document beside /docs, the same in JSON and YAML', async () => {
    const { url } = node.server;
    const json = await fetch(`${url}/docs/asyncapi.json`);
    expect(json.status).toBe(200);
    const yaml = await fetch(`${url}/docs/asyncapi.yaml`);
    expect(yaml.headers.get('content-type')).toContain('yaml');
    const document = (await json.json()) as { asyncapi: string; channels: Record<string, { address: string }> };
    expect(document.asyncapi).toBe('3.0.0');
    expect(document.channels.eventFeed!.address).toBe('/api/events');
    expect(parseYaml(await yaml.text())).toEqual(document);
  });
});

describe("the event feed within a firm: its admin's tokens, a member who leaves", () => {
  const node = testSingleNode();

  it("refuses token management to an operator, and empties a deleted member's personal data in the feed", async () => {
    const { url } = node.server;
    const admin = await ApiClient.signIn(url);
    const invite = await admin.post<InviteView>('/api/firm/invites', { role: 'operator' });
    expect(invite.status).toBe(201);
    const carol = await ApiClient.signIn(url);
    expect((await carol.post('/api/firm/join', { token: invite.body.token })).status).toBeLessThan(300);
    const refused = await carol.post<ApiError>('/api/auth/tokens', { name: 'Not mine to make', scopes: ['events:read'] });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain('Operator');
    expect((await carol.get('/api/auth/tokens')).status).toBe(403);

    const { token } = (await admin.post('/api/auth/tokens', { name: 'Firm job', scopes: ['events:read'] })).body as { token: string };
    const agent = await carol.post<AgentView>('/api/agents', {
      name: 'Carol Smith Borrower',
      type: 'borrower',
      description: 'Carol Smith, 12 Acacia Avenue',
    });
    expect(agent.status).toBe(201);
    const before = (await readFeedPage(url, token, 'types=AgentCreated')).events.find(
      (e) => (e.data as { agentId: number }).agentId === agent.body.id,
    )!;
    expect(before.data).toMatchObject({ name: 'Carol Smith Borrower', description: 'Carol Smith, 12 Acacia Avenue' });
    expect(before.redacted).toBeUndefined();

    expect((await carol.request('DELETE', '/api/auth/account', { confirm: 'DELETE' })).status).toBe(200);
    const all = await readFeedPage(url, token);
    const after = all.events.find((e) => e.id === before.id)!;
    expect(after.data).toMatchObject({ agentId: agent.body.id, type: 'borrower', name: '', description: '', criteria: null });
    // Only the fields that changed are named (it had no criteria to remove).
    expect(after.redacted).toEqual(['data.name', 'data.description', 'metadata.actor.sessionId']);
    expect(JSON.stringify(all.events)).not.toContain('Carol Smith');

    // From the moment the deletion was answered, not once the read model has seen it: with the read model's
    // record of the deletion taken away (as before it applies AccountDeleted), the feed still redacts.
    const db = new pg.Client({ connectionString: node.database.url });
    await db.connect();
    try {
      const carolId = (before.data as { ownerId: string }).ownerId;
      // The projector records the deletion shortly after the answer (under load, after the reads above).
      const recorded = async () => (await db.query('select 1 from rm_feed_deleted_people where user_id = $1', [carolId])).rowCount;
      await expect.poll(recorded, { timeout: 10_000 }).toBe(1);
      expect((await db.query('delete from rm_feed_deleted_people where user_id = $1', [carolId])).rowCount).toBe(1);
      const again = (await readFeedPage(url, token, 'types=AgentCreated')).events.find((e) => e.id === before.id)!;
      expect(again.data).toMatchObject({ name: '', description: '' });
      expect(again.redacted).toEqual(['data.name', 'data.description', 'metadata.actor.sessionId']);
    } finally {
      await db.end();
    }
  });
});
