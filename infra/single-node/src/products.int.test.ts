import { describe, expect, it } from 'vitest';
import { illustrate, type AgentView, type LeadView } from '@pf/events';
import { DEMO_AGENTS } from '../../../command-service/src/seed-demo/demo-data';
import { ApiClient } from './testing/api-client';
import { testSingleNode } from './testing/single-node';

/** A lender's product range and a borrower's needs through the one contract (docs/behaviour/products.md). */
describe('products and needs through the agent API', () => {
  const node = testSingleNode({ AUTOMATION: 'off' });
  const range = DEMO_AGENTS.find((agent) => agent.key === 'pennine')!.products!;
  const needs = DEMO_AGENTS.find((agent) => agent.key === 'amelia')!.needs!;

  it('creates and edits them, serves them back, and refuses them on the wrong type or out of shape, naming the field', async () => {
    const client = await ApiClient.signIn(node.server.url);
    const lender = await client.post<AgentView>('/api/agents', { name: 'Pennine', type: 'lender', products: range });
    expect(lender.status).toBe(201);
    expect(lender.body.products).toEqual(range);
    const borrower = await client.post<AgentView>('/api/agents', { name: 'Amelia', type: 'borrower', needs });
    expect(borrower.status).toBe(201);

    const listed = await client.get<AgentView[]>('/api/agents');
    const byName = new Map(listed.body.map((agent) => [agent.name, agent]));
    expect(byName.get('Pennine')?.products).toEqual(range);
    expect(byName.get('Amelia')?.needs).toEqual(needs);
    expect(byName.get('Amelia')?.products).toBeNull();

    const longer = await client.put<AgentView>(`/api/agents/${borrower.body.id}`, { needs: { ...needs, termYears: 35 } });
    expect(longer.status).toBe(200);
    expect(longer.body.needs?.termYears).toBe(35);
    expect((await client.get<AgentView[]>('/api/agents')).body.find((a) => a.name === 'Amelia')?.needs?.termYears).toBe(35);

    const productsOnBorrower = await client.post('/api/agents', { name: 'B', type: 'borrower', products: range });
    expect(productsOnBorrower.status).toBe(400);
    expect(JSON.stringify(productsOnBorrower.body)).toContain('Only a lender has products');
    const needsOnLender = await client.put(`/api/agents/${lender.body.id}`, { needs });
    expect(needsOnLender.status).toBe(400);
    expect(JSON.stringify(needsOnLender.body)).toContain('only a borrower has needs');
    const tooOld = await client.put(`/api/agents/${borrower.body.id}`, { needs: { ...needs, ageYears: 60 } });
    expect(tooOld.status).toBe(400);
    expect(JSON.stringify(tooOld.body)).toContain('The term must end by age 85 (60 + 30 is 90)');
    const freeText = await client.post('/api/agents', { name: 'L', type: 'lender', products: '5 year fix at 4.59%' });
    expect(freeText.status).toBe(400);
  });

  it('seeds demo lenders with their ranges and demo borrowers with their needs', async () => {
    const client = await ApiClient.signIn(node.server.url);
    expect((await client.post('/api/seed-demo')).status).toBe(201);
    const agents = (await client.get<AgentView[]>('/api/agents')).body;
    for (const demo of DEMO_AGENTS) {
      const agent = agents.find((a) => a.name === demo.name);
      expect(agent?.products ?? null).toEqual(demo.products ?? null);
      expect(agent?.needs ?? null).toEqual(demo.needs ?? null);
    }
    expect(
      agents
        .filter((a) => a.products !== null)
        .map((a) => a.name)
        .sort(),
    ).toEqual(['Capital & Counties Bank', 'Harbour Street Bank', 'Northgate Building Society', 'Pennine Mutual']);
  });
});

describe('sourcing through Match', () => {
  const node = testSingleNode({ AUTOMATION: 'on', AGENT_REPLY_DELAY_MS: '0' });

  it('records a demo borrower’s products, best first by true cost, each with its verdict, reasons and the regulated figures', async () => {
    const client = await ApiClient.signIn(node.server.url);
    expect((await client.post('/api/seed-demo')).status).toBe(201);
    const amelia = (await client.get<LeadView[]>('/api/leads')).body.find((lead) => lead.name === 'Amelia Hart')!;
    const asked = await client.post<{ requestId: string }>(`/api/leads/${amelia.id}/match`);
    expect(asked.status).toBe(202);
    await expect
      .poll(async () => (await client.get<LeadView[]>('/api/leads')).body.find((lead) => lead.id === amelia.id)?.sourcing ?? null, {
        timeout: 20_000,
        interval: 100,
      })
      .not.toBeNull();
    const sourcing = (await client.get<LeadView[]>('/api/leads')).body.find((lead) => lead.id === amelia.id)!.sourcing!;
    const offered = sourcing.lines.filter((line) => line.quote !== null);
    // Amelia: £236,000 on £295,000 (80% LTV) over 30 years, a fee paid up front and capped at £1,000, preferring 2 years.
    expect(offered.map((line) => [line.lenderName, line.productName, line.verdict])).toEqual([
      ['Northgate Building Society', '2 Year Fixed (no fee)', 'pass'],
      ['Northgate Building Society', '2 Year Fixed', 'pass'],
      ['Northgate Building Society', '5 Year Fixed', 'warn'],
      ['Pennine Mutual', '5 Year Fixed', 'warn'],
    ]);
    const northgate = offered[1]!;
    const figures = illustrate({
      loan: 236_000,
      termMonths: 360,
      rates: [{ ratePercent: 5.16, months: 24 }, { ratePercent: 7.5 }],
      fees: [995],
    });
    expect(northgate.quote).toMatchObject({
      initialRatePercent: 5.16,
      fee: 995,
      monthlyPayment: figures.payments[0]!.amount,
      aprc: figures.aprc,
      procurationFee: 826,
    });
    const capital = sourcing.lines.filter((line) => line.lenderName === 'Capital & Counties Bank');
    expect(
      capital.every((line) => line.verdict === 'fail' && line.reasons.some((r) => r.detail === 'The lender does not lend in Leeds')),
    ).toBe(true);
    const names = new Map((await client.get<AgentView[]>('/api/agents')).body.map((agent) => [agent.id, agent.name]));
    expect(sourcing.shortlist.map((id) => names.get(id))).toEqual(['Northgate Building Society', 'Pennine Mutual']);
  });
});
