import type pg from 'pg';
import { matchesView, partyAgentIds } from '@pf/events';
import type { RecordedEvent } from '@pf/infra';
import type { BulkTarget } from '../../projection-kit/bulk-fill';
import { foldBatch, writeRows } from '../../projection-kit/fold-batch';

const MATCHES: BulkTarget = {
  table: 'rm_matches',
  columns: ['match_id', 'borrower_agent_id', 'lender_agent_id', 'broker_agent_id', 'score', 'explanation', 'created_at'],
  key: [0],
  whenStored: 'nothing',
};

/**
 * A match is recorded once and never changes, so the rows already stored are not loaded: the batch is
 * folded from nothing and `on conflict do nothing` keeps a stored row, as the shared evolve would. A
 * match's parties are the owners of its agents, read from rm_agents (the agents read model runs first).
 */
export async function projectMatchesFound(client: pg.ClientBase, batch: readonly RecordedEvent[]): Promise<void> {
  const matches = foldBatch(matchesView, batch, new Map());
  await writeRows(
    client,
    matches.map((m) => [
      m.matchId,
      m.borrowerAgentId,
      m.lenderAgentId,
      m.brokerAgentId,
      m.score,
      JSON.stringify(m.explanation),
      m.createdAt,
    ]),
    ['text', 'bigint', 'bigint', 'bigint', 'numeric', 'jsonb', 'timestamptz'],
    (v) => `insert into rm_matches (${MATCHES.columns.join(', ')})
            select v1, v2, v3, v4, v5, v6, v7 from ${v} order by ord on conflict do nothing`,
    MATCHES,
  );
  await writeRows(
    client,
    matches.flatMap((m) => partyAgentIds(m).map((agentId) => [m.matchId, agentId])),
    ['text', 'bigint'],
    // owner_id holds the agent's firm (its owner's firm of one for agents from before firms: the same id).
    (v) => `insert into rm_match_parties (match_id, owner_id)
            select distinct v.v1, a.firm_id from ${v} join rm_agents a on a.id = v.v2 on conflict do nothing`,
  );
}
