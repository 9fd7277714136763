import pg from 'pg';
import { comparePositions, parsePosition, type AgentView } from '@pf/events';
import { ApiClient } from '@pf/single-node/testing/api-client';
import { waitFor } from './wait';

/**
 * A steady command load: each signed-in client creates agents one after another, each with a name of
 * its own, and remembers which the server acknowledged (201). A command whose answer never came (the
 * process died, the connection broke) is unacknowledged: it may or may not be stored, but never twice.
 */
export interface Sent {
  readonly acknowledged: ReadonlyMap<string, number>;
  readonly sent: ReadonlySet<string>;
}

export class CommandLoad implements Sent {
  /** Acknowledged agents: name -> id. */
  readonly acknowledged = new Map<string, number>();
  /** Every name sent, acknowledged or not. */
  readonly sent = new Set<string>();
  /** When each acknowledged command's answer came (ms since the epoch). */
  readonly acknowledgedAt = new Map<string, number>();
  /** Answers by status; "network" when no answer came. */
  readonly statuses = new Map<string, number>();
  private running = false;
  private loops: Promise<void>[] = [];

  constructor(
    private readonly clients: () => ApiClient[],
    private readonly prefix: string,
    private readonly pauseMs = 15,
  ) {}

  /** What one client sent and had acknowledged (each client is a user of its own, who sees only their agents). */
  of(index: number): Sent {
    const mine = (name: string) => name.startsWith(`${this.prefix} ${index}-`);
    return {
      acknowledged: new Map([...this.acknowledged].filter(([name]) => mine(name))),
      sent: new Set([...this.sent].filter(mine)),
    };
  }

  start(): void {
    this.running = true;
    this.loops = this.clients().map((_, index) => this.loop(index));
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }

  /** Waits until `count` more commands are acknowledged than when called: the load has run that far. */
  async untilAcknowledged(count: number, timeoutMs = 60_000): Promise<void> {
    const target = this.acknowledged.size + count;
    await waitFor(
      `${count} more acknowledged commands (${this.acknowledged.size} so far)`,
      () => this.acknowledged.size >= target,
      timeoutMs,
    );
  }

  /** Waits until `count` more answers of `status` ("network": no answer) are recorded than when called. */
  async untilAnswered(status: string, count = 1, timeoutMs = 60_000): Promise<void> {
    const target = (this.statuses.get(status) ?? 0) + count;
    await waitFor(`${count} more answers ${status}`, () => (this.statuses.get(status) ?? 0) >= target, timeoutMs);
  }

  private async loop(index: number): Promise<void> {
    for (let i = 0; this.running; i++) {
      // The client list is read each time: after a restart the test may hand in clients of the new process.
      const client = this.clients()[index]!;
      const name = `${this.prefix} ${index}-${i}`;
      this.sent.add(name);
      let status: string;
      try {
        const answer = await client.post<AgentView>('/api/agents', { name, type: 'borrower' });
        status = String(answer.status);
        if (answer.status === 201) {
          this.acknowledged.set(name, answer.body.id);
          this.acknowledgedAt.set(name, Date.now());
        }
        if (answer.status === 503 && !answer.headers.get('retry-after')) status = '503 without Retry-After';
      } catch {
        status = 'network';
      }
      this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
      await new Promise((resolve) => setTimeout(resolve, status === '201' ? this.pauseMs : 100));
    }
  }
}

/** Reads /readyz every 100 ms and keeps what it answered: a status code, or "down" when nothing answered. */
export class ReadinessWatch {
  /** `sent`: when the request left; `at`: when its answer (or failure) came. */
  readonly seen: { sent: number; at: number; status: number | 'down'; message?: string }[] = [];
  private running = true;
  private readonly done: Promise<void>;

  constructor(private readonly url: () => string) {
    this.done = this.loop();
  }

  private async loop(): Promise<void> {
    while (this.running) {
      const sent = Date.now();
      try {
        const response = await fetch(`${this.url()}/readyz`, { signal: AbortSignal.timeout(3000) });
        const body = (await response.json()) as { message?: string };
        this.seen.push({ sent, at: Date.now(), status: response.status, ...(body.message ? { message: body.message } : {}) });
      } catch {
        this.seen.push({ sent, at: Date.now(), status: 'down' });
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  between(from: number, to: number) {
    return this.seen.filter((entry) => entry.at >= from && entry.at <= to);
  }

  /** The checks both sent and answered within [from, to]. */
  within(from: number, to: number) {
    return this.seen.filter((entry) => entry.sent >= from && entry.at <= to);
  }

  /**
   * Waits until `count` checks sent at or after `since` got `status` ("down": no answer): an outage, or what
   * readiness said meanwhile, is then on record however slowly a loaded machine ran the checks (a fixed sleep
   * may hold only one or two of them).
   */
  async untilSeen(status: number | 'down', since: number, count: number, timeoutMs = 30_000): Promise<void> {
    await waitFor(
      `${count} readiness checks answering ${status}`,
      () => this.seen.filter((entry) => entry.sent >= since && entry.status === status).length >= count,
      timeoutMs,
    );
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.done;
  }
}

interface Readiness {
  followers: { name: string; state: string; position: string | null; lag: number | null }[];
}

/**
 * Waits until every follower has handled every event stored when this was called (the store's head then,
 * read as the event store reads it). Under a load that keeps writing, "lag 0 for all at one instant" may
 * never be seen on a busy machine; reaching the head of the moment the restart began is what catching up means.
 */
export async function untilCaughtUpWithStore(url: string, databaseUrl: string, timeoutMs = 60_000): Promise<Readiness> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  let head;
  try {
    const { rows } = await client.query<{ tx: string; position: string }>(
      `select transaction_id::text as tx, position from events where transaction_id < pg_snapshot_xmin(pg_current_snapshot())
       order by transaction_id desc, position desc limit 1`,
    );
    head = rows[0] ? parsePosition(`${rows[0].tx}:${rows[0].position}`) : null;
  } finally {
    await client.end();
  }
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ready = await untilReady(url, Math.max(1, deadline - Date.now()));
    const behind = ready.followers.filter(
      (follower) => head && follower.position !== null && comparePositions(parsePosition(follower.position), head) < 0,
    );
    if (behind.length === 0) return ready;
    if (Date.now() > deadline)
      throw new Error(`followers did not reach the store's head within ${timeoutMs} ms: ${JSON.stringify(behind)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Waits until /readyz answers 200 and every follower has handled every stored event (lag 0). */
export async function untilCaughtUp(url: string, timeoutMs = 60_000): Promise<Readiness> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ready = await untilReady(url, Math.max(1, deadline - Date.now()));
    if (ready.followers.every((follower) => !follower.lag)) return ready;
    if (Date.now() > deadline) throw new Error(`followers did not catch up within ${timeoutMs} ms: ${JSON.stringify(ready)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Waits until /readyz answers 200; returns its body. */
export async function untilReady(url: string, timeoutMs = 60_000): Promise<Readiness> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  for (;;) {
    try {
      const response = await fetch(`${url}/readyz`);
      const body = (await response.json()) as Readiness;
      if (response.status === 200) return body;
      last = JSON.stringify(body);
    } catch (error) {
      last = String(error);
    }
    if (Date.now() > deadline) throw new Error(`/readyz did not answer 200 within ${timeoutMs} ms; last: ${last}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
