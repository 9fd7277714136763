import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createPool, PostgresEventStore, readingTheContract } from '@pf/infra';
import { createTestDatabase, type TestDatabase } from '@pf/infra/testing';
import { rebuildReadModels } from '@pf/query-service';
import { startSingleNode, type RunningServer } from './server';
import { ApiClient } from './testing/api-client';
import { PDF_BYTES, PNG_BYTES, uploadDocument } from './testing/documents';
import { testServerEnv } from './testing/server-env';
import type {
  AgentView,
  ApiError,
  ConversationView,
  DealCreatedAnswer,
  DealDetailView,
  DealStatsView,
  DealView,
  DocumentLink,
  DocumentView,
  LeadView,
  MatchingStatsView,
  MatchView,
  MessageView,
} from '@pf/events';

/**
 * Deals, documents and matching through the single node's HTTP API with the automated agents running
 * (AGENT_REPLY_DELAY_MS=0): the deals come from negotiations the agents finish, not from fixtures.
 */
describe('deals, documents and matching from what the agents do', () => {
  let database: TestDatabase;
  let server: RunningServer;
  let alice: ApiClient;
  let mallory: ApiClient;
  let deal: DealView;

  beforeAll(async () => {
    database = await createTestDatabase();
    server = await startSingleNode(testServerEnv(database.url, { AUTOMATION: 'on', AGENT_REPLY_DELAY_MS: '0' }));
    alice = await ApiClient.signIn(server.url);
    mallory = await ApiClient.signIn(server.url);
    expect((await alice.post('/api/seed-demo')).status).toBe(201);
    // Every negotiation over, and a deal for each one agreed: deals are opened by a process manager after the
    // agreement, so they can arrive after the last conversation is completed.
    const finished = async () => {
      const list = (await alice.get<ConversationView[]>('/api/conversations')).body;
      if (list.length === 0 || list.some((c) => c.status !== 'completed')) return false;
      const agreed = list.filter((c) => c.outcome === 'agreed').length;
      return agreed > 0 && (await alice.get<DealView[]>('/api/deals')).body.length === agreed;
    };
    const deadline = Date.now() + 40_000;
    while (!(await finished())) {
      if (Date.now() > deadline) throw new Error('The seeded negotiations did not finish with a deal within 40 s');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  it('opens a deal for each agreed negotiation, with the terms agreed in it', async () => {
    const conversations = (await alice.get<ConversationView[]>('/api/conversations')).body;
    const agreed = conversations
      .filter((c) => c.outcome === 'agreed')
      .map((c) => c.id)
      .sort();
    const deals = (await alice.get<DealView[]>('/api/deals')).body;
    expect(deals.map((d) => d.conversationId).sort()).toEqual(agreed);
    deal = deals[0]!;
    expect(deal).toMatchObject({
      source: 'negotiation',
      status: 'active',
      stage: 'application',
      propertyAddress: expect.stringMatching(
        /^(Leeds|Manchester|London|Bristol|Birmingham) \(region; full address to be given\)$/,
      ) as unknown,
    });
    expect(deal.ltv).toBeCloseTo((100 * deal.loanAmount) / deal.propertyValue, 1);
    // The agreed loan amount is the one the agents' last messages state.
    const thread = (await alice.get<MessageView[]>(`/api/conversations/${deal.conversationId}/messages`)).body;
    expect(thread.map((m) => m.content).join(' ')).toContain(`£${deal.loanAmount.toLocaleString('en-GB')}`);
    const detail = (await alice.get<DealDetailView>(`/api/deals/${deal.id}`)).body;
    expect(detail.timeline[0]!.text).toContain(`conversation #${deal.conversationId}`);
  });

  it('advances the stage to completion only through underwriting; cancelled is final', async () => {
    const early = await alice.patch<ApiError>(`/api/deals/${deal.id}`, { status: 'completed' });
    expect(early.status).toBe(400);
    expect(early.body.message).toBe('status: A deal cannot complete before underwriting; this one is at application');
    expect((await alice.patch<ApiError>(`/api/deals/${deal.id}`, { stage: 'completed' })).body.message).toMatch(
      /^stage: .*only from underwriting/,
    );
    expect((await alice.patch<ApiError>(`/api/deals/${deal.id}`, { stage: 'nowhere' })).body.message).toBe(
      'stage: stage must be one of application, valuation, underwriting, completed',
    );
    for (const stage of ['valuation', 'underwriting', 'completed']) {
      expect((await alice.patch(`/api/deals/${deal.id}`, { stage })).status).toBe(200);
    }
    const done = (await alice.get<DealDetailView>(`/api/deals/${deal.id}`)).body;
    expect(done).toMatchObject({ stage: 'completed', status: 'completed' });
    expect(done.timeline.map((t: { text: string }) => t.text)).toContain('Stage moved from underwriting to completed');
    const stats = (await alice.get<DealStatsView>('/api/deals/stats')).body;
    expect(stats.completionRate).toBe(100);
    expect(stats.averageDaysToComplete).toBeGreaterThanOrEqual(0);

    const other = (await alice.get<DealView[]>('/api/deals')).body.find((d) => d.id !== deal.id);
    if (other) {
      expect((await alice.patch(`/api/deals/${other.id}`, { status: 'cancelled' })).status).toBe(200);
      const again = await alice.patch<ApiError>(`/api/deals/${other.id}`, { status: 'active' });
      expect(again.status).toBe(400);
      expect(again.body.message).toContain('cancelled deal is final');
    }
  });

  it('shows a deal only to the owners of its agents', async () => {
    expect((await mallory.get(`/api/deals/${deal.id}`)).status).toBe(404);
    expect((await mallory.patch(`/api/deals/${deal.id}`, { propertyAddress: 'Mine now' })).status).toBe(404);
    expect((await mallory.get('/api/deals')).body).toEqual([]);
    expect((await alice.get('/api/deals/not-a-deal')).status).toBe(400);
  });

  it('follows a match from its conversation to its deal, with the matcher’s reasons', async () => {
    const matches = (await alice.get<MatchView[]>('/api/matches')).body;
    const ofDeal = matches.find((m) => m.conversationId === deal.conversationId)!;
    expect(ofDeal).toMatchObject({ stage: 'completed', status: 'completed', dealId: deal.id, loanAmount: deal.loanAmount });
    expect(ofDeal.explanation.length).toBeGreaterThan(0);
    expect(ofDeal.explanation.every((c) => ['pass', 'warn', 'fail'].includes(c.verdict) && c.detail)).toBe(true);
    const leads = (await alice.get<LeadView[]>('/api/leads')).body;
    const borrower = leads.find((l) => l.id === ofDeal.borrowerAgentId)!;
    expect(borrower).toMatchObject({ status: 'matched', urgency: 'low', type: 'borrower' });
    expect(borrower.matchScore).toBeGreaterThanOrEqual(ofDeal.matchScore);
    const stats = (await alice.get<MatchingStatsView>('/api/matches/stats')).body;
    expect(stats.successfulMatches).toBe((await alice.get<DealView[]>('/api/deals')).body.length);
    expect(stats.averageMatchScore).toBeGreaterThanOrEqual(70);
  });

  it('takes PDF, JPEG and PNG by their content, at most 10 MB, and counts downloads of signed links', async () => {
    // Each agreed deal's illustration is made by the platform a moment after the deal opens
    // (docs/behaviour/regulated-figures.md); they count in the figures below with the uploads.
    const agreedDeals = (await alice.get<DealView[]>('/api/deals')).body.length;
    const illustrations = async () =>
      (await alice.get<DocumentView[]>('/api/documents')).body.filter((d) => d.uploadedBy === 'Made by the platform');
    await expect.poll(async () => (await illustrations()).length, { timeout: 20_000, interval: 200 }).toBe(agreedDeals);
    const illustrationBytes = (await illustrations()).reduce((total, d) => total + d.size, 0);
    const editable = (await alice.get<DealView[]>('/api/deals')).body.find((d) => d.status !== 'cancelled')!;
    await alice.patch(`/api/deals/${editable.id}`, { propertyAddress: '14 Harbour Row, Bristol BS1 5TT' });
    const fake = await uploadDocument<ApiError>(
      alice,
      { dealId: editable.id, type: 'valuation' },
      { name: 'valuation.pdf', bytes: Buffer.from('not a pdf at all'), type: 'application/pdf' },
    );
    expect(fake.status).toBe(400);
    expect(fake.body.message).toContain('only PDF, JPEG and PNG');
    const huge = await uploadDocument<ApiError>(
      alice,
      { dealId: editable.id, type: 'valuation' },
      { name: 'big.pdf', bytes: Buffer.concat([PDF_BYTES, Buffer.alloc(10 * 1024 * 1024)]) },
    );
    expect(huge.status).toBe(413);
    expect(huge.body.message).toContain('larger than 10 MB');
    expect(
      (await uploadDocument<ApiError>(alice, { dealId: editable.id, type: 'passport' }, { name: 'a.png', bytes: PNG_BYTES })).body.message,
    ).toMatch(/^type: /);
    expect((await uploadDocument(mallory, { dealId: editable.id, type: 'legal' }, { name: 'a.png', bytes: PNG_BYTES })).status).toBe(404);

    const photo = await uploadDocument(
      alice,
      { dealId: editable.id, type: 'insurance' },
      { name: 'buildings-cover.dat', bytes: PNG_BYTES },
    );
    expect(photo.status).toBe(201);
    expect(photo.body).toMatchObject({ contentType: 'image/png', sha256: createHash('sha256').update(PNG_BYTES).digest('hex') });
    expect(
      (await uploadDocument(alice, { dealId: editable.id, type: 'valuation' }, { name: 'valuation.pdf', bytes: PDF_BYTES })).status,
    ).toBe(201);

    const documents = (await alice.get<DocumentView[]>('/api/documents')).body;
    const listed = documents.find((d) => d.id === photo.body.id);
    expect(listed).toMatchObject({
      name: 'buildings-cover.dat',
      type: 'insurance',
      status: 'pending',
      downloadCount: 0,
      dealAddress: '14 Harbour Row, Bristol BS1 5TT',
      size: PNG_BYTES.length,
    });

    const link = await alice.post<DocumentLink>(`/api/documents/${photo.body.id}/downloads`);
    expect(link.status).toBe(201);
    const file = await fetch(`${server.url}${link.body.url}`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(file.headers.get('content-disposition')).toMatch(/^attachment/);
    expect(Buffer.from(await file.arrayBuffer()).equals(PNG_BYTES)).toBe(true);
    const tampered = await fetch(`${server.url}${link.body.url.replace('d=attachment', 'd=inline')}`);
    expect(tampered.status).toBe(403);
    expect((await mallory.post(`/api/documents/${photo.body.id}/downloads`)).status).toBe(404);
    expect((await mallory.post(`/api/documents/${photo.body.id}/share`)).status).toBe(404);

    expect((await alice.patch(`/api/documents/${photo.body.id}`, { status: 'approved' })).status).toBe(200);
    expect((await alice.patch(`/api/documents/${photo.body.id}`, { status: 'lost' })).status).toBe(400);
    const after = (await alice.get<DocumentView[]>('/api/documents')).body.find((d) => d.id === photo.body.id);
    expect(after).toMatchObject({ status: 'approved', downloadCount: 1 });
    expect((await alice.get('/api/documents/stats')).body).toEqual({
      totalDocuments: agreedDeals + 2,
      pendingReview: agreedDeals + 1,
      storageBytes: illustrationBytes + PNG_BYTES.length + PDF_BYTES.length,
      downloads: 1,
    });
    expect((await mallory.get('/api/documents')).body).toEqual([]);
  });

  it('validates New Deal field by field and opens a deal between the user’s own agents', async () => {
    const empty = await alice.post<ApiError>('/api/deals', {});
    expect(empty.status).toBe(400);
    expect(empty.body.message).toContain('propertyAddress: Property address is required');
    expect(empty.body.message).toContain('borrowerAgentId: Choose the borrower agent');
    const agents = (await alice.get<AgentView[]>('/api/agents')).body;
    // A borrower no lender fits, so no negotiation agrees a deal for it while the test runs.
    const borrower = (
      await alice.post<AgentView>('/api/agents', {
        name: 'Imogen Reid',
        type: 'borrower',
        criteria: { propertyValueMin: '£9,000,000', propertyValueMax: '£9,500,000' },
      })
    ).body;
    const lender = agents.find((a) => a.type === 'lender')!;
    const base = {
      propertyAddress: '3 Mill Lane, Leeds LS1 4AB',
      borrowerAgentId: borrower.id,
      lenderAgentId: lender.id,
      propertyValue: 300000,
      loanAmount: 240000,
      interestRate: 4.2,
      termYears: 25,
    };
    const tooMuch = await alice.post<ApiError>('/api/deals', { ...base, loanAmount: 400000 });
    expect(tooMuch.body.message).toBe('loanAmount: Loan amount cannot be more than the property value');
    const swapped = await alice.post<ApiError>('/api/deals', { ...base, borrowerAgentId: lender.id });
    expect(swapped.body.message).toBe(`borrowerAgentId: ${lender.name} is a lender agent, not a borrower`);
    const created = await alice.post<DealCreatedAnswer>('/api/deals', base);
    expect(created.status).toBe(201);
    const opened = (await alice.get<DealDetailView>(`/api/deals/${created.body.id}`)).body;
    expect(opened).toMatchObject({ source: 'manual', ltv: 80, borrowerName: borrower.name, lenderName: lender.name, arrangementFee: 0 });
    // One agreed deal per borrower need: a second New Deal for Imogen is refused, naming the first, until it is cancelled.
    const second = await alice.post<ApiError>('/api/deals', { ...base, propertyAddress: '4 Mill Lane, Leeds LS1 4AB' });
    expect(second.status).toBe(409);
    expect(second.body.message).toBe(
      `Imogen Reid already has an agreed deal with ${lender.name} (made by hand): a second deal for this borrower is refused until that deal is cancelled, or Imogen Reid's operator edits the need or asks for another lender`,
    );
    expect((await alice.patch(`/api/deals/${created.body.id}`, { status: 'cancelled' })).status).toBe(200);
    await expect
      .poll(async () => (await alice.post<DealCreatedAnswer>('/api/deals', { ...base, propertyAddress: '5 Mill Lane' })).status, {
        timeout: 10_000,
      })
      .toBe(201);
    expect((await mallory.post<ApiError>('/api/deals', base)).body.message).toBe(
      `borrowerAgentId: agent ${borrower.id} is not one of your firm's agents`,
    );
  });

  it('rebuilds the deal, document, lead and match boards into the same rows', async () => {
    const tables = ['rm_deal_board', 'rm_document_board', 'rm_lead_board', 'rm_match_board'];
    const snapshot = async () => {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      const rows = Object.fromEntries(
        await Promise.all(
          tables.map(
            async (table) => [table, (await client.query<Record<string, unknown>>(`select * from ${table} order by id`)).rows] as const,
          ),
        ),
      );
      await client.end();
      return rows;
    };
    await alice.get('/api/deals');
    const before = await snapshot();
    for (const table of tables) expect(before[table]!.length, table).toBeGreaterThan(0);
    const pool = createPool(database.url);
    const store = readingTheContract(new PostgresEventStore(pool, database.url));
    await rebuildReadModels(pool, store);
    await store.close();
    await pool.end();
    expect(await snapshot()).toEqual(before);
  });

  // After the rebuild: a new agent starts new negotiations, and the rebuild wants a quiet store.
  it('runs the matcher for a lead when Match is pressed, and shows its answer on the lead', async () => {
    const lead = (await alice.get<LeadView[]>('/api/leads')).body.find((l) => l.type === 'borrower' && l.status !== 'cancelled')!;
    expect((await mallory.post(`/api/leads/${lead.id}/match`)).status).toBe(404);
    const asked = await alice.post(`/api/leads/${lead.id}/match`);
    expect(asked.status).toBe(202);
    let answered: LeadView | undefined;
    for (let i = 0; i < 50 && !answered?.lastMatchRun?.finishedAt; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      answered = (await alice.get<LeadView[]>('/api/leads')).body.find((l) => l.id === lead.id);
    }
    expect(answered?.lastMatchRun).toMatchObject({ newMatches: expect.any(Number) as unknown });
    expect(answered!.lastMatchRun!.finishedAt! >= answered!.lastMatchRun!.requestedAt).toBe(true);
    const paused = (await alice.post<AgentView>('/api/agents', { name: 'Resting Lender', type: 'lender' })).body;
    await alice.put(`/api/agents/${paused.id}`, { isActive: false });
    const refused = await alice.post<ApiError>(`/api/leads/${paused.id}/match`);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('Resting Lender is paused; resume it before matching');
  });
});
