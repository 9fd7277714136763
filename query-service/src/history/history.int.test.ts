import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import {
  moveReasonInWords,
  offerFigures,
  streams,
  type DomainEvent,
  type EventMetadata,
  type HistoryEvent,
  type HistoryPage,
  type HistoryState,
  type ApiError,
  type ConversationVerification,
  type HistoryExport,
} from '@pf/events';
import {
  createHttpServer,
  createLogger,
  openServiceContext,
  parseConfig,
  SESSION_COOKIE,
  sessionPlugin,
  type OpenedContext,
  type SessionStore,
} from '@pf/infra';
import { createTestDatabase, type TestDatabase } from '@pf/infra/testing';
import { historyRoutes } from './routes';
import { FURNESS_FIVE_YEAR_FIX } from '@pf/events/testing';

/** A browser-like client on a real socket: keeps its session cookie. */
class Client {
  constructor(
    readonly base: string,
    readonly cookie = '',
  ) {}
  userId = '';
  /** A session as sign-in makes one (the sign-in route is the command side's; this slice only reads). */
  static async signIn(base: string, sessions: SessionStore) {
    const { token, user } = await sessions.signInGuest('history test');
    const client = new Client(base, `${SESSION_COOKIE}=${encodeURIComponent(token)}`);
    client.userId = user.id;
    return client;
  }
  async get<T = unknown>(path: string): Promise<{ status: number; body: T; text: string; headers: Headers }> {
    const response = await fetch(`${this.base}${path}`, { headers: { cookie: this.cookie } });
    const text = await response.text();
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      body = null;
    }
    return { status: response.status, body: body as T, text, headers: response.headers };
  }
  get token() {
    return decodeURIComponent(this.cookie.split('=')[1] ?? '');
  }
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** `npm run audit -- ...` as a separate process, with no database configured and an empty data dir. */
function runCli(args: string[], dataDir: string): Promise<{ status: number; out: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: path.join(dataDir, 'no-data'), LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  delete env.TEST_DATABASE_URL;
  delete env.EVENTSTORE_URL;
  return new Promise((resolve) => {
    execFile(
      'node',
      ['--import', 'tsx', 'query-service/src/history/audit-main.ts', ...args],
      { cwd: root, env },
      (error, stdout, stderr) => {
        resolve({ status: error ? Number(error.code ?? 1) : 0, out: `${stdout}${stderr}` });
      },
    );
  });
}

const terms = (interestRate: number, arrangementFee = 999) => ({ interestRate, termYears: 25, loanAmount: 200_000, arrangementFee });
/** The lender's product as its range stood (the shape of Furness Building Society's 5-year fix: docs/behaviour/regulated-figures.md). */
const FIVE_YEAR_FIX = FURNESS_FIVE_YEAR_FIX;
const LENDER_REASON = { rule: 'Moved within its discretion towards the borrower', figures: { ratePercent: 4.3, trueCostPounds: 60_000 } };
const BORROWER_REASON = { rule: 'Accepted: at least as good as its own next offer', figures: { trueCostPounds: 60_000 } };

describe("history API: from the event store, paged, as it stood ?at=, for the conversation's owners only", () => {
  let database: TestDatabase;
  let context: OpenedContext;
  let app: FastifyInstance;
  let alice: Client;
  let bob: Client;
  let carol: Client;
  let aliceId: string;
  let aliceSession: string;
  const conversationId = 7000 + Math.floor(Math.random() * 1000);
  const positions: Record<string, string> = {};

  async function append(stream: string, events: DomainEvent[], metadata: EventMetadata, label?: string) {
    const result = await context.store.append(
      stream,
      events.map((e) => ({ id: randomUUID(), type: e.type, data: e.data, metadata })),
      'any',
    );
    if (label) positions[label] = `${result.position.commit}:${result.position.prepare}`;
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = parseConfig({ DATABASE_URL: database.url, LOG_LEVEL: 'warn', AUTOMATION: 'off' });
    const log = createLogger('warn', 'history-test');
    context = await openServiceContext(config, log, database.url, []);
    app = await createHttpServer(config, log);
    await app.register(sessionPlugin, { sessions: context.sessions });
    await app.register(historyRoutes, context);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    [alice, bob, carol] = await Promise.all([
      Client.signIn(base, context.sessions),
      Client.signIn(base, context.sessions),
      Client.signIn(base, context.sessions),
    ]);
    aliceId = alice.userId;
    const bobId = bob.userId;
    aliceSession = (await context.sessions.findUser(alice.token, { touch: false }))!.sessionId;

    const system = (name: string): EventMetadata => ({ actor: { kind: 'system', name }, correlationId: 'c', causationId: null });
    const agent = (agentId: number): EventMetadata => ({ actor: { kind: 'agent', agentId }, correlationId: 'c', causationId: null });
    const person: EventMetadata = {
      actor: { kind: 'user', userId: aliceId, sessionId: aliceSession },
      correlationId: 'c',
      causationId: null,
    };
    const [borrower, lender] = [conversationId * 10 + 1, conversationId * 10 + 2];
    const matchId = `m-${conversationId}`;
    const stream = streams.conversation(conversationId);
    const participants = [
      { agentId: borrower, ownerId: aliceId, name: 'Amelia Hart', type: 'borrower' as const },
      { agentId: lender, ownerId: bobId, name: 'Northgate Building Society', type: 'lender' as const },
    ];
    await append(
      streams.agent(borrower),
      [{ type: 'AgentCreated', data: { ...participants[0]!, description: 'First home', criteria: { interestRateMax: '4.5%' } } }],
      person,
    );
    const bobMeta: EventMetadata = { actor: { kind: 'user', userId: bobId }, correlationId: 'c', causationId: null };
    await append(
      streams.agent(lender),
      [{ type: 'AgentCreated', data: { ...participants[1]!, description: 'Lends', criteria: { interestRateMin: '3.9%' } } }],
      bobMeta,
    );
    await append(
      streams.match(matchId),
      [
        {
          type: 'MatchFound',
          data: { matchId, borrowerAgentId: borrower, lenderAgentId: lender, brokerAgentId: null, score: 84, explanation: [] },
        },
      ],
      system('matcher'),
    );
    await append(
      stream,
      [{ type: 'ConversationStarted', data: { conversationId, title: 'Amelia ↔ Northgate', participants, matchId } }],
      system('matcher'),
    );
    await append(
      stream,
      [
        {
          type: 'MessageSent',
          data: {
            conversationId,
            messageId: 1,
            fromAgentId: borrower,
            toAgentId: lender,
            content: 'Hello, what could you offer?',
            isAutomated: true,
          },
        },
      ],
      agent(borrower),
    );
    await append(
      stream,
      [
        {
          type: 'OfferMade',
          data: { conversationId, offerId: 'o1', round: 1, fromAgentId: lender, toAgentId: borrower, terms: terms(4.85) },
        },
        {
          type: 'MessageSent',
          data: {
            conversationId,
            messageId: 2,
            fromAgentId: lender,
            toAgentId: borrower,
            content: 'We can start at 4.85% over 25 years.',
            isAutomated: true,
          },
        },
      ],
      agent(lender),
      'beforeTakeover',
    );
    await append(stream, [{ type: 'ManualModeChanged', data: { conversationId, isManualMode: true } }], person, 'takeover');
    await append(
      stream,
      [
        {
          type: 'MessageSent',
          data: {
            conversationId,
            messageId: 3,
            fromAgentId: borrower,
            toAgentId: null,
            content: 'We can do 4.1% over 25 years',
            isAutomated: false,
          },
        },
      ],
      person,
    );
    await append(
      stream,
      [
        { type: 'OfferRejected', data: { conversationId, offerId: 'o1', byAgentId: borrower } },
        {
          type: 'OfferMade',
          data: { conversationId, offerId: 'o2', round: 2, fromAgentId: borrower, toAgentId: lender, terms: terms(4.1) },
        },
      ],
      person,
    );
    await append(stream, [{ type: 'ManualModeChanged', data: { conversationId, isManualMode: false } }], person, 'handBack');
    await append(
      stream,
      [
        {
          type: 'OfferMade',
          data: {
            conversationId,
            offerId: 'o3',
            round: 3,
            fromAgentId: lender,
            toAgentId: borrower,
            terms: terms(4.3),
            product: FIVE_YEAR_FIX,
            reason: LENDER_REASON,
          },
        },
      ],
      agent(lender),
    );
    await append(
      stream,
      [
        { type: 'OfferAccepted', data: { conversationId, offerId: 'o3', byAgentId: borrower, terms: terms(4.3), reason: BORROWER_REASON } },
        {
          type: 'DealAgreed',
          data: {
            dealId: 'd1',
            conversationId,
            borrowerAgentId: borrower,
            lenderAgentId: lender,
            brokerAgentId: null,
            propertyValue: 300_000,
            loanAmount: 200_000,
            ltv: 66.67,
            interestRate: 4.3,
            termYears: 25,
            arrangementFee: 999,
            product: FIVE_YEAR_FIX,
          },
        },
        { type: 'ConversationCompleted', data: { conversationId, outcome: 'agreed', reason: 'Terms agreed' } },
      ],
      agent(borrower),
    );
    // An agent event after the conversation ended is not part of its history.
    await append(streams.agent(borrower), [{ type: 'AgentPaused', data: { agentId: borrower } }], person);
  });

  afterAll(async () => {
    await app?.close();
    await context?.close();
    await database?.drop();
  });

  const history = <T = unknown>(query = '') => alice.get<T>(`/api/conversations/${conversationId}/history${query}`);

  it('pages through every event of the conversation, its match and its agents, in global order, each with who acted and a summary', async () => {
    const events: HistoryEvent[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const page: { status: number; body: HistoryPage } = await history<HistoryPage>(`?limit=4${after ? `&after=${after}` : ''}`);
      expect(page.status).toBe(200);
      expect(page.body.events.length).toBeLessThanOrEqual(4);
      expect(page.body.total).toBe(16);
      events.push(...page.body.events);
      after = page.body.nextAfter;
      pages++;
    } while (after);
    expect(pages).toBe(4);
    expect(events).toHaveLength(16);
    expect(events.map((e) => e.type)).toEqual([
      'AgentCreated',
      'AgentCreated',
      'MatchFound',
      'ConversationStarted',
      'MessageSent',
      'OfferMade',
      'MessageSent',
      'ManualModeChanged',
      'MessageSent',
      'OfferRejected',
      'OfferMade',
      'ManualModeChanged',
      'OfferMade',
      'OfferAccepted',
      'DealAgreed',
      'ConversationCompleted',
    ]);
    const positions = events.map((e) => e.position.split(':').map(BigInt) as [bigint, bigint]);
    expect(
      positions.every(([c, p], i) => i === 0 || c > positions[i - 1]![0] || (c === positions[i - 1]![0] && p > positions[i - 1]![1])),
    ).toBe(true);
    const summaries = events.map((e) => e.summary);
    expect(summaries).toContain('Northgate Building Society (lender) offered 4.85% over 25 years on a £200,000 loan, £999 fee (round 1).');
    expect(summaries).toContain('The matcher paired Amelia Hart (borrower) with Northgate Building Society (lender) (score 84).');
    expect(summaries).toContain('Amelia Hart (borrower) (written by a person) wrote: “We can do 4.1% over 25 years”');
    expect(summaries).toContain('The conversation ended: terms agreed (Terms agreed).');
    expect(summaries.filter((s) => s === 'Amelia Hart (borrower) was paused.')).toEqual([]);
    const takeover = events.find((e) => e.type === 'ManualModeChanged')!;
    expect(takeover.actor).toEqual({
      kind: 'person',
      userId: aliceId,
      name: 'Guest Operator',
      sessionId: aliceSession,
      agentId: null,
    });
    expect(takeover.summary).toBe('Guest Operator took manual control: the agents fall silent.');
    expect(events.find((e) => e.type === 'OfferMade')!.actor).toMatchObject({ kind: 'agent', name: 'Northgate Building Society' });
    expect(events.every((e) => /^[0-9a-f]{64}$/.test(e.hash ?? ''))).toBe(true);
    // The counterparty's agent shows who it is, never its limits.
    const theirs = events.filter((e) => e.type === 'AgentCreated')[1]!;
    expect(theirs).toMatchObject({ redacted: true, data: { name: 'Northgate Building Society' } });
    expect(JSON.stringify(theirs.data)).not.toContain('3.9%');
    expect(events[0]).toMatchObject({ redacted: false, data: { criteria: { interestRateMax: '4.5%' } } });
  });

  it('answers the conversation as it stood just before the takeover: thread, offers and mode then', async () => {
    const { status, body } = await history<HistoryState>(`?at=${positions.beforeTakeover}`);
    expect(status).toBe(200);
    expect(body.at.position).toBe(positions.beforeTakeover);
    expect(body.conversation).toMatchObject({ status: 'active', isManualMode: false, outcome: null });
    expect(body.messages.map((m) => m.content)).toEqual(['Hello, what could you offer?', 'We can start at 4.85% over 25 years.']);
    expect(body.offers).toEqual([
      expect.objectContaining({ offerId: 'o1', agentName: 'Northgate Building Society', status: 'open', terms: terms(4.85) }),
    ]);
    expect(body.takeovers).toEqual([]);
  });

  it('answers the moment of the takeover and the end, and who held control, for how long, saying and offering what', async () => {
    const during = (await history<HistoryState>(`?at=${positions.takeover}`)).body;
    expect(during.conversation!.isManualMode).toBe(true);
    expect(during.takeovers).toHaveLength(1);
    expect(during.takeovers[0]).toMatchObject({ userId: aliceId, sessionId: aliceSession, endedAt: null });

    const end = (await history<HistoryState>(`?at=${encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString())}`)).body;
    expect(end.conversation).toMatchObject({ status: 'completed', outcome: 'agreed', isManualMode: false });
    expect(end.messages).toHaveLength(3);
    // The borrower's last offer was still open when it accepted the lender's, which superseded it (docs/behaviour/offers.md).
    expect(end.offers.map((o) => [o.offerId, o.status])).toEqual([
      ['o2', 'superseded'],
      ['o3', 'accepted'],
    ]);
    const [held] = end.takeovers;
    expect(held).toMatchObject({
      userId: aliceId,
      sessionId: aliceSession,
      startPosition: positions.takeover,
      endPosition: positions.handBack,
      endedBy: null,
    });
    expect(held!.durationMs).toBe(Date.parse(held!.endedAt!) - Date.parse(held!.startedAt));
    expect(held!.messages.map((m) => m.content)).toEqual(['We can do 4.1% over 25 years']);
    expect(held!.offers.map((o) => o.terms.interestRate)).toEqual([4.1]);

    const before = (await history<HistoryState>('?at=2000-01-01T00:00:00Z')).body;
    expect(before).toMatchObject({ conversation: null, messages: [], offers: [], at: { position: null } });
  });

  it("serves each side's standing offer with its product, the agent's reason and its regulated figures, and every event's terms with theirs", async () => {
    const end = (await history<HistoryState>(`?at=${encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString())}`)).body;
    const [borrowers, lenders] = end.offers;
    // A person's offer from before products: one rate for the term, no product, no reason.
    expect(borrowers).toMatchObject({ offerId: 'o2', product: null, reason: null, figures: offerFigures(terms(4.1)) });
    expect(lenders).toMatchObject({
      offerId: 'o3',
      product: FIVE_YEAR_FIX,
      reason: LENDER_REASON,
      figures: offerFigures(terms(4.3), FIVE_YEAR_FIX),
    });
    // Two periods: the fixed rate's payment for 5 years, then the reversion rate's.
    expect(lenders!.figures!.payments.map((p) => p.months)).toEqual([60, 240]);

    const { body } = await history<HistoryPage>('?limit=500');
    const figuresOf = (type: string) => body.events.filter((e) => e.type === type).map((e) => e.figures);
    expect(figuresOf('OfferMade')).toEqual([offerFigures(terms(4.85)), offerFigures(terms(4.1)), offerFigures(terms(4.3), FIVE_YEAR_FIX)]);
    // An acceptance's figures are its offer's, product and all, even when the offer is on an earlier page.
    expect(figuresOf('OfferAccepted')).toEqual([offerFigures(terms(4.3), FIVE_YEAR_FIX)]);
    const acceptance = body.events.findIndex((e) => e.type === 'OfferAccepted');
    const paged = await history<HistoryPage>(`?after=${body.events[acceptance - 1]!.position}&limit=1`);
    expect(paged.body.events[0]).toMatchObject({ type: 'OfferAccepted', figures: offerFigures(terms(4.3), FIVE_YEAR_FIX) });
    expect(figuresOf('DealAgreed')).toEqual([offerFigures(terms(4.3), FIVE_YEAR_FIX)]);
    expect(body.events.find((e) => e.type === 'MessageSent')).not.toHaveProperty('figures');
    // The timeline says which product was offered and why, in words with the figures the agent used.
    const summaries = body.events.map((e) => e.summary);
    expect(summaries).toContain(
      `Northgate Building Society (lender) offered the 5 Year Fixed Rate: 4.3% over 25 years on a £200,000 loan, £999 fee (round 3). Why: ${moveReasonInWords(LENDER_REASON)}.`,
    );
    expect(moveReasonInWords(LENDER_REASON)).toBe('Moved within its discretion towards the borrower (rate 4.3%, true cost £60,000)');
    expect(summaries).toContain(
      'Amelia Hart (borrower) accepted 4.3% over 25 years on a £200,000 loan, £999 fee. Why: Accepted: at least as good as its own next offer (true cost £60,000).',
    );
  });

  it('answers 404 to anyone who owns none of its agents, as for the conversation itself, and 401 signed out', async () => {
    const denied = await carol.get(`/api/conversations/${conversationId}/history`);
    expect(denied).toMatchObject({ status: 404, body: { message: `Conversation ${conversationId} not found` } });
    expect((await carol.get(`/api/conversations/${conversationId}/history?at=${positions.takeover}`)).status).toBe(404);
    expect((await carol.get(`/api/conversations/${conversationId}/verify`)).status).toBe(404);
    expect((await carol.get(`/api/conversations/${conversationId}/history/export`)).status).toBe(404);
    expect((await alice.get('/api/conversations/999999/history')).status).toBe(404);
    expect((await bob.get(`/api/conversations/${conversationId}/history?limit=1`)).status).toBe(200);
    expect((await new Client(alice.base).get(`/api/conversations/${conversationId}/history`)).status).toBe(401);
  });

  it('rejects bad input with a 400 naming the field and the rule', async () => {
    const cases: [string, string][] = [
      ['?limit=0', 'limit: limit must be at least 1'],
      ['?limit=501', 'limit: limit must be at most 500'],
      ['?limit=ten', 'limit: limit must be a whole number'],
      ['?after=12', 'after: A position is two whole numbers joined by a colon'],
      ['?at=yesterday', 'at: at must be a position such as "812:40" or an ISO time'],
      ['?sort=desc', 'sort'],
    ];
    for (const [query, message] of cases) {
      const answer = await history<ApiError>(query);
      expect(answer.status, query).toBe(400);
      expect(answer.body.message, query).toContain(message);
    }
    expect((await alice.get<ApiError>('/api/conversations/abc/history')).body.message).toBe(
      'id: Conversation id must be a positive whole number, not "abc"',
    );
  });

  it('exports JSON an auditor verifies offline (redacted events by their digest), and the verifier names an event altered in the file', async () => {
    const exported = await alice.get<HistoryExport>(`/api/conversations/${conversationId}/history/export?format=json`);
    const events = exported.body.events;
    const started = events.find((e) => e.type === 'MessageSent')!;
    expect(started.metadata).toEqual({ actor: { kind: 'agent', agentId: conversationId * 10 + 1 }, correlationId: 'c', causationId: null });
    const theirs = events.find((e) => e.redacted)!;
    expect(theirs).toMatchObject({
      type: 'AgentCreated',
      metadata: null,
      contentDigest: expect.stringMatching(/^[0-9a-f]{64}$/) as unknown,
    });
    expect(JSON.stringify(theirs)).not.toContain('interestRateMin');

    const dir = await mkdtemp(path.join(os.tmpdir(), 'pf-export-'));
    try {
      const file = path.join(dir, 'export.json');
      await writeFile(file, exported.text);
      // The CLI as an auditor runs it: no DATABASE_URL and no data dir, so it must not need a database.
      const cli = await runCli(['verify', '--file', file], dir);
      expect(cli).toMatchObject({ status: 0 });
      expect(cli.out).toContain(
        `intact  conversation ${conversationId}: 16 events in 4 streams, every hash recomputed (1 redacted, checked by their content digest)`,
      );

      const altered = JSON.parse(exported.text) as HistoryExport;
      const offer = altered.events.find((e) => e.type === 'OfferMade' && (e.data as { offerId: string }).offerId === 'o2')!;
      (offer.data as { terms: { interestRate: number } }).terms.interestRate = 3.1;
      await writeFile(file, JSON.stringify(altered));
      const caught = await runCli(['verify', '--file', file], dir);
      expect(caught.status).toBe(1);
      expect(caught.out).toContain(
        `BROKEN event ${offer.id} at position ${offer.position}: Event ${offer.streamVersion} of conversation-${conversationId} (OfferMade) was altered: its exported fields no longer give its hash`,
      );

      // A redacted event's digest is covered too: changing it breaks its link.
      const forged = JSON.parse(exported.text) as HistoryExport;
      const hidden = forged.events.find((e) => e.redacted)!;
      hidden.contentDigest = 'f'.repeat(64);
      await writeFile(file, JSON.stringify(forged));
      expect((await runCli(['verify', '--file', file], dir)).out).toContain(`BROKEN event ${hidden.id}`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('verifies the chains of every stream it read, and names an event altered by hand', async () => {
    const intact = await alice.get<ConversationVerification>(`/api/conversations/${conversationId}/verify`);
    expect(intact.body).toMatchObject({ conversationId, intact: true });
    expect(intact.body.streams.map((s) => s.stream)).toEqual([
      streams.conversation(conversationId),
      `match-m-${conversationId}`,
      streams.agent(conversationId * 10 + 1),
      streams.agent(conversationId * 10 + 2),
    ]);
    await context.pool.query(
      `update events set data = jsonb_set(data, '{content}', '"We can do 3.1% over 25 years"') where stream_name = $1 and stream_version = 5`,
      [streams.conversation(conversationId)],
    );
    const broken = await alice.get<ConversationVerification>(`/api/conversations/${conversationId}/verify`);
    expect(broken.body.intact).toBe(false);
    const conversation = broken.body.streams[0]!;
    expect(conversation.firstBroken).toMatchObject({
      streamVersion: 5,
      type: 'MessageSent',
      reason: 'Event 5 (MessageSent) was altered: its stored contents no longer give its hash',
    });
  });

  it('exports the full history as JSON with hashes and the verdict, and messages and offers as CSV', async () => {
    const json = await alice.get<HistoryExport>(`/api/conversations/${conversationId}/history/export?format=json`);
    expect(json.headers.get('content-disposition')).toBe(`attachment; filename="conversation-${conversationId}-history.json"`);
    expect(json.body.events).toHaveLength(16);
    expect(json.body.events[5]).toMatchObject({ type: 'OfferMade', hash: expect.stringMatching(/^[0-9a-f]{64}$/) as unknown });
    expect(json.body.verification.intact).toBe(false);
    const csv = await alice.get(`/api/conversations/${conversationId}/history/export?format=csv`);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toBe(
      'position,recorded_at,type,agent_id,acted_by,session_id,content,interest_rate,term_years,loan_amount,arrangement_fee,product,monthly_payment,aprc,round,hash',
    );
    const fix = offerFigures(terms(4.3), FIVE_YEAR_FIX);
    expect(lines.find((line) => line.includes(',OfferMade,') && line.includes(',4.3,'))).toContain(
      `,4.3,25,200000,999,5 Year Fixed Rate,${fix.monthlyPayment},${fix.aprc},3,`,
    );
    expect(lines).toHaveLength(1 + 3 + 3 + 1);
    expect(lines.find((line) => line.includes(',OfferMade,') && line.includes(',4.1,'))).toContain(`,${aliceSession},`);
    expect((await alice.get<ApiError>(`/api/conversations/${conversationId}/history/export?format=xml`)).body.message).toBe(
      'format: format must be json or csv',
    );
  });

  // docs/architecture.md, "Stored events": History goes on past an event the contract refuses and shows it as stored.
  it('shows an event the contract does not know as it was stored, and goes on past it', async () => {
    const later = { id: randomUUID(), type: 'NoSuchEvent', data: { conversationId, note: 'from a later version' } };
    await context.storedEvents.append(
      streams.conversation(conversationId),
      [{ ...later, metadata: { actor: { kind: 'system', name: 'later' }, correlationId: 'c', causationId: null } }],
      'any',
    );
    const page = await history<HistoryPage>('?limit=100');
    expect(page.status).toBe(200);
    expect(page.body.events.at(-1)).toMatchObject({ id: later.id, type: 'NoSuchEvent', data: later.data });
  });
});
