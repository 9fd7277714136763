import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { DomainEvent, ApiError, DealPage, DocumentPage, LeadPage } from '@pf/events';
import { dealOpened } from '@pf/events/testing';
import {
  createHttpServer,
  createLogger,
  openServiceContext,
  parseConfig,
  SESSION_COOKIE,
  sessionPlugin,
  type OpenedContext,
} from '@pf/infra';
import { createTestDatabase, type TestDatabase } from '@pf/infra/testing';
import { ReadModelProgress } from '../projection-kit/progress';
import { readModelMigrations, readModelRoutes, projectReadModels } from '.';
import { describeRequirement } from './leads/requirement';
import { pageLeads } from './leads/queries';
import { ReadCache } from '../projection-kit/read-cache';
import { recorded } from './testing';

const dealIdOf = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const documentIdOf = (n: number) => `00000000-0000-4000-9000-${String(n).padStart(12, '0')}`;

/**
 * The paged boards of a large book (events/src/paging.ts) through their HTTP routes: every row once, in the
 * unpaged list's order, searched and filtered on the server, only the firm's own, and a bad cursor or limit a
 * 400 that names it.
 */
/** What every board's page answer has in common (events/src/paging.ts). */
type Page = { items: Record<string, unknown>[]; total: number; nextCursor: string | null };

describe('paged deals, documents, leads and matches', () => {
  let database: TestDatabase;
  let context: OpenedContext;
  let app: FastifyInstance;
  let base = '';
  const people: Record<'alice' | 'bob', { firmId: string; cookie: string }> = {} as never;

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = parseConfig({ DATABASE_URL: database.url, LOG_LEVEL: 'warn', AUTOMATION: 'off' });
    context = await openServiceContext(config, createLogger('warn', 'board-paging-test'), database.url, readModelMigrations);
    app = await createHttpServer(config, createLogger('warn', 'board-paging-test'));
    await app.register(sessionPlugin, { sessions: context.sessions });
    await app.register(readModelRoutes, { pool: context.pool, cache: new ReadCache(new ReadModelProgress(context.pool, 'test')) });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    for (const name of ['alice', 'bob'] as const) {
      const { token, user } = await context.sessions.signInGuest(`board paging ${name}`);
      people[name] = { firmId: user.firmId, cookie: `${SESSION_COOKIE}=${encodeURIComponent(token)}` };
    }
    const alice = people.alice.firmId;
    const bob = people.bob.firmId;
    const events: DomainEvent[] = [];
    const regions = ['Harbour Row, Bristol', 'Mill Lane, Leeds', 'Deansgate, Manchester'];
    // 26 deals of Alice's firm (the 26th on the third page of ten), one of Bob's.
    for (let n = 1; n <= 27; n++) {
      const owner = n === 27 ? bob : alice;
      events.push(
        dealOpened({
          dealId: dealIdOf(n),
          source: 'manual',
          agreedInConversationId: null,
          borrower: {
            agentId: 1000 + n,
            ownerId: owner,
            firmId: owner,
            name: n % 2 ? `Amelia Reid ${n}` : `Owen Price ${n}`,
            type: 'borrower',
          },
          lender: { agentId: 2000 + n, ownerId: owner, firmId: owner, name: 'Northern Bank', type: 'lender' },
          propertyAddress: `${n} ${regions[n % 3]}`,
          loanAmount: 200_000 + n * 1000,
        }),
      );
    }
    events.push({ type: 'DealStatusChanged', data: { dealId: dealIdOf(5), status: 'pending', from: 'active' } });
    // Documents: two on deal 3 (Harbour Row), one on deal 4 (Mill Lane), one on Bob's deal.
    const uploaded = (n: number, deal: number, name: string, documentType: 'valuation' | 'legal', owner: string): DomainEvent => ({
      type: 'DocumentUploaded',
      data: {
        documentId: documentIdOf(n),
        dealId: dealIdOf(deal),
        name,
        documentType,
        contentType: 'application/pdf',
        size: 1000 * n,
        sha256: '0'.repeat(64),
        uploadedBy: { userId: owner },
        ownerIds: [owner],
      },
    });
    events.push(
      uploaded(1, 3, 'Survey.pdf', 'valuation', alice),
      uploaded(2, 3, 'Title deeds.pdf', 'legal', alice),
      uploaded(3, 4, 'Mortgage offer.pdf', 'legal', alice),
      uploaded(4, 27, 'Bob survey.pdf', 'valuation', bob),
    );
    // Leads: Alice's agents 1–12 with criteria of every shape, Bob's 13.
    const criteria = [
      null,
      { propertyValueMin: '£250k', propertyValueMax: '£400k' },
      { interestRateMin: '3.9%' },
      { loanTermMax: '25 years', propertyValueMin: '' },
      { propertyValueMax: '£650,000', interestRateMin: '4%', interestRateMax: '5.5%', loanTermMin: '10 years' },
    ];
    const types = ['borrower', 'lender', 'broker'] as const;
    for (let id = 1; id <= 13; id++) {
      const owner = id === 13 ? bob : alice;
      events.push({
        type: 'AgentCreated',
        data: {
          agentId: id,
          ownerId: owner,
          firmId: owner,
          name: `Lead ${id}`,
          type: types[id % 3]!,
          description: '',
          criteria: criteria[id % 5]!,
        },
      });
    }
    // Matches: 12 between Alice's agents, one between Bob's and another firm's.
    for (let n = 1; n <= 13; n++) {
      const owner = n === 13 ? bob : alice;
      events.push({
        type: 'MatchFound',
        data: { matchId: `match-${n}`, borrowerAgentId: 1, lenderAgentId: 2, brokerAgentId: null, score: 70 + n, explanation: [] },
      });
      events.push({
        type: 'ConversationStarted',
        data: {
          conversationId: 500 + n,
          title: `Match ${n}`,
          matchId: `match-${n}`,
          participants: [
            { agentId: 1, ownerId: owner, firmId: owner, name: `Borrower ${n}`, type: 'borrower' },
            { agentId: 2, ownerId: owner, firmId: owner, name: 'Northern Bank', type: 'lender' },
          ],
        },
      });
    }
    const client = await context.pool.connect();
    try {
      await projectReadModels(client, recorded(events));
    } finally {
      client.release();
    }
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await context?.close();
    await database?.drop();
  });

  const get = async <T = unknown>(who: 'alice' | 'bob', path: string) => {
    const response = await fetch(`${base}${path}`, { headers: { cookie: people[who].cookie } });
    return { status: response.status, body: (await response.json()) as T };
  };
  /** Every page of a list, following the cursors. */
  const everyPage = async (path: string, limit: number) => {
    const pages: Page[] = [];
    let cursor: string | null = null;
    do {
      const separator = path.includes('?') ? '&' : '?';
      const page: { status: number; body: Page } = await get<Page>(
        'alice',
        `${path}${separator}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(page.status).toBe(200);
      pages.push(page.body);
      cursor = page.body.nextCursor;
    } while (cursor);
    return pages;
  };

  it('pages deals in the list’s order, searched by address or borrower and filtered by status, the firm’s own only', async () => {
    const list = await get('alice', '/api/deals');
    const pages = await everyPage('/api/deals/page', 10);
    expect(pages.map((page) => page.items.length)).toEqual([10, 10, 6]);
    expect(pages.every((page) => page.total === 26)).toBe(true);
    const paged = pages.flatMap((page) => page.items);
    expect(paged).toEqual(list.body);
    // Newest first: the first deal opened is the 26th.
    expect(paged[25]!.propertyAddress).toBe('1 Mill Lane, Leeds');

    const harbour = await get<DealPage>('alice', '/api/deals/page?q=HARBOUR%20row');
    expect(harbour.body.total).toBe(8);
    expect(harbour.body.items.every((deal) => deal.propertyAddress.includes('Harbour Row'))).toBe(true);
    expect((await get<DealPage>('alice', '/api/deals/page?q=owen%20price%2012')).body.items.map((d) => d.borrowerName)).toEqual([
      'Owen Price 12',
    ]);
    const pending = await get<DealPage>('alice', '/api/deals/page?status=pending');
    expect(pending.body).toMatchObject({ total: 1, nextCursor: null, items: [{ id: dealIdOf(5), status: 'pending' }] });
    // "%" is searched for as it is, not as a pattern.
    expect((await get<DealPage>('alice', '/api/deals/page?q=%25')).body.total).toBe(0);
    const bobs = await get<DealPage>('bob', '/api/deals/page');
    expect(bobs.body.items.map((deal) => deal.id)).toEqual([dealIdOf(27)]);
  });

  it('pages documents newest first, searched by name or deal address and filtered by type', async () => {
    const pages = await everyPage('/api/documents/page', 2);
    expect(pages.flatMap((page) => page.items).map((d) => d.name)).toEqual(['Mortgage offer.pdf', 'Title deeds.pdf', 'Survey.pdf']);
    expect(pages.flatMap((page) => page.items)).toEqual((await get('alice', '/api/documents')).body);
    expect((await get<DocumentPage>('alice', '/api/documents/page?q=harbour')).body.items.map((d) => d.name)).toEqual([
      'Title deeds.pdf',
      'Survey.pdf',
    ]);
    expect((await get<DocumentPage>('alice', '/api/documents/page?q=survey')).body.items).toMatchObject([
      { name: 'Survey.pdf', dealAddress: '3 Harbour Row, Bristol' },
    ]);
    expect((await get<DocumentPage>('alice', '/api/documents/page?type=legal&q=mill')).body.items.map((d) => d.name)).toEqual([
      'Mortgage offer.pdf',
    ]);
    expect((await get<DocumentPage>('bob', '/api/documents/page')).body.items.map((d) => d.name)).toEqual(['Bob survey.pdf']);
  });

  it('pages leads newest first, searched by name or by requirements as the card words them, filtered by type', async () => {
    const pages = await everyPage('/api/leads/page', 5);
    const leads = pages.flatMap((page) => page.items) as { id: number; name: string; type: string; requirement: string }[];
    expect(leads.map((lead) => lead.id)).toEqual([12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    expect(leads).toEqual((await get('alice', '/api/leads')).body);
    // The server's words for a requirement are the card's: every lead is found by its own.
    for (const lead of leads) {
      const found = await pageLeads(context.pool, people.alice.firmId, { q: lead.requirement, limit: 100 });
      expect(found.items.map((item) => item.id)).toContain(lead.id);
      expect(found.items.every((item) => item.requirement.toLowerCase().includes(lead.requirement.toLowerCase()))).toBe(true);
    }
    expect(describeRequirement('borrower', { loanTermMax: '25 years', propertyValueMin: '' })).toBe('Needs: Term up to 25 years');
    expect((await get<LeadPage>('alice', '/api/leads/page?q=term%20up%20to')).body.items.map((l) => l.id)).toEqual([8, 3]);
    expect((await get<LeadPage>('alice', '/api/leads/page?q=lead%2011')).body.items.map((l) => l.id)).toEqual([11]);
    expect((await get<LeadPage>('alice', '/api/leads/page?type=lender')).body.items.map((l) => l.id)).toEqual([10, 7, 4, 1]);
    expect((await get<LeadPage>('bob', '/api/leads/page')).body.items.map((l) => l.id)).toEqual([13]);
  });

  it('pages matches newest first, the firm’s own only', async () => {
    const pages = await everyPage('/api/matches/page', 5);
    const matches = pages.flatMap((page) => page.items);
    expect(matches.map((match) => match.id)).toEqual(Array.from({ length: 12 }, (_, i) => `match-${12 - i}`));
    expect(matches).toEqual((await get('alice', '/api/matches')).body);
    expect((await get('bob', '/api/matches/page')).body).toMatchObject({ total: 1, items: [{ id: 'match-13', borrower: 'Borrower 13' }] });
  });

  it('answers a bad cursor, limit or filter with a 400 that names it', async () => {
    for (const board of ['deals', 'documents', 'leads', 'matches']) {
      // Base64url of "not-a-key": well formed, but no cursor of a page.
      const forged = await get('alice', `/api/${board}/page?cursor=bm90LWEta2V5`);
      expect(forged).toMatchObject({ status: 400, body: { message: 'cursor: cursor must be a cursor from a previous page' } });
      expect((await get<ApiError>('alice', `/api/${board}/page?cursor=not*a*cursor`)).body.message).toMatch(/^cursor/);
      expect(await get('alice', `/api/${board}/page?limit=0`)).toMatchObject({
        status: 400,
        body: { message: 'limit: limit must be at least 1' },
      });
      expect((await get<ApiError>('alice', `/api/${board}/page?limit=101`)).body.message).toBe('limit: limit must be at most 100');
    }
    // Another list's cursor is not this one's.
    const leadCursor = (await get<LeadPage>('alice', '/api/leads/page?limit=1')).body.nextCursor;
    expect((await get('alice', `/api/deals/page?cursor=${leadCursor}`)).status).toBe(400);
    expect((await get<ApiError>('alice', '/api/deals/page?status=lost')).body.message).toBe(
      'status: status must be one of active, pending, completed, cancelled',
    );
    expect((await get('alice', '/api/matches/page?q=x')).status).toBe(400);
  });
});
