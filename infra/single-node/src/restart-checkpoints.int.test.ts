/**
 * Followers that act on a few event types resume from their checkpoints reading only those types
 * (docs/decisions/bounded-restart.md): real PostgreSQL; the deal opener stopped, the log grown by thousands of
 * events while it was stopped, then started again: it opens the agreement recorded meanwhile, opens nothing twice,
 * and reads none of the other events to get there. And a first start on a log whose work is done already (a restored
 * store, its followers' checkpoints lost) costs the deal opener and the illustration maker one question per page,
 * no stream read per deal.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandMigrations, startDealOpener, startIllustrationMaker } from '@pf/command-service';
import { comparePositions, START, streams, type Position } from '@pf/events';
import {
  createLogger,
  loadCheckpoint,
  openServiceContext,
  parseConfig,
  saveCheckpoint,
  type EventStore,
  type OpenedContext,
} from '@pf/infra';
import { createTestDatabase, type TestDatabase } from '@pf/infra/testing';
import { recordIntroducedDeal } from './testing/introduced-deal';

/** The store with every event handed out by readAll counted (a replay of the log would be every event). */
function counting(store: EventStore) {
  let readAllEvents = 0;
  let typedReads = 0;
  const perStream = { readStream: 0, streamHead: 0, streamsWithEvents: 0 };
  const counted: EventStore = {
    ...store,
    append: (...args) => store.append(...args),
    readStream: (...args) => {
      perStream.readStream += 1;
      return store.readStream(...args);
    },
    streamHead: (...args) => {
      perStream.streamHead += 1;
      return store.streamHead(...args);
    },
    streamsWithEvents: (...args) => {
      perStream.streamsWithEvents += 1;
      return store.streamsWithEvents(...args);
    },
    headPosition: () => store.headPosition(),
    close: () => store.close(),
    readAll: async (...args) => {
      const events = await store.readAll(...args);
      readAllEvents += events.length;
      return events;
    },
    readTypes: async (after, types, limit) => {
      typedReads += 1;
      return store.readTypes!(after, types, limit);
    },
    subscribe: (after, handler, options) =>
      // The subscription's own reads go through the store's readAll: counted by wrapping the batches it hands over.
      store.subscribe(
        after,
        async (batch) => {
          readAllEvents += batch.length;
          await handler(batch);
        },
        options,
      ),
  };
  return { store: counted, readAllEvents: () => readAllEvents, typedReads: () => typedReads, perStream: () => ({ ...perStream }) };
}

const filler = (n: number) => ({
  id: randomUUID(),
  type: 'NotificationRead',
  data: { userId: 'someone-else', notificationId: `n-${n}` },
  metadata: { actor: { kind: 'system' as const, name: 'test' }, correlationId: randomUUID(), causationId: null },
});

describe('a restart of the deal opener (real PostgreSQL)', () => {
  let database: TestDatabase;
  let context: OpenedContext;
  const firm = { userId: randomUUID(), firmId: randomUUID() };

  beforeAll(async () => {
    database = await createTestDatabase();
    context = await openServiceContext(
      parseConfig({ DATABASE_URL: database.url, AUTOMATION: 'off' }),
      createLogger('silent', 'test'),
      database.url,
      [...commandMigrations],
    );
  });
  afterAll(async () => {
    await context?.close();
    await database?.drop();
  });

  const atHead = async (): Promise<boolean> =>
    comparePositions(await loadCheckpoint(context.pool, 'deal-opener'), await context.store.headPosition()) >= 0;

  it('opens what was agreed while it was stopped, reading only the agreements, and opens nothing twice', async () => {
    const first = await recordIntroducedDeal(context.store, firm, 920_000);
    const firstRun = counting(context.store);
    let opener = startDealOpener({ ...context, store: firstRun.store });
    await expect.poll(() => context.store.streamHead(streams.deal(first.dealId)), { timeout: 20_000, interval: 50 }).not.toBeNull();
    await expect.poll(atHead, { timeout: 20_000, interval: 50 }).toBe(true);
    await opener.close();
    const stoppedAt: Position = await loadCheckpoint(context.pool, 'deal-opener');
    expect(comparePositions(stoppedAt, START)).toBeGreaterThan(0);

    // While it is stopped, the log grows by 3,000 events it has no business with, and one agreement.
    for (let page = 0; page < 30; page++) {
      await context.store.append(
        `user-filler-${page}`,
        Array.from({ length: 100 }, (_, i) => filler(page * 100 + i)),
        'no_stream',
      );
    }
    const second = await recordIntroducedDeal(context.store, firm, 930_000);

    const secondRun = counting(context.store);
    opener = startDealOpener({ ...context, store: secondRun.store });
    await expect.poll(() => context.store.streamHead(streams.deal(second.dealId)), { timeout: 20_000, interval: 50 }).not.toBeNull();
    await expect.poll(atHead, { timeout: 20_000, interval: 50 }).toBe(true);
    await opener.close();

    // The agreements were read by type; of the 3,000 others and the agreement's own events, the subscription after
    // the catch-up saw none (it began at the head): at most the DealOpened it wrote itself.
    expect(secondRun.typedReads()).toBeGreaterThan(0);
    expect(secondRun.readAllEvents()).toBeLessThanOrEqual(1);
    // Each deal opened once: its stream holds its one DealOpened.
    for (const deal of [first, second]) {
      const events = await context.store.readStream(streams.deal(deal.dealId));
      expect(events.map((event) => event.type)).toEqual(['DealOpened']);
    }
  });

  it('a first start with its work done already asks once per page which deals and illustrations exist, and reads no stream', async () => {
    // The two agreements above are opened; their illustrations are made once.
    const atHeadOf = (name: string) => async () =>
      comparePositions(await loadCheckpoint(context.pool, name), await context.store.headPosition()) >= 0;
    const count = async (sql: string) => Number((await context.pool.query<{ n: string }>(sql)).rows[0]!.n);
    const illustrated = () => count("select count(*)::text as n from events where type = 'DocumentUploaded'");
    let maker = startIllustrationMaker(context);
    await expect.poll(illustrated, { timeout: 30_000, interval: 50 }).toBe(2);
    await maker.close();
    expect(await count('select count(*)::text as n from document_files')).toBe(2);

    // Their checkpoints lost, as on a store restored without them: each catches up from the first event.
    await saveCheckpoint(context.pool, 'deal-opener', START);
    await saveCheckpoint(context.pool, 'illustration-maker', START);
    const opener = counting(context.store);
    const started = startDealOpener({ ...context, store: opener.store });
    await expect.poll(atHeadOf('deal-opener'), { timeout: 20_000, interval: 50 }).toBe(true);
    await started.close();
    expect(opener.perStream()).toEqual({ readStream: 0, streamHead: 0, streamsWithEvents: 1 });

    const illustrations = counting(context.store);
    maker = startIllustrationMaker({ ...context, store: illustrations.store });
    await expect.poll(atHeadOf('illustration-maker'), { timeout: 20_000, interval: 50 }).toBe(true);
    await maker.close();
    expect(illustrations.perStream()).toEqual({ readStream: 0, streamHead: 0, streamsWithEvents: 1 });
    // Nothing made twice: no deal opened again, no illustration recorded or stored again.
    expect(await count("select count(*)::text as n from events where type = 'DealOpened'")).toBe(2);
    expect(await illustrated()).toBe(2);
    expect(await count('select count(*)::text as n from document_files')).toBe(2);
  }, 90_000);

  it('answers the agreements alone from a typed read, and how far the read covered', async () => {
    const read = await context.store.readTypes!(START, ['DealAgreed'], 500);
    expect(read.events.map((event) => event.type)).toEqual(['DealAgreed', 'DealAgreed']);
    expect(read.through).toEqual(await context.store.headPosition());
    // A page cut short by its limit covers only as far as its last event.
    const one = await context.store.readTypes!(START, ['DealAgreed'], 1);
    expect(one.events).toHaveLength(1);
    expect(one.through).toEqual(one.events[0]!.position);
  });
});
