import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '@pf/infra/testing';
import { startSingleNode, type RunningServer } from './server';
import { ApiClient } from './testing/api-client';
import { testServerEnv } from './testing/server-env';
import type { AgentView } from '@pf/events';

/**
 * A database last run by an older version: its events are there, but a read model added since has no rows for
 * them. Starting the new version must fill it from the stored events by itself (projector/replay.ts).
 */
describe('starting on a database from an older version', () => {
  let database: TestDatabase;
  let server: RunningServer | null = null;
  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  it('replays the stored events into read models added since, once', async () => {
    database = await createTestDatabase();
    server = await startSingleNode(testServerEnv(database.url));
    const alice = await ApiClient.signIn(server.url);
    const created = await alice.post<AgentView>('/api/agents', {
      name: 'Amelia Hart',
      type: 'borrower',
      criteria: { propertyValueMin: '£250,000' },
    });
    expect(created.status).toBe(201);
    expect((await alice.get('/api/leads')).body).toEqual([expect.objectContaining({ name: 'Amelia Hart' })]);
    await server.close();
    server = null;

    // As the older version left it: the leads board created empty by its migration, the replay never run.
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    await admin.query('truncate rm_lead_board');
    await admin.query("delete from schema_migrations where name like 'query-service/read-models/replay-%'");
    await admin.end();

    server = await startSingleNode(testServerEnv(database.url));
    const again = new ApiClient(server.url);
    again.cookie = alice.cookie;
    again.lastPosition = alice.lastPosition;
    expect((await again.get('/api/leads')).body).toEqual([expect.objectContaining({ name: 'Amelia Hart' })]);
    // Everything else still reads as before the restart: the replay rebuilt the same rows.
    expect((await again.get('/api/agents')).body).toEqual([
      expect.objectContaining({ id: created.body.id, name: 'Amelia Hart' }) as unknown,
    ]);

    // Once per database: a later start replays nothing (the rows stay, the checkpoint stays at the head).
    await server.close();
    server = await startSingleNode(testServerEnv(database.url));
    const checkpoint = new pg.Client({ connectionString: database.url });
    await checkpoint.connect();
    const { rows } = await checkpoint.query<{ n: number }>(
      "select count(*)::int as n from schema_migrations where name like 'query-service/read-models/replay-%'",
    );
    await checkpoint.end();
    expect(rows[0]!.n).toBe(1);
  });
});
