import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, PostgresEventStore, readingTheContract, type EventStore } from '@pf/infra';
import { formatPosition, type AgentView, type CurrentUserView } from '@pf/events';
import { createTestDatabase, type TestDatabase } from '@pf/infra/testing';
import { liveRebuild } from '@pf/query-service';
import { generateEvents } from '../../../bench/lib/generate';
import { startSingleNode, type RunningServer } from './server';
import { ApiClient } from './testing/api-client';
import { testServerEnv } from './testing/server-env';
import { rebuiltRows } from './testing/rebuilt-rows';
import { followersSettled } from './testing/settled';

/**
 * The migration to firms (docs/decisions/firms-and-visibility.md): a database whose accounts and read models
 * were made before firms (events without firmId; no firm columns, tables or fields) is migrated at start, and
 * what the migration leaves equals, row for row, what `npm run rebuild` then gives; every account is a firm
 * of one whose id is its own, with its person as admin.
 */
describe('the migration to firms', () => {
  let database: TestDatabase;
  let server: RunningServer | undefined;
  let pool: pg.Pool;
  let store: EventStore;

  const snapshot = () => rebuiltRows(pool);
  /** Waits until the projector and the analytics consumer have the whole store (reads naming the head wait for both). */
  const settle = async (client: ApiClient) => {
    client.lastPosition = formatPosition(await store.headPosition());
    expect((await client.get('/api/agents')).status).toBe(200);
    expect((await client.get('/api/analytics/report?period=last30')).status).toBe(200);
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    server = await startSingleNode(testServerEnv(database.url, { AUTOMATION: 'off' }));
    pool = createPool(database.url);
    store = readingTheContract(new PostgresEventStore(pool, database.url));
  });
  afterAll(async () => {
    await server?.close();
    await store?.close();
    await pool?.end();
    await database?.drop();
  });

  it('turns every account into a firm of one and leaves the rows a rebuild gives', async () => {
    // A history written before firms: agents, negotiations, deals and documents of many people, no firmId anywhere.
    await generateEvents(pool, store, 1_500);
    const people = await Promise.all([ApiClient.signIn(server!.url), ApiClient.signIn(server!.url)]);
    await people[0].post('/api/seed-demo');
    const ids = await Promise.all(people.map(async (person) => (await person.get<CurrentUserView>('/api/auth/user')).body.id));
    // Events of that time carried no firm: take it out of those the seed just wrote too.
    await pool.query(`update events set data = data - 'firmId' - 'isDemo' where type = 'AgentCreated'`);
    await pool.query(`update events set data = data - 'firmId' where type in ('NotificationRead', 'AllNotificationsRead')`);
    await pool.query(
      `update events set data = jsonb_set(data, '{participants}', (select jsonb_agg(p - 'firmId') from jsonb_array_elements(data->'participants') p)) where type = 'ConversationStarted'`,
    );
    await pool.query(`update events set data = jsonb_set(data, '{borrower}', (data->'borrower') - 'firmId') where type = 'DealOpened'`);
    await pool.query(`update events set data = jsonb_set(data, '{lender}', (data->'lender') - 'firmId') where type = 'DealOpened'`);
    await pool.query(
      `update events set data = jsonb_set(data, '{broker}', (data->'broker') - 'firmId') where type = 'DealOpened' and jsonb_typeof(data->'broker') = 'object'`,
    );
    // The deal opener has opened a deal for every agreement (else it would go on after the restart, mid-comparison).
    const count = async (type: string) =>
      (await pool.query<{ n: number }>('select count(*)::int as n from events where type = $1', [type])).rows[0]!.n;
    await expect
      .poll(async () => (await count('DealOpened')) - (await count('DealAgreed')), { timeout: 30_000, interval: 100 })
      .toBeGreaterThanOrEqual(0);
    // And the illustration maker has made every agreed deal's illustration (else it would write them after the
    // restart, between the snapshot of what the migration left and the rebuild compared with it).
    await followersSettled(server!, pool);
    // The read models as they stood before firms: rebuilt from those events, then the firm columns, fields and tables taken away.
    await settle(people[0]);
    await server!.close();
    server = undefined;
    await liveRebuild(pool, store);
    await pool.query(`
      alter table rm_agents drop column firm_id;
      alter table rm_participants drop column firm_id;
      update rm_lead_board set doc = doc - 'firmId';
      alter table rm_an_agents drop column firm_id;
      alter table rm_notifications rename column firm_id to user_id;
      drop index rm_notifications_firm;
      create index rm_notifications_user on rm_notifications (user_id, created_at desc);
      alter table users drop column firm_id, drop column firm_role;
      drop table firm_invites;
      drop table firms;
      delete from schema_migrations where name in ('auth/003-firms', 'query-service/agents/002-firms', 'query-service/conversations/003-firms',
        'query-service/leads/002-firms', 'query-service/analytics/004-firms', 'query-service/notifications/002-firms');
    `);

    // Started again: the migrations run.
    server = await startSingleNode(testServerEnv(database.url, { AUTOMATION: 'off' }));
    // The same person on the started node (their session cookie still signs them in).
    const again = new ApiClient(server.url);
    again.cookie = people[0].cookie;
    await followersSettled(server, pool);
    await settle(again);
    const users = await pool.query<{ id: string; firm_id: string; firm_role: string; name: string }>(
      'select u.id, u.firm_id, u.firm_role, f.name from users u join firms f on f.id = u.firm_id order by u.id',
    );
    expect(users.rows.map((u) => [u.id, u.firm_id, u.firm_role, u.name])).toEqual(
      [...ids].sort().map((id) => [id, id, 'admin', "Guest Operator's firm"]),
    );
    const migrated = await snapshot();
    expect(migrated.rm_agents!.length).toBeGreaterThan(100);
    expect(migrated.rm_agents!.every((row) => row.firm_id === row.owner_id)).toBe(true);
    // Notifications kept under a person's id are their firm of one's: every one is addressed to an agent owner's id.
    const owners = new Set(migrated.rm_agents!.map((row) => row.owner_id as string));
    expect(migrated.rm_notifications!.length).toBeGreaterThan(0);
    expect([...new Set(migrated.rm_notifications!.map((row) => row.firm_id as string))].filter((id) => !owners.has(id))).toEqual([]);

    await liveRebuild(pool, store);
    expect(await snapshot()).toEqual(migrated);

    // Each person still sees what was theirs, now their firm's.
    expect((await again.get<AgentView[]>('/api/agents')).body.length).toBeGreaterThan(0);
  });
});
