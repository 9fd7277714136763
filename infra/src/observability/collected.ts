import type pg from 'pg';
import { Counter, Gauge } from 'prom-client';
import { formatPosition } from '@pf/events';
import type { EventStore } from '../event-store/port';
import type { FollowerState, Supervisor } from '../supervision/supervisor';
import { metricsRegistry } from './metrics';

/** What a node or service lends its metrics while it runs: read at each scrape, not counted as it goes. */
export interface MetricsSource {
  readonly pool: pg.Pool;
  readonly store: EventStore;
  readonly supervisor: Supervisor;
  /** A follower further behind than this many events is reported as this many (the count reads them). */
  readonly lagCap: number;
  /** The embedded database this process runs itself, if any. */
  readonly embedded?: { status(): { readonly state: string; readonly restarts: number } };
}

const sources = new Set<MetricsSource>();

/** Adds a source for as long as it runs; call the answer to take it away. */
export function lendMetrics(source: MetricsSource): () => void {
  sources.add(source);
  return () => sources.delete(source);
}

export interface FollowerLag {
  readonly name: string;
  readonly state: FollowerState;
  readonly position: string | null;
  /** Events stored after its position (at most lagCap); null when unknown (standby, no position, the store did not answer). */
  readonly lagEvents: number | null;
  /** How long the oldest event it has not handled has been stored, in seconds (0 when at the head). */
  readonly lagSeconds: number | null;
  readonly restarts: number;
  readonly lastError: string | null;
}

const LAG_TIMEOUT_MS = 1500;
let lagsCache: { at: number; lags: Promise<FollowerLag[]> } | null = null;

/**
 * Every follower's position and lag, read from the store (one short read each; a read of at most lagCap events for
 * one that lags). Kept for a second, so that a scrape and the System screen asking at once read once.
 */
export function followerLags(now = Date.now()): Promise<FollowerLag[]> {
  if (lagsCache && now - lagsCache.at < 1000) return lagsCache.lags;
  const lags = Promise.all([...sources].flatMap((source) => source.supervisor.statuses().map((status) => lagOf(source, status, now))));
  lagsCache = { at: now, lags };
  return lags;
}

async function lagOf(source: MetricsSource, status: ReturnType<Supervisor['statuses']>[number], now: number): Promise<FollowerLag> {
  let lagEvents: number | null = null;
  let lagSeconds: number | null = null;
  if (status.position && status.state !== 'standby') {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), LAG_TIMEOUT_MS)));
    const behind = await Promise.race([source.store.readAll(status.position, source.lagCap, { lean: true }).catch(() => null), timeout]);
    clearTimeout(timer);
    if (behind) {
      lagEvents = behind.length;
      lagSeconds = behind.length === 0 ? 0 : Math.max(0, (now - behind[0]!.recordedAt.getTime()) / 1000);
    }
  }
  return {
    name: status.name,
    state: status.state,
    position: status.position ? formatPosition(status.position) : null,
    lagEvents,
    lagSeconds,
    restarts: status.restarts,
    lastError: status.lastError,
  };
}

/** The pools' connections, summed over the sources (one in a process that runs one node or service). */
export function poolUse(): { used: number; idle: number; max: number; pending: number } {
  let total = 0;
  let idle = 0;
  let max = 0;
  let pending = 0;
  for (const { pool } of sources) {
    total += pool.totalCount;
    idle += pool.idleCount;
    max += pool.options.max;
    pending += pool.waitingCount;
  }
  return { used: total - idle, idle, max, pending };
}

const FOLLOWER_STATES: readonly FollowerState[] = ['starting', 'running', 'standby', 'failing', 'stopped'];

new Gauge({
  name: 'follower_lag_events',
  help: "Events stored after the follower's position (capped at READY_MAX_LAG_EVENTS + 1)",
  labelNames: ['follower'] as const,
  registers: [metricsRegistry],
  async collect() {
    this.reset();
    for (const lag of await followerLags()) if (lag.lagEvents !== null) this.set({ follower: lag.name }, lag.lagEvents);
  },
});

new Gauge({
  name: 'follower_lag_seconds',
  help: 'How long the oldest event the follower has not handled has been stored (0 at the head)',
  labelNames: ['follower'] as const,
  registers: [metricsRegistry],
  async collect() {
    this.reset();
    for (const lag of await followerLags()) if (lag.lagSeconds !== null) this.set({ follower: lag.name }, lag.lagSeconds);
  },
});

new Gauge({
  name: 'follower_position',
  help: "The follower's position in the event log (PostgreSQL: the transaction id of the last event it handled)",
  labelNames: ['follower'] as const,
  registers: [metricsRegistry],
  collect() {
    this.reset();
    for (const source of sources)
      for (const status of source.supervisor.statuses())
        if (status.position) this.set({ follower: status.name }, Number(status.position.commit));
  },
});

new Gauge({
  name: 'follower_state',
  help: "The follower's state: 1 for the one it is in (starting, running, standby, failing, stopped)",
  labelNames: ['follower', 'state'] as const,
  registers: [metricsRegistry],
  collect() {
    this.reset();
    for (const source of sources)
      for (const status of source.supervisor.statuses())
        for (const state of FOLLOWER_STATES) this.set({ follower: status.name, state }, status.state === state ? 1 : 0);
  },
});

new Counter({
  name: 'follower_restarts_total',
  help: 'Times the supervisor has started the follower again after a failure, since the process started',
  labelNames: ['follower'] as const,
  registers: [metricsRegistry],
  collect() {
    this.reset();
    for (const source of sources) for (const status of source.supervisor.statuses()) this.inc({ follower: status.name }, status.restarts);
  },
});

new Gauge({
  name: 'db_client_connection_count',
  help: 'Connections of the PostgreSQL pool, by state (OpenTelemetry db.client.connection.count: idle, used)',
  labelNames: ['db_client_connection_state'] as const,
  registers: [metricsRegistry],
  collect() {
    const { used, idle } = poolUse();
    this.set({ db_client_connection_state: 'idle' }, idle);
    this.set({ db_client_connection_state: 'used' }, used);
  },
});

new Gauge({
  name: 'db_client_connection_max',
  help: 'The most connections the pool may open (OpenTelemetry db.client.connection.max)',
  registers: [metricsRegistry],
  collect() {
    this.set(poolUse().max);
  },
});

new Gauge({
  name: 'db_client_connection_pending_requests',
  help: 'Requests waiting for a connection from the pool (OpenTelemetry db.client.connection.pending_requests)',
  registers: [metricsRegistry],
  collect() {
    this.set(poolUse().pending);
  },
});

new Counter({
  name: 'embedded_database_restarts_total',
  help: 'Times the embedded PostgreSQL stopped by itself and was started again, since the process started',
  registers: [metricsRegistry],
  collect() {
    this.reset();
    this.inc([...sources].reduce((sum, { embedded }) => sum + (embedded?.status().restarts ?? 0), 0));
  },
});

new Gauge({
  name: 'embedded_database_up',
  help: 'Whether the embedded PostgreSQL is serving (1) or being started again (0); absent against DATABASE_URL',
  registers: [metricsRegistry],
  collect() {
    this.reset();
    for (const { embedded } of sources) if (embedded) this.set(embedded.status().state === 'running' ? 1 : 0);
  },
});
