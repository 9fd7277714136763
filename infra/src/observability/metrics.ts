import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The process's metrics, in one prom-client registry read by GET /metrics (docs/operations/observability.md). One
 * registry per process: a process runs one node or one service. Names and units follow OpenTelemetry's semantic
 * conventions where they have one (HTTP, the database client's pool), written as Prometheus writes them (dots as
 * underscores, the unit as a suffix); the product's own are named for what they count.
 */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

/** OpenTelemetry's advised boundaries for http.server.request.duration, in seconds. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
/** A follower's batch and a push run from a fraction of a millisecond (one event) to seconds (a catch-up). */
const FINE_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const metrics = {
  httpDuration: new Histogram({
    name: 'http_server_request_duration_seconds',
    help: 'Duration of HTTP server requests (OpenTelemetry http.server.request.duration), by method, route template and status',
    labelNames: ['http_request_method', 'http_route', 'http_response_status_code'] as const,
    buckets: DURATION_BUCKETS,
    registers: [metricsRegistry],
  }),
  commandsDecided: new Counter({
    name: 'commands_decided_total',
    help: 'Commands decided and stored (events appended), by command type',
    labelNames: ['command'] as const,
    registers: [metricsRegistry],
  }),
  commandsUnchanged: new Counter({
    name: 'commands_unchanged_total',
    help: 'Commands decided that changed nothing (already so), by command type',
    labelNames: ['command'] as const,
    registers: [metricsRegistry],
  }),
  commandsRefused: new Counter({
    name: 'commands_refused_total',
    help: 'Commands refused by their decider or the version named, by command type and reason (invalid, forbidden, not_found, conflict, precondition_failed)',
    labelNames: ['command', 'reason'] as const,
    registers: [metricsRegistry],
  }),
  commandConflicts: new Counter({
    name: 'commands_conflicts_total',
    help: 'Appends that found the stream changed since it was read (each is decided again, or refused when a version was named)',
    labelNames: ['command'] as const,
    registers: [metricsRegistry],
  }),
  appends: new Counter({
    name: 'eventstore_appends_total',
    help: 'Appends to the event store, by outcome (stored, conflict, failed)',
    labelNames: ['outcome'] as const,
    registers: [metricsRegistry],
  }),
  appendedEvents: new Counter({
    name: 'eventstore_appended_events_total',
    help: 'Events stored by appends',
    registers: [metricsRegistry],
  }),
  appendDuration: new Histogram({
    name: 'eventstore_append_duration_seconds',
    help: 'Time from an append being asked to its answer (group commit included)',
    buckets: FINE_BUCKETS,
    registers: [metricsRegistry],
  }),
  batchDuration: new Histogram({
    name: 'follower_batch_duration_seconds',
    help: 'Time a follower of the event stream took to handle one batch, by follower',
    labelNames: ['follower'] as const,
    buckets: FINE_BUCKETS,
    registers: [metricsRegistry],
  }),
  batchEvents: new Counter({
    name: 'follower_events_handled_total',
    help: 'Events handed to a follower of the event stream, by follower',
    labelNames: ['follower'] as const,
    registers: [metricsRegistry],
  }),
  socketsOpen: new Gauge({
    name: 'realtime_sockets_open',
    help: 'WebSockets open on the realtime gateway',
    registers: [metricsRegistry],
  }),
  pushes: new Counter({
    name: 'realtime_pushes_total',
    help: 'Pushes sent to sockets by the realtime gateway (one per socket told of an event)',
    registers: [metricsRegistry],
  }),
  pushLatency: new Histogram({
    name: 'realtime_push_latency_seconds',
    help: 'Time from an event being stored to the gateway pushing it to the sockets entitled to it',
    buckets: FINE_BUCKETS,
    registers: [metricsRegistry],
  }),
  automatedMoves: new Counter({
    name: 'automation_moves_total',
    help: "Automated agents' moves, by outcome (made, superseded: the conversation moved on first, failed)",
    labelNames: ['outcome'] as const,
    registers: [metricsRegistry],
  }),
  negotiations: new Counter({
    name: 'automation_negotiations_total',
    help: 'Negotiations ended by an automated agent, by outcome (agreed, ended)',
    labelNames: ['outcome'] as const,
    registers: [metricsRegistry],
  }),
};

/** Seconds since `startedMs` (a performance.now() reading). */
export function secondsSince(startedMs: number): number {
  return (performance.now() - startedMs) / 1000;
}
