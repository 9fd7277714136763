import pg from 'pg';
import { expect } from 'vitest';
import type { ApiClient } from '@pf/single-node/testing/api-client';
import type { Sent } from './load';

/**
 * Every acknowledged agent is in the read models (listed once, with its id), and no agent name was stored
 * twice, neither in the read models nor in the event store.
 */
export async function expectEveryAcknowledgedOnce(load: Sent, reader: ApiClient, databaseUrl: string): Promise<void> {
  const listed = await reader.get('/api/agents');
  expect(listed.status).toBe(200);
  const byName = new Map<string, number[]>();
  for (const agent of listed.body as { id: number; name: string }[]) byName.set(agent.name, [...(byName.get(agent.name) ?? []), agent.id]);
  const missing = [...load.acknowledged].filter(([name, id]) => byName.get(name)?.[0] !== id);
  // Where each missing agent stands, for the failure's message: stored or not, its row, how far the read side says it is.
  const diagnosis = missing.length > 0 ? await whereMissingStand(missing, byName, reader, databaseUrl) : '';
  expect(missing, `acknowledged agents missing from the read models${diagnosis}`).toEqual([]);
  expect(
    [...byName].filter(([, ids]) => ids.length > 1),
    'agents listed twice',
  ).toEqual([]);
  expect(
    [...byName.keys()].filter((name) => !load.sent.has(name)),
    'agents nobody created',
  ).toEqual([]);

  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string; n: number }>(
      `select data->>'name' as name, count(*)::int as n from events where type = 'AgentCreated' group by 1 having count(*) > 1`,
    );
    expect(rows, 'agents created twice in the event store').toEqual([]);
  } finally {
    await client.end();
  }
}

/** Each agent the socket should have been told about was pushed exactly once, across its reconnections. */
export function expectPushedOnce(pushed: readonly number[], load: Sent): void {
  const counts = new Map<number, number>();
  for (const id of pushed) counts.set(id, (counts.get(id) ?? 0) + 1);
  expect(
    [...counts].filter(([, n]) => n > 1),
    'agents pushed twice',
  ).toEqual([]);
  const missing = [...load.acknowledged.values()].filter((id) => !counts.has(id));
  expect(missing, 'acknowledged agents never pushed').toEqual([]);
}

async function whereMissingStand(
  missing: readonly [string, number][],
  listed: ReadonlyMap<string, number[]>,
  reader: ApiClient,
  databaseUrl: string,
): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const lines: string[] = [];
    for (const [name, id] of missing) {
      const stored = await client.query(
        `select transaction_id::text as tx, position::text, stream_name, type from events where data->>'name' = $1`,
        [name],
      );
      const row = await client.query(`select id, name, firm_id, is_deleted from rm_agents where id = $1 or name = $2`, [id, name]);
      lines.push(
        `${name} (id ${id}): listed as ${JSON.stringify(listed.get(name) ?? null)}; in the event store ${JSON.stringify(stored.rows)}; in rm_agents ${JSON.stringify(row.rows)}`,
      );
    }
    const checkpoints = await client.query(`select name, commit_position::text, prepare_position::text from checkpoints order by name`);
    lines.push(`read with x-after-position ${reader.lastPosition}; checkpoints ${JSON.stringify(checkpoints.rows)}`);
    lines.push(`/readyz ${await fetch(`${reader.baseUrl}/readyz`).then((response) => response.text(), String)}`);
    return `\n${lines.join('\n')}`;
  } finally {
    await client.end();
  }
}
