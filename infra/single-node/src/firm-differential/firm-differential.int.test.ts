import pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  comparePositions,
  parsePosition,
  type AgentView,
  type ConversationView,
  type CreatedApiTokenView,
  type DealView,
  type DocumentView,
} from '@pf/events';
import { createTestDatabase, type TestDatabase } from '@pf/infra/testing';
import { startSingleNode, type RunningServer } from '../server';
import { followersSettled } from '../testing/settled';
import { testServerEnv } from '../testing/server-env';
import { differences, type Capture } from './compare';
import { agreeInStore, createAgents, dealByHand, headPosition, negotiateByHand, openFirm, openSocket, readNotifications } from './scenario';

/**
 * Firms apart (docs/decisions/firms-and-visibility.md): whatever firm A does, firm B reads the same. Two single
 * nodes, each on a fresh database, run the same script for firm B; on one of them firm A acts heavily between
 * B's steps (demo data, agents made, edited, paused and deleted, conversations taken over with messages and
 * offers, deals agreed and entered by hand, documents, deals completed, notifications read, a colleague, an API
 * token). Then B reads every GET route the node registered (enumerated from the node itself, so a route added
 * later is read too), with its parameters filled from B's own records, and B's API token reads the event feed and
 * the analytics; B's socket keeps every push from its first step. The two runs' answers and pushes must be equal
 * once times, positions and generated ids are normalised (compare.ts); everything else (names, amounts, counts,
 * texts, the order of lists, status codes and versions) is compared as it is.
 *
 * What B may legitimately see of A (a conversation between their agents: the market) is excluded by
 * construction: the automation is off (no matcher), demo data meets only its own firm's, and A's conversations,
 * deals and documents are all between A's own agents (scenario.ts).
 */

/**
 * GET routes of the API not read here, each for its reason: signing in and out change the session rather than
 * read; the event feed needs a token (read below with B's).
 */
const NOT_READS = [/^\/api\/login/, /^\/api\/logout$/, /^\/api\/auth\/oidc/, /^\/api\/events$/];
/** Only the API and the health checks: the socket is read as pushes; /docs and the console's files are everyone's. */
const READ_ROOTS = /^\/(api\/|healthz$|readyz$)/;

interface Run {
  readonly capture: Capture;
  readonly routes: string[];
}

async function run(firmAActs: boolean): Promise<Run> {
  const database: TestDatabase = await createTestDatabase();
  const server: RunningServer = await startSingleNode(testServerEnv(database.url, { AUTOMATION: 'off' }));
  const pool = new pg.Pool({ connectionString: database.url, max: 2 });
  try {
    const url = server.url;
    const b = await openFirm(url, 'Bea', 'Brown', 'Brown Lending');
    // B's socket keeps what is pushed from here on: the gateway has passed B's signing up first, in both runs (it
    // follows the store below any transaction still open on the server, another test's included).
    await followersSettled(server, pool);
    const socket = await openSocket(url, b);
    const a = firmAActs ? await openFirm(url, 'Ada', 'Archer', 'Archer Mortgages') : null;
    if (a) await createAgents(a);
    await createAgents(b);
    if (a) {
      await negotiateByHand(a, 'We can do 4.2% over 25 years');
      await dealByHand(a, '3 Quay Street, Bristol', 0);
      await agreeInStore(server, a);
      const invite = await a.post<{ token: string }>('/api/firm/invites', { role: 'auditor' });
      const colleague = await openFirm(url, 'Cal', 'Archer', 'Cal’s firm');
      expect((await colleague.post('/api/firm/join', { token: invite.body.token })).status).toBe(200);
      await readNotifications(colleague);
      expect((await colleague.post('/api/notifications/read-all')).status).toBe(200);
      expect((await a.post('/api/auth/tokens', { name: 'A job', scopes: ['events:read', 'analytics:read'] })).status).toBe(201);
    }
    await negotiateByHand(b, 'Could you do 4.3%?');
    await dealByHand(b, '9 Mill Lane, Leeds', 0);
    if (a) {
      await negotiateByHand(a, 'Final offer: 4.25%');
      await dealByHand(a, '21 Harbour Row, Bristol', 2);
      await readNotifications(a);
    }
    await readNotifications(b, '9 Mill Lane, Leeds');
    const token = await b.post<CreatedApiTokenView>('/api/auth/tokens', { name: 'B job', scopes: ['events:read', 'analytics:read'] });
    expect(token.status).toBe(201);

    // Every read waits until every follower has passed the last event anyone wrote: the node settled, then the store's
    // head, or a position a write answered if later (the head stops below a transaction still open on the server,
    // which may be another test's, in another database).
    await followersSettled(server, pool);
    b.lastPosition = [a?.lastPosition, b.lastPosition]
      .filter((token): token is string => typeof token === 'string')
      .reduce(
        (latest, token) => (comparePositions(parsePosition(token), parsePosition(latest)) > 0 ? token : latest),
        await headPosition(server),
      );
    const answers: Capture['answers'] = new Map();
    const read = async (label: string, path: string, headers: Record<string, string> = {}) => {
      const response = await fetch(`${url}${path}`, {
        headers: { cookie: b.cookie, origin: url, 'x-after-position': b.lastPosition!, ...headers },
      });
      const text = await response.text();
      const type = response.headers.get('content-type') ?? '';
      // The event feed answers a line of JSON per event (docs/event-feed.md).
      const body = type.includes('ndjson')
        ? text
            .split('\n')
            .filter((line) => line.trim() !== '')
            .map((line) => JSON.parse(line) as unknown)
        : type.includes('json') && text
          ? (JSON.parse(text) as unknown)
          : text;
      answers.set(label, { status: response.status, etag: response.headers.get('etag'), body });
    };
    const own = {
      agents: (await b.get<AgentView[]>('/api/agents')).body.map((x) => x.id),
      conversations: (await b.get<ConversationView[]>('/api/conversations')).body.map((x) => x.id),
      deals: (await b.get<DealView[]>('/api/deals')).body.map((x) => x.id),
      documents: (await b.get<DocumentView[]>('/api/documents')).body.map((x) => x.id),
    };
    const routes = server.routes
      .filter((route) => route.method === 'GET' && READ_ROOTS.test(route.url) && !NOT_READS.some((pattern) => pattern.test(route.url)))
      .map((route) => route.url);
    for (const route of routes) {
      const kind = (['agents', 'conversations', 'deals', 'documents'] as const).find((k) => route.startsWith(`/api/${k}/:id`));
      if (!route.includes(':')) await read(route, route);
      else if (kind) {
        // Each of B's records by its place in B's list (the same label in both runs), the rest of the path as declared.
        for (const [index, id] of own[kind].entries()) {
          await read(`${route} [B's ${kind} ${index + 1}]`, route.replace(':id', String(id)).replace(/:(\w+)/g, 'none'));
        }
      } else await read(`${route} [none]`, route.replace(/:(\w+)/g, 'none'));
    }
    // B's job, with its token: the feed of B's events, and the analytics a signed-in person of B reads.
    const bearer = { authorization: `Bearer ${token.body.token}`, cookie: '' };
    await read('token GET /api/events', '/api/events?follow=false', bearer);
    await read('token GET /api/analytics/report', '/api/analytics/report?period=last30', bearer);
    await read('token GET /api/analytics/daily', '/api/analytics/daily?days=30', bearer);
    await socket.close();
    return { capture: { answers, pushes: socket.received }, routes };
  } finally {
    await pool.end();
    await server.close();
    await database.drop();
  }
}

describe("firm B's answers are the same whether or not firm A acts", () => {
  let busy: Run;
  let quiet: Run;

  // The runs are inside a test (vitest's expect.poll, which the script waits with, works only there); the tests
  // after it read what they captured.
  it('reads every GET route the node registered, and B has records for each kind of route', async () => {
    busy = await run(true);
    quiet = await run(false);
    expect(busy.routes).toEqual(quiet.routes);
    for (const route of ['/api/agents', '/api/stats', '/api/analytics/daily', '/api/notifications', '/api/market', '/api/deals/:id']) {
      expect(busy.routes).toContain(route);
    }
    expect([...busy.capture.answers.keys()].filter((label) => label.includes("[B's deals 1]")).length).toBeGreaterThan(0);
    expect(busy.capture.pushes.length).toBeGreaterThan(10);
  }, 600_000);

  it('answers B the same, route by route and push by push', () => {
    expect(differences(busy.capture, quiet.capture)).toEqual([]);
  });

  it('would catch a leak: one of A’s agents in B’s list, or one push more, is a difference', () => {
    const agents = quiet.capture.answers.get('/api/agents')!;
    const leaked: Capture = {
      answers: new Map([...quiet.capture.answers].map(([label, answer]) => [label, { ...answer }])),
      pushes: [...quiet.capture.pushes],
    };
    const theirs = { ...(agents.body as AgentView[])[0]!, id: 999_999, name: 'Archer Mortgages’ borrower' };
    leaked.answers.set('/api/agents', { ...agents, body: [theirs, ...(agents.body as AgentView[])] });
    expect(differences(leaked, quiet.capture).map((d) => d.split(':')[0])).toEqual(['/api/agents']);
    const pushed: Capture = {
      answers: quiet.capture.answers,
      pushes: [...quiet.capture.pushes, { type: 'views_changed', views: ['market'] }],
    };
    expect(differences(pushed, quiet.capture).at(-1)).toBe(`pushes: ${quiet.capture.pushes.length + 1} ≠ ${quiet.capture.pushes.length}`);
    // A count that differs, names aside, is a difference too: the comparison is of whole answers, not of names.
    const stats = quiet.capture.answers.get('/api/stats')!;
    const counted: Capture = {
      answers: new Map([...quiet.capture.answers, ['/api/stats', { ...stats, body: { ...(stats.body as object), matchesFound: 99 } }]]),
      pushes: quiet.capture.pushes,
    };
    expect(differences(counted, quiet.capture).map((d) => d.split(':')[0])).toEqual(['/api/stats']);
  });
});
