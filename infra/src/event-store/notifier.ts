import { randomUUID } from 'node:crypto';
import pg from 'pg';

export const EVENTS_CHANNEL = 'events_appended';
/** The application name of every store's listening connection (how stores find each other's listeners). */
const LISTENER_NAME = 'event-notifier';
/** How often a store looks up whether another one listens. */
const OTHERS_CHECK_MS = 2000;

/**
 * One LISTEN connection per store, shared by its subscriptions. A lost connection is re-opened;
 * subscriptions also poll, so a missed notification only delays delivery.
 */
export class Notifier {
  /**
   * Sent as the payload of this store's own NOTIFY: its followers were already woken at the commit
   * (`wake`), so its own notification coming back would only make them read again for nothing.
   */
  readonly token = randomUUID();
  private client: pg.Client | null = null;
  private readonly listeners = new Set<() => void>();
  private closed = false;
  private connecting: Promise<void> | null = null;
  /** How many wake-ups there have been (local appends, and notifications from other processes). */
  wakes = 0;
  /** Whether another process listens on this database (then appends NOTIFY it), as last looked up. */
  private others = true;
  private othersCheckedAt = 0;
  private checkingOthers = false;

  /** `pool`: where the store looks up other listeners (the listening connection itself only ever LISTENs). */
  constructor(
    private readonly connectionString: string,
    private readonly pool?: pg.Pool,
  ) {}

  onWake(listener: () => void): () => void {
    this.listeners.add(listener);
    void this.ensureConnected();
    return () => this.listeners.delete(listener);
  }

  private ensureConnected(): Promise<void> {
    if (this.client || this.closed) return Promise.resolve();
    this.connecting ??= this.connect().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString, application_name: LISTENER_NAME });
    client.on('notification', (message) => {
      if (message.payload !== this.token) this.wake();
    });
    client.on('error', () => this.drop(client));
    client.on('end', () => this.drop(client));
    try {
      await client.connect();
      await client.query(`listen ${EVENTS_CHANNEL}`);
      if (this.closed) {
        await client.end();
        return;
      }
      this.client = client;
      this.wake();
    } catch {
      this.drop(client);
    }
  }

  private drop(client: pg.Client): void {
    if (this.client === client) this.client = null;
    this.others = true;
    client.removeAllListeners('notification');
    void client.end().catch(() => undefined);
    if (!this.closed && this.listeners.size > 0) setTimeout(() => void this.ensureConnected(), 1000).unref();
  }

  /**
   * Whether any other session listens for appends on this database (another process, or another store in
   * this one): only then is a NOTIFY worth sending, since this store's own followers are woken in process.
   * Looked up on the pool at most every OTHERS_CHECK_MS, leaving out this store's own listening connection
   * when it has one (by its backend pid); a store with no connection up (no follower of its own, as in a
   * process that only appends, or one being re-opened) counts every listener, its own leftover one too, so
   * it may notify for nothing but never misses anyone. Until the first answer it says yes. A listener that
   * starts meanwhile is only told by its next poll (POLL_MS), a wake-up a few hundred milliseconds late at
   * worst, never an event lost.
   */
  othersMayListen(): boolean {
    if (!this.pool) return true;
    if (!this.checkingOthers && Date.now() - this.othersCheckedAt >= OTHERS_CHECK_MS) {
      // No backend has pid 0: without a connection of its own, nothing is left out.
      const pid = (this.client as unknown as { processID?: number } | null)?.processID ?? 0;
      this.checkingOthers = true;
      this.pool
        .query<{ others: boolean }>(
          `select exists (select 1 from pg_stat_activity
             where datname = current_database() and application_name = $1 and pid <> $2) as others`,
          [LISTENER_NAME, pid],
        )
        .then((result) => {
          this.others = result.rows[0]?.others ?? true;
          this.othersCheckedAt = Date.now();
        })
        .catch(() => (this.others = true))
        .finally(() => (this.checkingOthers = false));
    }
    return this.others;
  }

  /** Wakes this process's subscriptions at once (an append here need not wait for PostgreSQL to deliver its NOTIFY). */
  wake(): void {
    this.wakes += 1;
    for (const listener of this.listeners) listener();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listeners.clear();
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }
}
