import type pg from 'pg';
import type { NegotiationState } from '../automation/negotiation/state';
import type { AutomationState } from './automation-state';
import { decidedIds } from './decisions';

/**
 * One deal per borrower at a time, across its conversations (issue 16). Two of a borrower's negotiations can
 * each decide to agree before either agreement comes back through the event stream; so before an agent
 * records an acceptance, the conversation claims the borrower's next deal in PostgreSQL (the first insert of
 * the key wins). The loser says nothing, and is withdrawn from once the winner's DealAgreed arrives. A claim
 * whose conversation ended without agreeing (a person took over and walked away) is handed on.
 */
export async function claimDeal(pool: pg.Pool, state: AutomationState, negotiation: NegotiationState): Promise<boolean> {
  const borrowerId = negotiation.setup.borrower.agentId;
  const agreedSoFar = state.agreedBy.get(borrowerId) ?? 0;
  const key = `deal-claim:${borrowerId}:${agreedSoFar}`;
  const mine = { conversationId: negotiation.conversationId };
  const holder = await decidedIds(pool, key, async () => mine);
  if (holder.conversationId === mine.conversationId) return true;
  // Completed conversations leave the state. One that agreed moved agreedSoFar on (a key of its own), so a
  // holder gone from the state under this key ended without a deal.
  const held = state.conversations.get(holder.conversationId);
  const stale = !held || (held.status === 'completed' && held.negotiation?.status !== 'agreed');
  if (!stale) return false;
  const handedOn = await pool.query(
    `update process_manager_decisions set ids = $2 where key = $1 and ids = $3::jsonb`,
    [key, JSON.stringify(mine), JSON.stringify(holder)],
  );
  return handedOn.rowCount === 1;
}
