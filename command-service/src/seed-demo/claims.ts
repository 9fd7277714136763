import type pg from 'pg';
import { streams } from '@pf/events';
import type { EventStore, Migration } from '@pf/infra';
import { agentDecider } from '../agent/agent';
import { foldEvents } from '../handle-command';
import { nextId } from '../ids';

/**
 * Which demo agent of a firm stands for which entry of the demo data (docs/behaviour/dashboard.md, "Seed Demo
 * Data"): pressing Seed Demo Data again creates only the demo agents the firm does not have (never made, or
 * deleted since), so no demo name is duplicated. The claim is the row; the agent itself is its events.
 */
export const seedDemoMigrations: Migration[] = [
  {
    name: 'command-service/005-demo-seed-claims',
    sql: `
      create table if not exists demo_seed_agents (
        firm_id text not null,
        demo_key text not null,
        agent_id bigint not null,
        primary key (firm_id, demo_key)
      );
    `,
  },
];

/** Whether the agent a claim names stands: created and not deleted (a claim whose creation never happened does not). */
async function stands(store: EventStore, agentId: number): Promise<boolean> {
  const agent = foldEvents(agentDecider, await store.readStream(streams.agent(agentId)));
  return agent.status !== 'none' && agent.status !== 'deleted';
}

/**
 * Runs one firm's seeding at a time (a PostgreSQL advisory lock held by a connection of its own): a second press
 * while the first still creates waits for it, then finds every demo agent standing.
 */
export async function oneSeedPerFirm<T>(pool: pg.Pool, firmId: string, seed: () => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock(hashtextextended($1, 0))', [`seed-demo:${firmId}`]);
    return await seed();
  } finally {
    // Closed rather than returned to the pool: the lock goes with its session, whatever happened meanwhile.
    client.release(true);
  }
}

/**
 * Claims the demo entry `key` for the firm (under oneSeedPerFirm): the new agent id to create it under, or null
 * when the firm's agent for it stands. A claim left by a press that failed before creating its agent is taken over
 * by the next press, since its agent does not stand; the insert and the swap only succeed on the row as read.
 */
export async function claimDemoAgent(pool: pg.Pool, store: EventStore, firmId: string, key: string): Promise<number | null> {
  const held = await pool.query<{ agent_id: number }>('select agent_id from demo_seed_agents where firm_id = $1 and demo_key = $2', [
    firmId,
    key,
  ]);
  const previous = held.rows[0]?.agent_id;
  if (previous !== undefined && (await stands(store, previous))) return null;
  const agentId = await nextId(pool, 'agent_ids');
  const claimed =
    previous === undefined
      ? await pool.query(
          'insert into demo_seed_agents (firm_id, demo_key, agent_id) values ($1, $2, $3) on conflict (firm_id, demo_key) do nothing',
          [firmId, key, agentId],
        )
      : await pool.query('update demo_seed_agents set agent_id = $3 where firm_id = $1 and demo_key = $2 and agent_id = $4', [
          firmId,
          key,
          agentId,
          previous,
        ]);
  return claimed.rowCount === 1 ? agentId : null;
}
