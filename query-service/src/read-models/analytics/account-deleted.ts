import type pg from 'pg';
import type { DomainEvent } from '@pf/events';

/** What a deleted person's agents are called in the leaderboard and the lender analysis. */
const DELETED_AGENT_NAME = 'Deleted agent';

/**
 * Delete Account (docs/behaviour/settings.md) in the analytics facts: the consumer keeps its own copy of every agent's name and
 * criteria (rm_an_agents, rm_an_criteria), which are the person's words. On AccountDeleted their agents' names
 * become "Deleted agent" and their criteria go; the deals, negotiations, leads and offers stay (they are
 * figures, not personal data, and the other party's history), so every aggregate is unchanged. Each agent's
 * owner is written with its row from its AgentCreated for this (applyAgent). Run after the batch's facts are
 * written, so an agent created and its owner deleted in the same batch is erased too; erasing twice changes nothing.
 */
export async function forgetDeletedOwners(client: pg.ClientBase, events: readonly DomainEvent[]): Promise<void> {
  const deleted = events.flatMap((e) => (e.type === 'AccountDeleted' ? [e.data.userId] : []));
  if (deleted.length === 0) return;
  const agents = await client.query<{ agent_id: string }>(
    `update rm_an_agents set name = $2, criteria = null where owner_id = any($1::text[]) returning agent_id`,
    [deleted, DELETED_AGENT_NAME],
  );
  const ids = agents.rows.map((r) => r.agent_id);
  if (ids.length > 0) await client.query('delete from rm_an_criteria where agent_id = any($1::bigint[])', [ids]);
}
