import { describe, expect, it } from 'vitest';
import {
  DEMO_SANDBOX_RULE,
  type AgentView,
  type ApiError,
  type ConversationView,
  type MatchRequestAnswer,
  type MatchRunView,
} from '@pf/events';
import { DEMO_AGENTS } from '../../../command-service/src/seed-demo/demo-data';
import { scoreMatch } from '../../../command-service/src/matching/score-match';
import { ApiClient } from './testing/api-client';
import { testSingleNode } from './testing/single-node';

/**
 * Seed Demo Data and the sandbox rule on the real node with the real matcher (docs/behaviour/dashboard.md,
 * matching.md, conversations.md): two presses at once make each demo agent once; Match on a real agent whose only
 * fitting counterparts are demo agents says so; Add Demo Messages is refused in a conversation of real agents.
 */
describe('demo data on the real node', () => {
  const node = testSingleNode({ AUTOMATION: 'on', AGENT_REPLY_DELAY_MS: '0' });

  it('makes each demo agent once when pressed twice at once, and badges them', async () => {
    const ada = await ApiClient.signIn(node.server.url);
    const presses = await Promise.all([ada.post<{ agents: number; alreadyThere: number }>('/api/seed-demo'), ada.post('/api/seed-demo')]);
    expect(presses.map((press) => press.status)).toEqual([201, 201]);
    const created = presses.map((press) => (press.body as { agents: number }).agents).sort((a, b) => a - b);
    expect(created).toEqual([0, DEMO_AGENTS.length]);
    const agents = (await ada.get<AgentView[]>('/api/agents')).body;
    expect(agents.map((agent) => agent.name).sort()).toEqual(DEMO_AGENTS.map((demo) => demo.name).sort());
    expect(agents.every((agent) => agent.isDemo === true)).toBe(true);
    // A demo agent deleted is made again by the next press, and only it.
    const gone = agents[0]!;
    expect((await ada.delete(`/api/agents/${gone.id}`)).status).toBe(200);
    const again = await ada.post<{ agents: number; alreadyThere: number }>('/api/seed-demo');
    expect(again.body).toMatchObject({ agents: 1, alreadyThere: DEMO_AGENTS.length - 1 });
    const names = (await ada.get<AgentView[]>('/api/agents')).body.map((agent) => agent.name).sort();
    expect(names).toEqual(DEMO_AGENTS.map((demo) => demo.name).sort());
  });

  it('tells Match on a real lender that the borrowers that would fit are demo agents, and keeps demo messages out of real conversations', async () => {
    const bea = await ApiClient.signIn(node.server.url);
    expect((await bea.post('/api/seed-demo')).status).toBe(201);
    // A real copy of a demo lender that some demo borrower fits (scored by the matcher's own scorer).
    const borrowers = DEMO_AGENTS.filter((demo) => demo.type === 'borrower');
    const lender = DEMO_AGENTS.find(
      (demo) => demo.type === 'lender' && borrowers.some((borrower) => scoreMatch(borrower.criteria, demo.criteria).score >= 70),
    )!;
    expect(lender).toBeDefined();
    const real = (await bea.post<AgentView>('/api/agents', { name: 'Real Lender', type: 'lender', criteria: lender.criteria })).body;
    const asked = await bea.post<MatchRequestAnswer>(`/api/leads/${real.id}/match`);
    expect(asked.status).toBe(202);
    let run: MatchRunView | undefined;
    await expect
      .poll(
        async () => {
          run = (await bea.get<MatchRunView>(`/api/leads/${real.id}/match/${asked.body.requestId}`)).body;
          return run.status;
        },
        { timeout: 15_000, interval: 100 },
      )
      .toBe('answered');
    expect(run!.note).toBe(
      `No new match at 70 or more for Real Lender: the borrowers that would fit are demo agents. ${DEMO_SANDBOX_RULE}`,
    );

    // A real borrower that fits it: their conversation is a real one, where demo messages do not go.
    const borrower = borrowers.find((demo) => scoreMatch(demo.criteria, lender.criteria).score >= 70)!;
    expect((await bea.post('/api/agents', { name: 'Real Borrower', type: 'borrower', criteria: borrower.criteria })).status).toBe(201);
    let conversation: ConversationView | undefined;
    await expect
      .poll(
        async () => {
          conversation = (await bea.get<ConversationView[]>('/api/conversations')).body.find((c) =>
            c.participants.some((p) => p.name === 'Real Lender'),
          );
          return conversation !== undefined;
        },
        { timeout: 15_000, interval: 100 },
      )
      .toBe(true);
    const refused = await bea.post<ApiError>(`/api/conversations/${conversation!.id}/demo-messages`);
    // Refused for what it is (the sandbox rule comes before whether it still runs), naming the real agents.
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(
      /^Demo messages go only into a conversation between your firm’s demo agents: Real (Borrower|Lender)( and Real (Borrower|Lender))? (is|are) not one$/,
    );
  });
});
