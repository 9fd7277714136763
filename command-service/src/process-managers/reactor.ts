import pg from 'pg';
import { comparePositions, START } from '@pf/events';
import { checkpointStore, type EventStore, type Logger, type RecordedEvent, type Subscription } from '@pf/infra';

export interface ReactorHandlers {
  /** Rebuilds in-memory state from an event already handled before (at or before the checkpoint). */
  replay(event: RecordedEvent): void;
  /** Handles new events: update state and issue commands. The checkpoint moves after it resolves. */
  react(batch: readonly RecordedEvent[]): Promise<void>;
  /** Called once the reactor has caught up, to resume work that was waiting on a timer when it last stopped. */
  caughtUp(): void;
}

export interface Reactor {
  close(): Promise<void>;
}

const RETRY_LEADERSHIP_MS = 2000;

/**
 * A process manager's event loop. One copy leads (a PostgreSQL advisory lock held on its own
 * connection); the others wait to take over. The leader rebuilds its state from the start,
 * reacts to events after its checkpoint, and stores the checkpoint after each batch (at-least-once;
 * reactions are idempotent by deterministic event ids and stored decisions).
 */
export function startReactor(options: {
  name: string;
  pool: pg.Pool;
  databaseUrl: string;
  store: EventStore;
  log: Logger;
  handlers: () => ReactorHandlers;
}): Reactor {
  const { name, pool, store, log } = options;
  let stopped = false;
  let lockClient: pg.Client | null = null;
  let subscription: Subscription | null = null;
  let retryTimer: NodeJS.Timeout | null = null;

  const checkpoint = checkpointStore(pool, `reactor:${name}`);

  const lead = async () => {
    const handlers = options.handlers();
    const from = await checkpoint.load();
    subscription = store.subscribe(
      START,
      async (batch) => {
        const fresh = batch.filter((event) => comparePositions(event.position, from) > 0);
        for (const event of batch) if (comparePositions(event.position, from) <= 0) handlers.replay(event);
        if (fresh.length === 0) return;
        await handlers.react(fresh);
        await checkpoint.save(fresh[fresh.length - 1]!.position);
      },
      {
        batchSize: 500,
        onError: (error) => {
          log.error({ err: error, reactor: name }, 'process manager failed; it will start again');
          void release().then(schedule);
        },
      },
    );
    void subscription.caughtUp.then(() => {
      if (!stopped) handlers.caughtUp();
    });
  };

  const tryLead = async () => {
    retryTimer = null;
    if (stopped) return;
    const client = new pg.Client({ connectionString: options.databaseUrl, application_name: `reactor:${name}` });
    try {
      await client.connect();
      client.on('error', () => void release().then(schedule));
      const result = await client.query<{ locked: boolean }>('select pg_try_advisory_lock(hashtext($1)) as locked', [
        `reactor:${name}`,
      ]);
      if (!result.rows[0]!.locked || stopped) {
        await client.end();
        return schedule();
      }
      lockClient = client;
      log.info({ reactor: name }, 'leading the process manager');
      await lead();
    } catch (error) {
      log.warn({ err: error, reactor: name }, 'could not start the process manager; retrying');
      await client.end().catch(() => undefined);
      schedule();
    }
  };

  function schedule() {
    if (!stopped && !retryTimer) retryTimer = setTimeout(() => void tryLead(), RETRY_LEADERSHIP_MS);
  }

  async function release() {
    const current = subscription;
    subscription = null;
    await current?.close();
    const client = lockClient;
    lockClient = null;
    await client?.end().catch(() => undefined);
  }

  void tryLead();
  return {
    async close() {
      stopped = true;
      if (retryTimer) clearTimeout(retryTimer);
      await release();
    },
  };
}
