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
  if (missing.length > 0) {
    const diag = new pg.Client({ connectionString: databaseUrl });
    await diag.connect();
    for (const [name, id] of missing) {
      const ev = await diag.query(
        `select transaction_id::text, position::text, stream_id, type, data from events where data->>'name' = $1`,
        [name],
      );
      const rm = await diag.query(`select * from rm_agents where id = $1 or name = $2`, [id, name]);
      console.log('[diag] missing', name, id, 'listed as', byName.get(name), JSON.stringify(ev.rows), JSON.stringify(rm.rows));
    }
    console.log('[diag] checkpoints', JSON.stringify((await diag.query(`select * from checkpoints`)).rows));
    console.log(
      '[diag] head',
      JSON.stringify(
        (await diag.query(`select transaction_id::text, position::text from events order by transaction_id desc, position desc limit 3`))
          .rows,
      ),
    );
    console.log('[diag] readyz', await (await fetch(reader.baseUrl + '/readyz')).text());
    await new Promise((r) => setTimeout(r, 5000));
    const again = await reader.get('/api/agents');
    const names = new Set((again.body as { name: string }[]).map((a) => a.name));
    console.log(
      '[diag] 5 s later listed:',
      missing.map(([n]) => names.has(n)),
    );
    console.log('[diag] checkpoints later', JSON.stringify((await diag.query(`select * from checkpoints`)).rows));
    await diag.end();
  }
  expect(missing, 'acknowledged agents missing from the read models').toEqual([]);
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
