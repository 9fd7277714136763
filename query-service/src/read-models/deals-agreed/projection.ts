import type pg from 'pg';
import { dealsAgreedView } from '@pf/events';
import type { RecordedEvent } from '@pf/infra';
import type { BulkTarget } from '../../projection-kit/bulk-fill';
import { foldBatch, writeRows } from '../../projection-kit/fold-batch';

const DEALS: BulkTarget = {
  table: 'rm_deals',
  columns: [
    'deal_id',
    'conversation_id',
    'borrower_agent_id',
    'lender_agent_id',
    'broker_agent_id',
    'property_value',
    'loan_amount',
    'ltv',
    'interest_rate',
    'term_years',
    'arrangement_fee',
    'created_at',
  ],
  key: [0],
  whenStored: 'nothing',
};

/**
 * A deal agreed is recorded once and never changes, so the rows already stored are not loaded: the batch is
 * folded from nothing and `on conflict do nothing` keeps a stored row, as the shared evolve would.
 */
export async function projectDealsAgreed(client: pg.ClientBase, batch: readonly RecordedEvent[]): Promise<void> {
  const deals = foldBatch(dealsAgreedView, batch, new Map());
  await writeRows(
    client,
    deals.map((d) => [
      d.dealId,
      d.conversationId,
      d.borrowerAgentId,
      d.lenderAgentId,
      d.brokerAgentId,
      d.propertyValue,
      d.loanAmount,
      d.ltv,
      d.interestRate,
      d.termYears,
      d.arrangementFee,
      d.createdAt,
    ]),
    ['text', 'bigint', 'bigint', 'bigint', 'bigint', 'bigint', 'bigint', 'numeric', 'numeric', 'int', 'bigint', 'timestamptz'],
    (v) => `insert into rm_deals (${DEALS.columns.join(', ')})
            select v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12 from ${v} order by ord on conflict do nothing`,
    DEALS,
  );
}
