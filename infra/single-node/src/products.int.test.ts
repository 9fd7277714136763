import { describe, expect, it } from 'vitest';
import type { AgentView } from '@pf/events';
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
