import type { SystemView } from '@pf/events';
import { followerLags, poolUse } from './collected';
import { metricsRegistry } from './metrics';

/** Every counted value of the registry's counters and histograms, by series (name and labels). */
type Snapshot = Map<string, { readonly name: string; readonly labels: Partial<Record<string, string | number>>; readonly value: number }>;

const COUNTED = [
  'http_server_request_duration_seconds',
  'commands_decided_total',
  'commands_refused_total',
  'commands_conflicts_total',
  'eventstore_append_duration_seconds',
  'realtime_pushes_total',
  'realtime_push_latency_seconds',
  'automation_moves_total',
  'automation_negotiations_total',
  'follower_batch_duration_seconds',
  'follower_events_handled_total',
];

async function snapshot(): Promise<Snapshot> {
  const series: Snapshot = new Map();
  for (const name of COUNTED) {
    const metric = metricsRegistry.getSingleMetric(name);
    if (!metric) continue;
    for (const entry of (await metric.get()).values) {
      const { labels, value } = entry;
      const seriesName = 'metricName' in entry && typeof entry.metricName === 'string' ? entry.metricName : name;
      series.set(`${seriesName}${JSON.stringify(labels)}`, { name: seriesName, labels, value });
    }
  }
  return series;
}

type Labels = Record<string, string>;
const matches = (labels: Partial<Record<string, string | number>>, wanted: Labels) =>
  Object.entries(wanted).every(([key, value]) => String(labels[key]) === value);

function total(series: Snapshot, name: string, wanted: Labels = {}): number {
  let sum = 0;
  for (const entry of series.values()) if (entry.name === name && matches(entry.labels, wanted)) sum += entry.value;
  return sum;
}

/** The histogram's cumulative counts by upper bound, summed over the series that carry the labels wanted. */
function buckets(series: Snapshot, histogram: string, wanted: Labels = {}): Map<number, number> {
  const counts = new Map<number, number>();
  for (const entry of series.values()) {
    if (entry.name !== `${histogram}_bucket` || !matches(entry.labels, wanted)) continue;
    const bound = entry.labels.le === '+Inf' ? Infinity : Number(entry.labels.le);
    counts.set(bound, (counts.get(bound) ?? 0) + entry.value);
  }
  return counts;
}

/**
 * The q-quantile of what was observed between two snapshots, from the histogram's buckets, as Prometheus'
 * histogram_quantile estimates it: linear within the bucket it falls in; the highest finite bound when it falls
 * in the last. Null when nothing was observed.
 */
function quantile(q: number, now: Map<number, number>, then: Map<number, number>): number | null {
  const bounds = [...now.keys()].sort((a, b) => a - b);
  const counts = bounds.map((bound) => (now.get(bound) ?? 0) - (then.get(bound) ?? 0));
  const observed = counts[counts.length - 1] ?? 0;
  if (observed <= 0) return null;
  const rank = q * observed;
  for (let i = 0; i < bounds.length; i++) {
    if (counts[i]! < rank) continue;
    const upper = bounds[i]!;
    const lower = i === 0 ? 0 : bounds[i - 1]!;
    if (upper === Infinity) return lower;
    const below = i === 0 ? 0 : counts[i - 1]!;
    const inBucket = counts[i]! - below;
    return inBucket <= 0 ? upper : lower + (upper - lower) * ((rank - below) / inBucket);
  }
  return null;
}

const WINDOW_MS = 60_000;

/** Reads the process's metrics over the last minute, for the System screen; each call is also a sample for the next. */
export class SystemSummary {
  private samples: { at: number; series: Snapshot }[] = [];

  /** A first sample, so that the first look already has a window. */
  async start(): Promise<void> {
    this.samples.push({ at: Date.now(), series: await snapshot() });
  }

  async read(): Promise<SystemView> {
    const at = Date.now();
    const now = await snapshot();
    const baseline = this.samples.find((sample) => at - sample.at <= WINDOW_MS && at - sample.at >= 500) ?? null;
    this.samples = [...this.samples.filter((sample) => at - sample.at <= WINDOW_MS), { at, series: now }];
    const seconds = baseline ? (at - baseline.at) / 1000 : null;
    const then: Snapshot = baseline?.series ?? new Map<string, never>();
    const perSecond = (name: string, wanted: Labels = {}) =>
      seconds === null ? null : Math.max(0, total(now, name, wanted) - total(then, name, wanted)) / seconds;
    const percentileMs = (q: number, histogram: string, wanted: Labels = {}) => {
      if (seconds === null) return null;
      const value = quantile(q, buckets(now, histogram, wanted), buckets(then, histogram, wanted));
      return value === null ? null : value * 1000;
    };
    const pool = poolUse();
    return {
      at: new Date(at).toISOString(),
      windowSeconds: seconds,
      http: {
        perSecond: perSecond('http_server_request_duration_seconds_count'),
        p50Ms: percentileMs(0.5, 'http_server_request_duration_seconds'),
        p95Ms: percentileMs(0.95, 'http_server_request_duration_seconds'),
        p99Ms: percentileMs(0.99, 'http_server_request_duration_seconds'),
      },
      commands: {
        decidedPerSecond: perSecond('commands_decided_total'),
        refusedPerSecond: perSecond('commands_refused_total'),
        conflictsPerSecond: perSecond('commands_conflicts_total'),
        decided: total(now, 'commands_decided_total'),
        refused: total(now, 'commands_refused_total'),
      },
      appends: {
        perSecond: perSecond('eventstore_append_duration_seconds_count'),
        p50Ms: percentileMs(0.5, 'eventstore_append_duration_seconds'),
        p99Ms: percentileMs(0.99, 'eventstore_append_duration_seconds'),
      },
      realtime: {
        socketsOpen: (await metricsRegistry.getSingleMetric('realtime_sockets_open')?.get())?.values[0]?.value ?? 0,
        pushesPerSecond: perSecond('realtime_pushes_total'),
        p50Ms: percentileMs(0.5, 'realtime_push_latency_seconds'),
        p99Ms: percentileMs(0.99, 'realtime_push_latency_seconds'),
      },
      automation: {
        movesPerSecond: perSecond('automation_moves_total', { outcome: 'made' }),
        negotiationsEnded: total(now, 'automation_negotiations_total'),
      },
      database: pool,
      followers: (await followerLags(at)).map((lag) => ({
        ...lag,
        eventsPerSecond: perSecond('follower_events_handled_total', { follower: lag.name }),
        batchP99Ms: percentileMs(0.99, 'follower_batch_duration_seconds', { follower: lag.name }),
      })),
    };
  }
}
