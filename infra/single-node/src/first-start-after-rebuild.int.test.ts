/**
 * The first start after a rebuild is a restart like any other (docs/decisions/bounded-restart.md): real PostgreSQL,
 * a history appended with the product stopped (as the bench's generator and a restored directory leave it: no
 * follower has read any of it), then a rebuild. Every follower of the rebuilt tables (the projector, the analytics
 * facts, the daily counts) resumes where the rebuild left them, not at the first event, and what they hold once the
 * product has followed more of the log equals what a replay of the whole log from the first event gives.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandMigrations } from '@pf/command-service';
import { comparePositions, formatPosition, START, type Position } from '@pf/events';
import {
  analyticsCheckpointName,
  createLogger,
  loadAppliedThrough,
  loadCheckpoint,
  openServiceContext,
  parseConfig,
  type OpenedContext,
} from '@pf/infra';
import { createTestDatabase, type TestDatabase } from '@pf/infra/testing';
import { liveRebuild, queryMigrations, REBUILT_TABLES } from '@pf/query-service';
import { generateEvents } from '../../../bench/lib/generate';
import { startSingleNode, type RunningServer } from './server';
import { rebuiltRows } from './testing/rebuilt-rows';
import { followersSettled } from './testing/settled';
import { testServerEnv } from './testing/server-env';

/** The followers whose tables a rebuild writes, by checkpoint, and the analytics consumers among them. */
const REBUILT_FOLLOWERS = ['projection:read-models', analyticsCheckpointName('facts'), analyticsCheckpointName('daily')];
const ANALYTICS_CONSUMERS = ['facts', 'daily'];

describe('the first start after a rebuild (real PostgreSQL)', () => {
  let database: TestDatabase;
  let context: OpenedContext;
  let server: RunningServer | undefined;

  beforeAll(async () => {
    database = await createTestDatabase();
    context = await openServiceContext(
      parseConfig({ DATABASE_URL: database.url, AUTOMATION: 'off' }),
      createLogger('silent', 'test'),
      database.url,
      [...commandMigrations, ...queryMigrations],
    );
  });
  afterAll(async () => {
    await server?.close();
    await context?.close();
    await database?.drop();
  });

  const checkpoints = async () =>
    Object.fromEntries(
      await Promise.all(REBUILT_FOLLOWERS.map(async (name) => [name, formatPosition(await loadCheckpoint(context.pool, name))] as const)),
    );
  const everyFollowerAt = (position: Position) => Object.fromEntries(REBUILT_FOLLOWERS.map((name) => [name, formatPosition(position)]));
  /** Started, and followed the log up to the head as it stands now. */
  const startedAndCaughtUp = async (): Promise<RunningServer> => {
    const started = await startSingleNode(testServerEnv(database.url));
    await started.caughtUp;
    return started;
  };
  /** Every follower of the running product settled at the head, and the rebuilt tables' followers' checkpoints saved there. */
  const allCaughtUp = async (running: RunningServer): Promise<string> => {
    await followersSettled(running, context.pool, { timeoutMs: 120_000 });
    const head = await context.store.headPosition();
    expect(await checkpoints()).toEqual(everyFollowerAt(head));
    return formatPosition(head);
  };

  it('resumes every follower of the rebuilt tables at the rebuild, and then holds what a full replay gives', async () => {
    // A history of other users appended with the product stopped: no follower has a checkpoint yet.
    await generateEvents(context.pool, context.store, 3_000);
    expect(await checkpoints()).toEqual(everyFollowerAt(START));

    await liveRebuild(context.pool, context.store);
    const rebuiltAt = await context.store.headPosition();
    // Where the rebuilt rows stand, each consumer's checkpoint and its watermark alike.
    expect(await checkpoints()).toEqual(everyFollowerAt(rebuiltAt));
    for (const consumer of ANALYTICS_CONSUMERS) expect(await loadAppliedThrough(context.pool, consumer)).toEqual(rebuiltAt);
    expect((await rebuiltRows(context.pool)).analytics_stream_daily!.length).toBeGreaterThan(100);

    // The first start: each of them loads its checkpoint, the rebuild's position, rather than the first event. (The
    // log grows at once: the deal opener opens the generated agreements.)
    server = await startedAndCaughtUp();

    // Then they follow what comes after as they always do.
    await generateEvents(context.pool, context.store, 1_000);
    const followedTo = await allCaughtUp(server);
    expect(comparePositions(await context.store.headPosition(), rebuiltAt)).toBeGreaterThan(0);
    const followed = await rebuiltRows(context.pool);
    await server.close();
    server = undefined;

    // A full replay: the rebuilt tables emptied, every checkpoint, watermark and claim of their followers removed,
    // and the product started: each follower reads the whole log from its first event.
    await context.pool.query(`truncate ${REBUILT_TABLES.join(', ')}`);
    await context.pool.query('delete from checkpoints where name = any($1::text[])', [REBUILT_FOLLOWERS]);
    await context.pool.query('delete from analytics_applied_through where consumer = any($1::text[])', [ANALYTICS_CONSUMERS]);
    await context.pool.query('delete from analytics_processed_events where consumer = any($1::text[])', [ANALYTICS_CONSUMERS]);
    server = await startedAndCaughtUp();
    expect(await allCaughtUp(server)).toBe(followedTo);
    expect(await rebuiltRows(context.pool)).toEqual(followed);
  }, 300_000);
});
