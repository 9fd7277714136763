/**
 * After Seed Demo Data (docs/behaviour/negotiation.md, "Bespoke pricing"), on the whole single node (real PostgreSQL,
 * HTTP, the automated agents), every agreed deal is the borrower's loan over the borrower's term, on a product of the
 * lender's range, priced no lower than its list rate less the discretion and no higher than list, within the fee cap,
 * and inside the lender's limits; conversations carry the match explanation for their header; a borrower talking to
 * two lenders agrees with one and withdraws politely from the other. The limits are restated here from the agents'
 * needs, ranges and criteria as recorded.
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  feeFor,
  initialRateFor,
  ltvPercentOf,
  readCriteria,
  type AgentView,
  type ConversationView,
  type MessageView,
  type OfferedProduct,
} from '@pf/events';
import { ApiClient } from './testing/api-client';
import { testSingleNode } from './testing/single-node';

interface Deal {
  conversationId: number;
  borrowerAgentId: number;
  lenderAgentId: number;
  propertyValue: number;
  loanAmount: number;
  interestRate: number;
  termYears: number;
  arrangementFee: number;
  product?: OfferedProduct;
}

describe('deals the agents agree after Seed Demo Data', () => {
  const node = testSingleNode({ AUTOMATION: 'on', AGENT_REPLY_DELAY_MS: '0' });

  it('never lend below the borrower’s need or beyond a lender’s limit, and explain every match', async () => {
    const operator = await ApiClient.signIn(node.server.url);
    expect((await operator.post('/api/seed-demo')).status).toBe(201);
    const conversations = async () => (await operator.get<ConversationView[]>('/api/conversations')).body;
    await expect
      .poll(
        async () => {
          const list = await conversations();
          return list.length > 0 && list.every((c) => c.status === 'completed');
        },
        { timeout: 60_000, interval: 250 },
      )
      .toBe(true);
    const agents = (await operator.get<AgentView[]>('/api/agents')).body;
    const criteriaOf = (agentId: number) => readCriteria(agents.find((agent) => agent.id === agentId)?.criteria);

    const pool = new pg.Pool({ connectionString: node.server.databaseUrl, max: 1 });
    const deals = (await pool.query<{ data: Deal }>("select data from events where type = 'DealAgreed'")).rows.map((row) => row.data);
    await pool.end();
    expect(deals.length).toBeGreaterThanOrEqual(3);
    for (const deal of deals) {
      const borrower = criteriaOf(deal.borrowerAgentId);
      const lender = criteriaOf(deal.lenderAgentId);
      const needs = agents.find((agent) => agent.id === deal.borrowerAgentId)?.needs;
      const range = agents.find((agent) => agent.id === deal.lenderAgentId)?.products;
      if (!needs || !range) throw new Error(`the demo agents of conversation ${deal.conversationId} have needs and a range`);
      // The loan and the term are the borrower's, never traded.
      expect(deal.loanAmount, `deal in conversation ${deal.conversationId}`).toBe(needs.loanAmount);
      expect(deal.termYears).toBe(needs.termYears);
      expect(deal.loanAmount).toBeLessThanOrEqual((lender.maxLtv ?? 0.8) * deal.propertyValue);
      if (borrower.annualIncome !== null) expect(deal.loanAmount).toBeLessThanOrEqual(4.5 * borrower.annualIncome);
      if (borrower.expectedRentMonthly !== null) {
        expect(borrower.expectedRentMonthly * 12).toBeGreaterThanOrEqual(1.25 * deal.loanAmount * 0.055);
      }
      // A product of the lender's range, between its list price and its list price less the discretion.
      const product = range.products.find((p) => p.id === deal.product?.productId);
      if (!product || !deal.product) throw new Error(`deal in conversation ${deal.conversationId} names a product of the lender's range`);
      const list = initialRateFor(product, ltvPercentOf(needs), 4, deal.product.feeFree) ?? 0;
      expect(deal.interestRate).toBeLessThanOrEqual(list);
      expect(deal.interestRate).toBeGreaterThanOrEqual(list - product.discretion.rateReductionPercent - 1e-9);
      const listFee = deal.product.feeFree ? 0 : feeFor(product, needs.loanAmount);
      expect(deal.arrangementFee).toBeLessThanOrEqual(listFee);
      expect(deal.arrangementFee).toBeGreaterThanOrEqual(listFee - product.discretion.feeReductionPounds);
      expect(deal.product.cashbackPounds).toBeLessThanOrEqual(product.discretion.cashbackPounds);
      if (needs.maxFeePounds !== undefined) expect(deal.arrangementFee).toBeLessThanOrEqual(needs.maxFeePounds);
    }

    const list = await conversations();
    for (const conversation of list) {
      expect(conversation.match?.explanation.length, conversation.title).toBeGreaterThanOrEqual(3);
    }
    const amelia = list.find((c) => c.title.startsWith('Amelia Hart ↔ Northgate'));
    expect(amelia?.match?.explanation).toContainEqual({
      criterion: 'Loan to value',
      verdict: 'pass',
      detail: "LTV 80.0% (£236,000 on £295,000) is within this lender's 90.0%",
    });

    // Amelia talks to two lenders at once: one deal, and the other conversation ends without one. The first agreement
    // claims her (docs/behaviour/negotiation.md), so a conversation still open then ends with her polite withdrawal;
    // one that reached its own end first (the agents reply at once here, and which conversation runs ahead is the
    // scheduler's choice) ended before that agreement. one-commitment.int.test.ts holds the withdrawal without a race.
    const hers = list.filter((c) => c.title.startsWith('Amelia Hart ↔'));
    expect(hers).toHaveLength(2);
    const agreed = hers.filter((c) => c.outcome === 'agreed');
    expect(agreed).toHaveLength(1);
    const left = hers.find((c) => c.outcome !== 'agreed')!;
    const thread = (await operator.get<MessageView[]>(`/api/conversations/${left.id}/messages`)).body;
    if (left.outcome === 'stopped') {
      expect(thread.at(-1)?.fromAgentName).toBe('Amelia Hart');
      // The losing lender is told the outcome, not the winner.
      expect(thread.at(-1)?.content).toMatch(/agreed terms with another lender|accepted another lender's offer/);
    } else {
      expect(left.outcome).toBe('no_agreement');
      const order = new pg.Pool({ connectionString: node.server.databaseUrl, max: 1 });
      const ended = await order.query<{ type: string; conversation: number }>(
        `select type, (data->>'conversationId')::int as conversation from events
          where (type = 'DealAgreed' and (data->>'conversationId')::int = $1)
             or (type = 'ConversationCompleted' and (data->>'conversationId')::int = $2)
          order by transaction_id, position`,
        [agreed[0]!.id, left.id],
      );
      await order.end();
      expect(ended.rows.map((row) => row.type)).toEqual(['ConversationCompleted', 'DealAgreed']);
      expect(thread.some((message) => /another lender/.test(message.content))).toBe(false);
    }
  });
});
