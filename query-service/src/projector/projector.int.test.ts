import { setTimeout as pause } from 'node:timers/promises';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { AgentView } from '@pf/events';
import { createPool } from '@pf/infra';
import { ApiClient } from '@pf/single-node/testing/api-client';
import { testSingleNode } from '@pf/single-node/testing/single-node';
import { READ_MODEL_TABLES } from '../read-models';
import { READ_MODELS_PROJECTION } from './checkpoint';

interface Readiness {
  followers: { name: string; restarts: number; lastError: string | null }[];
}

/** The read models and their checkpoint as a crash that lost every batch of the projector's would leave them. */
async function loseEveryBatch(pool: pg.Pool): Promise<void> {
  await pool.query(
    `begin;
     truncate ${READ_MODEL_TABLES.join(', ')};
     update checkpoints set commit_position = 0, prepare_position = 0, updated_at = now() where name = '${READ_MODELS_PROJECTION}';
     commit`,
  );
}

/** `read` again until `done` says its answer will do, or `timeoutMs` have passed; the last answer either way. */
async function until<T>(read: () => Promise<T>, done: (answer: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let answer = await read();
  while (!done(answer) && Date.now() < deadline) {
    await pause(25);
    answer = await read();
  }
  return answer;
}

/**
 * The projector commits without waiting for the disk (projector.ts), so a crash of PostgreSQL alone can lose its
 * last batches while the process goes on: the read models and their checkpoint go back together, and the projector
 * must apply those batches again rather than carry on from where it had got. Here the loss is made by hand, as the
 * crash leaves it (the rows and the checkpoint back where an earlier commit left them; here, the start), on the real
 * single node; faults/embedded-postmaster-kill.fault.test.ts makes it by killing the postmaster under load.
 */
describe('the projector after its last commits were lost', () => {
  const node = testSingleNode();

  // docs/architecture.md "A read": each batch is folded in the same transaction as its checkpoint, so rows and checkpoint are lost or kept together.
  it('applies the lost batches again at its next batch, so every agent is listed', async () => {
    const alice = await ApiClient.signIn(node.server.url);
    expect((await alice.post('/api/agents', { name: 'Before the loss', type: 'borrower' })).status).toBe(201);
    expect((await alice.get<AgentView[]>('/api/agents')).body.map((agent) => agent.name)).toEqual(['Before the loss']);

    const pool = createPool(node.server.databaseUrl, 1);
    try {
      await loseEveryBatch(pool);
    } finally {
      await pool.end();
    }

    expect((await alice.post('/api/agents', { name: 'After the loss', type: 'lender' })).status).toBe(201);
    // Read with the second write's position until the list answers (a read may find the projector starting again).
    const names = await until(
      async () => {
        const read = await alice.get<AgentView[]>('/api/agents');
        return read.status === 200 ? read.body.map((agent) => agent.name).sort() : [];
      },
      (listed) => listed.length === 2,
    );
    expect(names).toEqual(['After the loss', 'Before the loss']);

    const projector = await projectorStatus();
    expect(projector.restarts).toBeGreaterThanOrEqual(1);
    expect(projector.lastError).toContain('the database lost its last commits');
  });

  it('applies them again while no events come, from its look at the checkpoint', async () => {
    const pool = createPool(node.server.databaseUrl, 1);
    try {
      const restartsBefore = (await projectorStatus()).restarts;
      await loseEveryBatch(pool);
      // No command follows: only the projector's own look at its checkpoint finds the loss. The rows are read from
      // the table (an answer cached at the projector's position would still list them).
      const rows = await until(
        async () => (await pool.query<{ name: string }>('select name from rm_agents order by name')).rows.map((row) => row.name),
        (names) => names.length === 2,
      );
      expect(rows).toEqual(['After the loss', 'Before the loss']);
      expect((await projectorStatus()).restarts).toBeGreaterThan(restartsBefore);
    } finally {
      await pool.end();
    }
  });

  /** The projector as /readyz reports it. */
  async function projectorStatus(): Promise<Readiness['followers'][number]> {
    const readiness = (await (await fetch(`${node.server.url}/readyz`)).json()) as Readiness;
    return readiness.followers.find((follower) => follower.name === 'read-model projector')!;
  }
});
