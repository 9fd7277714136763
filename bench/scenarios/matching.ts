import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { streams, type ConversationView } from '@pf/events';
import type { EventStore, SessionStore } from '@pf/infra';
import { DEMO_AGENTS } from '../../command-service/src/seed-demo/demo-data';
import type { ChildServer } from '../lib/children';
import { benchUser, call, expectStatus, type Readiness } from '../lib/session';
import { concurrently, round, sleep } from '../lib/stats';

export interface MatchingResult {
  readonly matching_ms_at_10k: number;
  readonly matching_ms_runs: number[];
  readonly matching_lenders: number;
}

const demo = (key: string) => DEMO_AGENTS.find((agent) => agent.key === key)!;

/**
 * `lenders` lenders of another firm stored (the demo's Northgate Building Society criteria, each its own agent),
 * then a new borrower (the demo's Amelia Hart) created through the API: the time from the command to the first
 * conversation in GET /api/conversations. Three new borrowers, one after another, each of its own firm; the median.
 * The agents' replies are delayed by a minute, so the conversations opened do not move meanwhile.
 */
export async function measureMatching(options: {
  start: () => Promise<ChildServer>;
  pool: pg.Pool;
  store: EventStore;
  sessions: SessionStore;
  lenders: number;
}): Promise<MatchingResult> {
  const lender = demo('northgate');
  const borrower = demo('amelia');
  const first = Number(
    (await options.pool.query<{ first: string }>(`select setval('agent_ids', nextval('agent_ids') + $1) - $1 as first`, [options.lenders]))
      .rows[0]!.first,
  );
  const ownerId = randomUUID();
  let next = 0;
  await concurrently(
    8,
    () => next >= options.lenders,
    async () => {
      const agentId = first + next++;
      await options.store.append(
        streams.agent(agentId),
        [
          {
            id: randomUUID(),
            type: 'AgentCreated',
            data: {
              agentId,
              ownerId,
              name: `${lender.name} ${agentId}`,
              type: 'lender',
              description: lender.description,
              criteria: lender.criteria,
              strategy: 'linear',
            },
            metadata: { actor: { kind: 'user', userId: ownerId }, correlationId: randomUUID(), causationId: null },
          },
        ],
        'no_stream',
      );
    },
  );
  const server = await options.start();
  try {
    // The automation has folded every lender before the clock starts.
    for (let settled = 0; settled < 2; await sleep(250)) {
      const ready = await call<Readiness | null>(server.url, null, 'GET', '/readyz');
      const followers = (ready.body?.followers ?? []).filter((f) => f.position !== null);
      settled = ready.status === 200 && followers.every((f) => f.lag === 0) ? settled + 1 : 0;
    }
    const runs: number[] = [];
    for (let run = 0; run < 3; run++) {
      const user = await benchUser(options.sessions);
      const started = performance.now();
      const created = expectStatus(
        await call(server.url, user, 'POST', '/api/agents', {
          name: borrower.name,
          type: 'borrower',
          description: borrower.description,
          criteria: borrower.criteria,
        }),
        201,
        'create borrower',
      );
      for (;;) {
        const list = expectStatus(
          await call<ConversationView[]>(server.url, user, 'GET', '/api/conversations', undefined, created.position),
          200,
          'conversations',
        );
        if (list.body.length > 0) break;
        if (performance.now() - started > 60_000) throw new Error('No conversation within 60 s of creating the borrower');
        await sleep(5);
      }
      runs.push(performance.now() - started);
    }
    const sorted = [...runs].sort((a, b) => a - b);
    return { matching_ms_at_10k: round(sorted[1]!, 1), matching_ms_runs: runs.map((r) => round(r, 1)), matching_lenders: options.lenders };
  } finally {
    await server.close();
  }
}
