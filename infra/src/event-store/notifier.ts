import { randomUUID } from 'node:crypto';
import pg from 'pg';

export const EVENTS_CHANNEL = 'events_appended';

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

  constructor(private readonly connectionString: string) {}

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
    const client = new pg.Client({ connectionString: this.connectionString, application_name: 'event-notifier' });
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
    client.removeAllListeners('notification');
    void client.end().catch(() => undefined);
    if (!this.closed && this.listeners.size > 0) setTimeout(() => void this.ensureConnected(), 1000).unref();
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
