import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkpointMigrations, createPool, migrate, NotCaughtUp, saveCheckpoint } from '@pf/infra';
import { createTestDatabase, type TestDatabase } from '@pf/infra/testing';
import { ReadModelProgress } from './progress';

const at = (commit: number, prepare: number) => ({ commit: BigInt(commit), prepare: BigInt(prepare) });

describe('read-model progress: waiting for a position', () => {
  let database: TestDatabase;
  let pool: pg.Pool;
  let checkpointReads = 0;
  /** The real pool, counting the checkpoint reads that go through it. */
  let counted: pg.Pool;
  beforeAll(async () => {
    database = await createTestDatabase();
    pool = createPool(database.url);
    await migrate(pool, checkpointMigrations);
    counted = new Proxy(pool, {
      get(target, key) {
        if (key === 'query') {
          return (text: string, values?: unknown[]) => {
            if (/from checkpoints/.test(text)) checkpointReads += 1;
            return target.query(text, values);
          };
        }
        const value: unknown = Reflect.get(target, key);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  });
  afterAll(async () => {
    await pool?.end();
    await database?.drop();
  });

  it('wakes every waiter when the local projector advances, without reading the checkpoint table', async () => {
    const progress = new ReadModelProgress(counted, 'progress-local');
    checkpointReads = 0;
    const waiting = Promise.all(Array.from({ length: 30 }, () => progress.waitFor(at(5, 50), 5_000)));
    progress.advance(at(5, 10));
    progress.advance(at(5, 50));
    await waiting;
    expect(checkpointReads).toBe(0);
  });

  it("follows another copy's checkpoint, one read at a time for all of its waiters", async () => {
    const progress = new ReadModelProgress(counted, 'progress-elsewhere');
    checkpointReads = 0;
    const waiting = Promise.all(Array.from({ length: 30 }, () => progress.waitFor(at(7, 70), 10_000)));
    await saveCheckpoint(pool, 'progress-elsewhere', at(7, 70));
    await waiting;
    expect(progress.position).toEqual(at(7, 70));
    // Thirty waiters polling on their own would have read it at least thirty times.
    expect(checkpointReads).toBeGreaterThan(0);
    expect(checkpointReads).toBeLessThan(30);
  });

  it('moves back when the projector starts again behind what it had applied, so reads wait for the batches applied again', async () => {
    const progress = new ReadModelProgress(counted, 'progress-restart');
    progress.advance(at(9, 90));
    await progress.waitFor(at(9, 90), 1_000);
    // The database lost its last batches (the projector commits without waiting for the disk): the stored checkpoint is behind.
    progress.restartAt(at(8, 80));
    expect(progress.position).toEqual(at(8, 80));
    let answered = false;
    const waiting = progress.waitFor(at(9, 90), 5_000).then(() => (answered = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(answered).toBe(false);
    progress.advance(at(9, 90));
    await waiting;
    expect(answered).toBe(true);
  });

  it('gives up with NotCaughtUp (503) when the position is not reached in time', async () => {
    const progress = new ReadModelProgress(counted, 'progress-never');
    await expect(progress.waitFor(at(9, 90), 300)).rejects.toBeInstanceOf(NotCaughtUp);
  });
});
