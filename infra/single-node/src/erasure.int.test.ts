import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { HARRIET_COLE, WESSEX_BUILDING_SOCIETY } from '@pf/events/testing';
import { HISTORY_PAGE_MAX } from '@pf/events';
import type {
  AgentView,
  ConversationView,
  CreatedApiTokenView,
  CurrentUserView,
  DealView,
  HistoryExport,
  InviteView,
  MessageView,
} from '@pf/events';
import { PostgresEventStore, readingTheContract, verifyAllStreams } from '@pf/infra';
import { liveRebuild } from '@pf/query-service';
import { ApiClient } from './testing/api-client';
import { readFeedPage } from './testing/event-feed';
import { testSingleNode } from './testing/single-node';

const NAME = 'Quimby';
const EMAIL = 'carol.quimby@example.co.uk';
const ADDRESS = '12 Acacia Avenue, Leeds LS1 4AB';
const TYPED = 'Write to me at 12 Acacia Avenue about the valuation';
const PERSONAL = [NAME, EMAIL, 'Acacia', TYPED];

const holding = (text: string) => PERSONAL.filter((personal) => text.includes(personal));

/**
 * Erasure that reaches every copy (docs/decisions/hash-chain.md "Erasure"): Carol, an operator of Harbour, deletes
 * her account while her borrower negotiates with Northgate's lender; from the answer on, nothing either firm reads
 * (the feed, every read model row, the history and its exports, notifications) holds her name, email, address or
 * what she typed, and every hash chain still verifies. Real PostgreSQL, real HTTP, the automated agents on.
 */
describe('a person deleted mid-negotiation', () => {
  const node = testSingleNode({ AUTOMATION: 'on', AGENT_REPLY_DELAY_MS: '300' });

  it('leaves no feed event, read model, export or notification holding their personal data', async () => {
    const url = node.server.url;
    const ada = await ApiClient.signIn(url);
    await ada.put('/api/auth/profile', { firstName: 'Ada', lastName: 'Admin' });
    await ada.put('/api/firm', { name: 'Harbour Mortgages' });
    const carol = await ApiClient.signIn(url);
    expect((await carol.post('/api/firm/join', { token: (await ada.post<InviteView>('/api/firm/invites', {})).body.token })).status).toBe(
      200,
    );
    await carol.put('/api/auth/profile', { firstName: 'Carol', lastName: NAME, email: EMAIL, address: ADDRESS });
    const bob = await ApiClient.signIn(url);
    await bob.put('/api/firm', { name: 'Northgate Lending' });
    const adaToken = (await ada.post<CreatedApiTokenView>('/api/auth/tokens', { name: 'Harbour job', scopes: ['events:read'] })).body.token;
    const bobToken = (await bob.post<CreatedApiTokenView>('/api/auth/tokens', { name: 'Northgate job', scopes: ['events:read'] })).body
      .token;

    const borrower = (
      await carol.post<AgentView>('/api/agents', { ...HARRIET_COLE, name: `Carol ${NAME}`, description: `Carol ${NAME}, ${EMAIL}` })
    ).body;
    const harbourLender = (await ada.post<AgentView>('/api/agents', { ...WESSEX_BUILDING_SOCIETY, name: 'Harbour Lending Desk' })).body;
    await bob.post<AgentView>('/api/agents', { ...WESSEX_BUILDING_SOCIETY, name: 'Northgate Lender' });
    const withBob = async () =>
      (await bob.get<ConversationView[]>('/api/conversations')).body.find((c) => c.participants.some((p) => p.agentId === borrower.id));
    await expect.poll(async () => (await withBob())?.id, { timeout: 20_000 }).toBeDefined();
    const conversation = (await withBob())!;

    // Carol takes her side over mid-negotiation and types; she records a deal's address with her firm's lender.
    expect((await carol.patch(`/api/conversations/${conversation.id}`, { isManualMode: true })).status).toBe(200);
    expect((await carol.post(`/api/conversations/${conversation.id}/messages`, { content: TYPED })).status).toBeLessThan(300);
    const deal = await carol.post<DealView>('/api/deals', {
      borrowerAgentId: borrower.id,
      lenderAgentId: harbourLender.id,
      propertyAddress: ADDRESS,
      propertyValue: 300_000,
      loanAmount: 200_000,
      interestRate: 4.25,
      termYears: 25,
      arrangementFee: 999,
    });
    expect(deal.status).toBe(201);
    const thread = async () => (await bob.get<MessageView[]>(`/api/conversations/${conversation.id}/messages`)).body;
    await expect.poll(async () => (await thread()).some((m) => m.content === TYPED), { timeout: 10_000 }).toBe(true);
    expect((await bob.get<ConversationView>(`/api/conversations/${conversation.id}`)).body.status).not.toBe('completed');
    // Before: the feeds carry her words, so the checks below can fail.
    const before = (await readFeedPage(url, bobToken)).text + (await readFeedPage(url, adaToken)).text;
    expect(holding(before)).toEqual(PERSONAL);

    const carolId = (await carol.get<CurrentUserView>('/api/auth/user')).body.id;
    expect((await carol.request('DELETE', '/api/auth/account', { confirm: 'DELETE' })).status).toBe(200);

    // From the answer on: the feeds of both firms.
    for (const token of [bobToken, adaToken]) {
      const feed = await readFeedPage(url, token);
      expect(feed.status).toBe(200);
      expect(holding(feed.text)).toEqual([]);
    }
    // The history, and both of its exports, for both firms; the exported chain still verifies.
    for (const reader of [bob, ada]) {
      const history = await reader.get<{ events: unknown[] }>(`/api/conversations/${conversation.id}/history?limit=${HISTORY_PAGE_MAX}`);
      expect(history.status).toBe(200);
      expect(holding(JSON.stringify(history.body))).toEqual([]);
      const json = await reader.get<HistoryExport>(`/api/conversations/${conversation.id}/history/export?format=json`);
      expect(holding(JSON.stringify(json.body))).toEqual([]);
      expect(json.body.verification.intact).toBe(true);
      expect(json.body.events.some((event) => event.redacted && event.contentDigest)).toBe(true);
      const csv = await fetch(`${url}/api/conversations/${conversation.id}/history/export?format=csv`, {
        headers: { cookie: reader.cookie },
      });
      expect(holding(await csv.text())).toEqual([]);
    }

    // Every read model row (notifications included) once the projector has passed the deletion, and what each
    // firm's people read.
    const db = new pg.Pool({ connectionString: node.database.url, max: 2 });
    try {
      const rowsHolding = async () => {
        const tables = await db.query<{ name: string }>(
          "select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' and table_name like 'rm\\_%'",
        );
        const found: string[] = [];
        for (const { name } of tables.rows) {
          const rows = (await db.query<{ row: string }>(`select t::text as row from "${name}" t`)).rows;
          for (const { row } of rows)
            for (const text of holding(row)) found.push(`${name}: ${text} ${process.env.ERASURE_DEBUG ? row : ''}`.trim());
        }
        return [...new Set(found)];
      };
      await expect.poll(rowsHolding, { timeout: 15_000 }).toEqual([]);
      // A board refilled alone is erased as the live one was (the rebuild runs the erasure step after it).
      const log = readingTheContract(new PostgresEventStore(db, node.database.url));
      try {
        const rebuilt = await liveRebuild(db, log, { only: ['deals', 'leads'] });
        expect(rebuilt.parts).toContain('erasure');
      } finally {
        await log.close();
      }
      expect(await rowsHolding()).toEqual([]);
      for (const reader of [bob, ada]) {
        for (const path of ['/api/conversations', `/api/conversations/${conversation.id}/messages`, '/api/deals', '/api/notifications']) {
          const answer = await reader.get(path);
          expect(holding(JSON.stringify(answer.body)), path).toEqual([]);
        }
      }
      // The events themselves are not rewritten: every chain verifies.
      const store = new PostgresEventStore(db, node.database.url);
      try {
        expect((await verifyAllStreams(store)).filter((stream) => !stream.intact)).toEqual([]);
      } finally {
        await store.close();
      }
      expect(carolId).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      await db.end();
    }
  });
});
