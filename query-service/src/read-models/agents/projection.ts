import type pg from 'pg';
import { agentsView, type Agent } from '@pf/events';
import type { RecordedEvent } from '@pf/infra';
import type { BulkTarget } from '../../projection-kit/bulk-fill';
import { foldBatch, json, keysOf, writeRows } from '../../projection-kit/fold-batch';
import { AGENT_COLUMNS, agentFromRow, type AgentRow } from './rows';

const AGENTS: BulkTarget = { table: 'rm_agents', columns: AGENT_COLUMNS.split(', '), key: [0], whenStored: 'statement' };

/** Loads the agents the batch touches, folds the batch with the shared evolve, and writes back the changed ones in one statement. */
export async function projectAgents(client: pg.ClientBase, batch: readonly RecordedEvent[]): Promise<void> {
  // A deleted account's agents stay, deleted, with what they wrote of them erased by the erasure step (run last):
  // their firm stays a fact of every match and deal they took part in, however the batches fell.
  await writeAgents(client, batch);
}

async function writeAgents(client: pg.ClientBase, batch: readonly RecordedEvent[]): Promise<void> {
  const ids = keysOf(agentsView, batch);
  if (ids.length === 0) return;
  const stored = new Map<number, Agent>();
  const loaded = await client.query<AgentRow>(`select ${AGENT_COLUMNS} from rm_agents where id = any($1::bigint[])`, [ids]);
  for (const row of loaded.rows) stored.set(row.id, agentFromRow(row));
  const changed = foldBatch(agentsView, batch, stored).map((a) => [
    a.id,
    a.ownerId,
    a.firmId,
    a.name,
    a.type,
    a.description,
    json(a.criteria),
    a.strategy,
    a.isActive,
    a.isDeleted,
    a.createdAt,
    a.updatedAt,
    json(a.products),
    json(a.needs),
    a.isDemo === true,
  ]);
  await writeRows(
    client,
    changed,
    [
      'bigint',
      'text',
      'text',
      'text',
      'text',
      'text',
      'jsonb',
      'text',
      'boolean',
      'boolean',
      'timestamptz',
      'timestamptz',
      'jsonb',
      'jsonb',
      'boolean',
    ],
    (v) =>
      `insert into rm_agents (${AGENT_COLUMNS})
     select v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13, v14, v15 from ${v} order by ord
     on conflict (id) do update set name = excluded.name, description = excluded.description, criteria = excluded.criteria,
       products = excluded.products, needs = excluded.needs,
       strategy = excluded.strategy, is_active = excluded.is_active, is_deleted = excluded.is_deleted, updated_at = excluded.updated_at`,
    AGENTS,
  );
}
