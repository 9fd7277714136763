import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatPosition, type AgentView, type ApiError, type CurrentUserView, type RebuildStatusView } from '@pf/events';
import {
  analyticsCheckpointName,
  applyOnce,
  createPool,
  loadAppliedThrough,
  loadCheckpoint,
  PostgresEventStore,
  readingTheContract,
  type EventStore,
} from '@pf/infra';
import { createTestDatabase, type TestDatabase } from '@pf/infra/testing';
import { liveRebuild, UnknownReadModel, type RebuildProgress } from '@pf/query-service';
import { generateEvents } from '../../../bench/lib/generate';
import { startSingleNode, type RunningServer } from './server';
import { ApiClient } from './testing/api-client';
import { testServerEnv } from './testing/server-env';
import { rebuiltRows } from './testing/rebuilt-rows';
import { followersSettled } from './testing/settled';

/**
 * The live rebuild (docs/decisions/live-rebuild.md) on a real single node and PostgreSQL: commands keep
 * answering and their reads keep showing them while it runs, and what it leaves equals what a rebuild of the
 * stopped product gives; an interrupted rebuild leaves the live tables alone and is taken up again.
 */
describe('live rebuild of the read models', () => {
  let database: TestDatabase;
  let server: RunningServer | undefined;
  let pool: pg.Pool;
  let store: EventStore;

  const snapshot = () => rebuiltRows(pool);
  const oidOf = async (table: string) =>
    (await pool.query<{ oid: number }>(`select to_regclass($1)::oid::int as oid`, [table])).rows[0]!.oid;
  /** Every index of the read models' tables, by name and definition (a switch keeps them as they were). */
  const indexes = async () =>
    (
      await pool.query<{ indexname: string; indexdef: string }>(
        `select indexname, indexdef from pg_indexes where schemaname = 'public' and tablename like 'rm\\_%' order by indexname`,
      )
    ).rows;
  let liveIndexes: unknown[];
  const rebuildSchemaTables = async () =>
    Number((await pool.query<{ n: string }>(`select count(*) as n from pg_tables where schemaname like 'rm_rebuild%'`)).rows[0]!.n);

  beforeAll(async () => {
    database = await createTestDatabase();
    server = await startSingleNode(testServerEnv(database.url));
    pool = createPool(database.url);
    store = readingTheContract(new PostgresEventStore(pool, database.url));
    // A history of other users (agents, negotiated conversations with messages and offers, deals), as the bench makes it.
    await generateEvents(pool, store, 6_000);
    liveIndexes = await indexes();
    expect(liveIndexes.length).toBeGreaterThan(20);
  });
  afterAll(async () => {
    await server?.close();
    await store?.close();
    await pool?.end();
    await database?.drop();
  });

  let afterLive: Record<string, unknown[]>;
  let alice: ApiClient;
  let aliceId: string;

  it('keeps commands answering and reads showing them while it rebuilds, then equals a rebuild of the stopped product', async () => {
    alice = await ApiClient.signIn(server!.url);
    aliceId = (await alice.get<CurrentUserView>('/api/auth/user')).body.id;
    const agent = (await alice.post<AgentView>('/api/agents', { name: 'Live Rebuild Borrower', type: 'borrower' })).body;
    // Settled: the projector has the generated history (the read names the last position).
    expect((await alice.get(`/api/agents/${agent.id}`)).status).toBe(200);

    const phases: RebuildProgress['phase'][] = [];
    let phase: RebuildProgress['phase'] = 'preparing';
    const rebuild = liveRebuild(pool, store, {
      batchSize: 250,
      lanes: 3,
      onProgress: (progress) => {
        phase = progress.phase;
        if (phases.at(-1) !== phase) phases.push(phase);
      },
    });
    let finished = false;
    const result = rebuild.finally(() => (finished = true));

    // A person editing an agent throughout: every command answers, and the read after it shows the change.
    const answered: { status: number; shown: boolean; during: RebuildProgress['phase'] }[] = [];
    for (let n = 0; !finished || n < 3; n++) {
      const description = `Edited during the rebuild, ${n}`;
      const edit = await alice.put(`/api/agents/${agent.id}`, { description });
      const read = await alice.get<AgentView>(`/api/agents/${agent.id}`);
      answered.push({ status: edit.status, shown: read.status === 200 && read.body.description === description, during: phase });
    }
    const done = await result;

    expect(phases).toEqual(['preparing', 'building', 'switching', 'done']);
    expect(done.applied).toBeGreaterThan(6_000);
    expect(done.resumed).toBe(false);
    expect(answered.filter((a) => a.status !== 200 || !a.shown)).toEqual([]);
    // Not a test of nothing: edits were answered and read back while the new tables were being built.
    expect(answered.filter((a) => a.during === 'building').length).toBeGreaterThan(0);
    expect(await rebuildSchemaTables()).toBe(0);

    // Every follower settled on the last edit, then the product stopped.
    expect((await alice.get('/api/analytics/report')).status).toBe(200);
    expect((await alice.get('/api/analytics/daily')).status).toBe(200);
    expect((await alice.get<AgentView>(`/api/agents/${agent.id}`)).body.description).toBe(
      `Edited during the rebuild, ${answered.length - 1}`,
    );
    // And on what came after it: the illustrations of the generated deals, which the daily counts (rebuilt too) follow
    // in background batches.
    await followersSettled(server!, pool, { timeoutMs: 60_000 });
    await server!.close();
    server = undefined;
    afterLive = await snapshot();
    expect(afterLive.rm_agents!.length).toBeGreaterThan(300);
    expect(afterLive.rm_messages!.length).toBeGreaterThan(1_000);
    expect(afterLive.rm_an_offers!.length).toBeGreaterThan(0);

    expect(await indexes()).toEqual(liveIndexes);
    // With no one following the log, the other indexes are built once the rows are in: the same indexes. Autovacuum
    // is kept off the copies while they are filled, and the live tables have the migrations' settings after.
    const settings = (schema: string) =>
      pool.query<{ name: string; options: string[] | null }>(
        `select c.relname as name, c.reloptions as options from pg_class c join pg_namespace n on n.oid = c.relnamespace
         where n.nspname = $1 and c.relkind = 'r' and c.relname like 'rm\\_%' order by 1`,
        [schema],
      );
    let duringFill: ReturnType<typeof settings> | undefined;
    // The indexes the folds load their rows through are there while the rows go in (ReadModel.foldIndexes); the rest come after.
    let indexesDuringFill: Promise<string[]> | undefined;
    const rebuildIndexes = async () =>
      (await pool.query<{ name: string }>(`select indexname as name from pg_indexes where schemaname = 'rm_rebuild' order by 1`)).rows.map(
        (row) => row.name,
      );
    await liveRebuild(pool, store, {
      onProgress: (progress) => {
        if (progress.phase !== 'building') return;
        duringFill ??= settings('rm_rebuild');
        indexesDuringFill ??= rebuildIndexes();
      },
    });
    expect(await indexesDuringFill).toEqual(
      expect.arrayContaining(['rm_an_deals_borrower', 'rm_an_offers_borrower', 'rm_lead_board_conversations', 'rm_messages_pkey']),
    );
    expect(await indexesDuringFill).not.toContain('rm_messages_conversation');
    expect(await snapshot()).toEqual(afterLive);
    expect(await indexes()).toEqual(liveIndexes);
    // Both rebuilds copied their new rows in (projection-kit/bulk-fill.ts); every row through the read models'
    // statements, as the projector writes them, gives the same rows.
    await liveRebuild(pool, store, { copyRows: false });
    expect(await snapshot()).toEqual(afterLive);
    const filled = (await duringFill!).rows;
    expect(filled.length).toBeGreaterThan(20);
    expect(filled.filter((table) => !table.options?.includes('autovacuum_enabled=false'))).toEqual([]);
    expect((await settings('public')).rows.filter((table) => table.options !== null)).toEqual([]);

    // Planner statistics from before the switch for the columns the indexes are built on; a text only shown (a
    // message's content) is left to autovacuum, for which the table stays due (shadow.ts: analyzeIndexedColumns).
    const messages = async () =>
      (
        await pool.query<{ due: boolean; auto: boolean; columns: string[] }>(
          `select t.n_mod_since_analyze > 0 as due, t.last_autoanalyze is not null as auto,
             array(select attname::text from pg_stats s where s.schemaname = 'public' and s.tablename = 'rm_messages' order by 1) as columns
           from pg_stat_user_tables t where t.schemaname = 'public' and t.relname = 'rm_messages'`,
        )
      ).rows[0]!;
    expect((await messages()).columns).toEqual(expect.arrayContaining(['conversation_id', 'id', 'seq']));
    // The rebuild's connections report their counts as they close: waited for, not assumed.
    let standing = await messages();
    for (const deadline = Date.now() + 10_000; !standing.due && !standing.auto && Date.now() < deadline; standing = await messages())
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(standing.due || standing.auto).toBe(true);
    if (!standing.auto) expect(standing.columns).not.toContain('content');
  }, 120_000);

  it('leaves the live tables untouched when interrupted, and takes the rebuild up where it stopped', async () => {
    const stop = new AbortController();
    const liveOid = await oidOf('rm_messages');
    const interrupted = liveRebuild(pool, store, {
      batchSize: 500,
      onProgress: (progress) => {
        if (progress.done >= 2_000) stop.abort(new Error('interrupted by the test'));
      },
      signal: stop.signal,
    });
    await expect(interrupted).rejects.toThrow('interrupted by the test');
    expect(await oidOf('rm_messages')).toBe(liveOid);
    expect(await snapshot()).toEqual(afterLive);
    expect(await rebuildSchemaTables()).toBeGreaterThan(0);

    const again = await liveRebuild(pool, store, { batchSize: 500 });
    expect(again.resumed).toBe(true);
    expect(again.applied).toBeGreaterThan(0);
    // Only what the interrupted run had not committed (its progress counted 2,000 committed events).
    const stored = Number((await pool.query<{ n: string }>('select count(*) as n from events')).rows[0]!.n);
    expect(again.applied).toBeLessThanOrEqual(stored - 2_000);
    expect(await oidOf('rm_messages')).not.toBe(liveOid);
    expect(await snapshot()).toEqual(afterLive);
    expect(await rebuildSchemaTables()).toBe(0);
  });

  it('rebuilds one read model alone (with the ones it reads, and the erasure step after it), leaving the other tables in place', async () => {
    const before = {
      agents: await oidOf('rm_agents'),
      deals: await oidOf('rm_deal_board'),
      notifications: await oidOf('rm_notifications'),
    };
    const deals = await liveRebuild(pool, store, { only: ['deals'] });
    expect(deals.parts).toEqual(['deals', 'erasure']);
    expect(await oidOf('rm_deal_board')).not.toBe(before.deals);
    expect(await oidOf('rm_agents')).toBe(before.agents);
    expect(await snapshot()).toEqual(afterLive);

    const notifications = await liveRebuild(pool, store, { only: ['notifications'] });
    expect(notifications.parts).toEqual(['agents', 'conversations', 'notifications', 'erasure']);
    expect(await oidOf('rm_notifications')).not.toBe(before.notifications);
    expect(await snapshot()).toEqual(afterLive);

    await expect(liveRebuild(pool, store, { only: ['dealz'] })).rejects.toBeInstanceOf(UnknownReadModel);
  });

  it('runs from the admin endpoint for an administrator only, and says how it stands', async () => {
    server = await startSingleNode(testServerEnv(database.url, { ADMIN_USER_IDS: aliceId }));
    const admin = new ApiClient(server.url);
    admin.cookie = alice.cookie;
    const other = await ApiClient.signIn(server.url);
    expect((await other.post('/api/admin/rebuild', {})).status).toBe(403);
    expect((await other.get('/api/admin/rebuild')).status).toBe(403);
    const unknown = await admin.post<ApiError>('/api/admin/rebuild', { only: ['dealz'] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain('only');
    expect((await admin.post('/api/admin/rebuild', { everything: true })).status).toBe(400);

    const before = await oidOf('rm_deal_board');
    const started = await admin.post<RebuildStatusView>('/api/admin/rebuild', { only: ['deals'] });
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ running: true, parts: ['deals', 'erasure'] });
    let status = started.body;
    while (status.running) status = (await admin.get<RebuildStatusView>('/api/admin/rebuild')).body;
    expect(status).toMatchObject({ phase: 'done', error: null, parts: ['deals', 'erasure'] });
    expect(status.line).toMatch(/^Rebuilt deals, erasure from [\d,]+ events/);
    expect(await oidOf('rm_deal_board')).not.toBe(before);
    // The start appends events of its own (the day's invoicing run), which every follower applies, the daily counts
    // among them: what the product leaves once settled and stopped is what a rebuild of the stopped product gives.
    await followersSettled(server, pool, { timeoutMs: 60_000 });
    await server.close();
    server = undefined;
    const afterAdmin = await snapshot();
    await liveRebuild(pool, store);
    expect(await snapshot()).toEqual(afterAdmin);
  });

  it("moves the analytics consumer's watermark at the switch rather than claiming each event it covers", async () => {
    // The analytics facts consumer (read-models/analytics/consumer.ts); events appended while the product is stopped.
    const consumer = 'facts';
    const claims = async () =>
      Number(
        (await pool.query<{ n: string }>('select count(*) as n from analytics_processed_events where consumer = $1', [consumer])).rows[0]!
          .n,
      );
    const before = await store.headPosition();
    expect(formatPosition(await loadCheckpoint(pool, analyticsCheckpointName(consumer)))).toBe(formatPosition(before));
    const claimed = await claims();
    const appended = await generateEvents(pool, store, 600);
    expect(appended).toBeGreaterThan(300);

    await liveRebuild(pool, store);
    const head = await store.headPosition();
    expect(formatPosition(await loadCheckpoint(pool, analyticsCheckpointName(consumer)))).toBe(formatPosition(head));
    // One row, not a claim per event the switch moved the checkpoint over.
    expect(await claims()).toBe(claimed);
    expect(await loadAppliedThrough(pool, consumer)).toEqual(head);

    // A redelivery (Kafka is at-least-once) of events the rebuilt facts hold, old and new, changes nothing.
    const facts = await snapshot();
    const old = await store.readAll({ commit: 0n, prepare: 0n }, 5);
    const fresh = await store.readAll(before, 5);
    expect(fresh.length).toBeGreaterThan(0);
    let handed = 0;
    expect(await applyOnce(pool, consumer, [...old, ...fresh], async (events) => void (handed += events.length))).toEqual([]);
    expect(handed).toBe(0);
    expect(await claims()).toBe(claimed);
    expect(await snapshot()).toEqual(facts);
  });
});
