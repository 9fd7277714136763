import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { DEMO_AGENTS } from '../../../command-service/src/seed-demo/demo-data';
import { ApiClient } from './testing/api-client';
import { testSingleNode } from './testing/single-node';
import type { ConversationView } from '@pf/events';

/**
 * Demo data is a sandbox (docs/decisions/firms-and-visibility.md): two people seed demo data at the same moment
 * while a third has real agents written exactly like demo ones; the real matcher runs. No conversation may join
 * different firms' demo agents, nor a demo agent with a real one.
 */
describe('Seed Demo Data by two firms at once', () => {
  const node = testSingleNode({ AUTOMATION: 'on', AGENT_REPLY_DELAY_MS: '0' });

  it('keeps each firm’s demo agents among themselves, and away from real agents', async () => {
    const url = node.server.url;
    const [ada, bea, rex] = await Promise.all([ApiClient.signIn(url), ApiClient.signIn(url), ApiClient.signIn(url)]);
    const seeded = await Promise.all([ada.post('/api/seed-demo'), bea.post('/api/seed-demo')]);
    expect(seeded.map((answer) => answer.status)).toEqual([201, 201]);
    // Real agents that the matcher would pair with the demo ones if it could: the demo data's own words.
    for (const agent of DEMO_AGENTS.filter((a) => a.type !== 'broker')) {
      const created = await rex.post('/api/agents', {
        name: `Real ${agent.name}`,
        type: agent.type,
        description: agent.description,
        criteria: agent.criteria,
      });
      expect(created.status).toBe(201);
    }
    // Each of the three has conversations of their own: the matcher has seen every agent by then.
    for (const client of [ada, bea, rex]) {
      await expect
        .poll(async () => (await client.get<ConversationView[]>('/api/conversations')).body.length, { timeout: 20_000, interval: 100 })
        .toBeGreaterThan(0);
    }

    const pool = new pg.Pool({ connectionString: node.database.url, max: 1 });
    try {
      const agents = await pool.query<{ id: number; firm: string; demo: boolean }>(
        `select (data->>'agentId')::int as id, coalesce(data->>'firmId', data->>'ownerId') as firm, coalesce((data->>'isDemo')::boolean, false) as demo
         from events where type = 'AgentCreated'`,
      );
      const byId = new Map(agents.rows.map((row) => [row.id, row]));
      expect(agents.rows.filter((row) => row.demo).length).toBe(2 * DEMO_AGENTS.length);
      const started = await pool.query<{ id: number; agent_ids: number[] }>(
        `select (data->>'conversationId')::int as id, array(select (p->>'agentId')::int from jsonb_array_elements(data->'participants') p) as agent_ids
         from events where type = 'ConversationStarted'`,
      );
      expect(started.rows.length).toBeGreaterThanOrEqual(3);
      const mixed = started.rows.filter((row) => {
        const parties = row.agent_ids.map((id) => byId.get(id)!);
        const demo = parties.some((p) => p.demo);
        return demo && (parties.some((p) => !p.demo) || new Set(parties.map((p) => p.firm)).size > 1);
      });
      expect(mixed).toEqual([]);
    } finally {
      await pool.end();
    }
  });
});
