/** The targets for this 2-core machine; each result line says whether it is met. */
interface Target {
  readonly key: string;
  readonly label: string;
  readonly value: (r: Record<string, any>) => number;
  readonly unit: string;
  readonly target?: { readonly op: '>=' | '<=' | '<'; readonly limit: number };
}

const TARGETS: readonly Target[] = [
  {
    key: 'api_read_ratio',
    label: 'GET /api/agents ÷ bare Fastify (req/s)',
    value: (r) => r.api_read_ratio,
    unit: '',
    target: { op: '>=', limit: 0.5 },
  },
  { key: 'command_roundtrip_ms.p50', label: 'command round trip p50', value: (r) => r.command_roundtrip_ms.p50, unit: 'ms' },
  { key: 'command_roundtrip_ms.p99', label: 'command round trip p99', value: (r) => r.command_roundtrip_ms.p99, unit: 'ms' },
  { key: 'crud_roundtrip_ms.p50', label: 'CRUD baseline round trip p50', value: (r) => r.crud_roundtrip_ms.p50, unit: 'ms' },
  { key: 'crud_roundtrip_ms.p99', label: 'CRUD baseline round trip p99', value: (r) => r.crud_roundtrip_ms.p99, unit: 'ms' },
  {
    key: 'command_roundtrip_ratio',
    label: 'command p99 ÷ CRUD p99, median of three repetitions',
    value: (r) => r.command_roundtrip_ratio,
    unit: '',
    target: { op: '<=', limit: 2 },
  },
  ...[0, 1, 2].map((n) => ({
    key: `command_roundtrip_ratio_runs[${n}]`,
    label: `repetition ${n + 1}`,
    value: (r: Record<string, any>) => r.command_roundtrip_ratio_runs[n],
    unit: '',
  })),
  { key: 'ws_push_ms.p50', label: 'socket push p50 (answer → arrival)', value: (r) => r.ws_push_ms.p50, unit: 'ms' },
  {
    key: 'ws_push_ms.p99',
    label: 'socket push p99 (answer → arrival)',
    value: (r) => r.ws_push_ms.p99,
    unit: 'ms',
    target: { op: '<', limit: 50 },
  },
  {
    key: 'append_events_per_s_batch10',
    label: 'appended events/s, 8 writers, batches of 10',
    value: (r) => r.append_events_per_s_batch10,
    unit: '/s',
    target: { op: '>=', limit: 10_000 },
  },
  {
    key: 'append_events_per_s_batch1',
    label: 'appended events/s, 8 writers, batches of 1',
    value: (r) => r.append_events_per_s_batch1,
    unit: '/s',
  },
  ...['append_events_per_s_batch1', 'append_events_per_s_batch10', 'stream_reads_per_s_1000_events', 'log_read_events_per_s'].map(
    (key) => ({
      key: `emmett.${key}.ratio`,
      label: `ours ÷ Emmett, ${key.replaceAll('_', ' ')} (median of 3)`,
      value: (r: Record<string, any>) => r.emmett[key].ratio,
      unit: '',
      target: { op: '>=' as const, limit: 1.2 },
    }),
  ),
  {
    key: 'rebuild_events_per_s',
    label: 'live rebuild of 200,000 events, product stopped',
    value: (r) => r.rebuild_events_per_s,
    unit: 'events/s',
    target: { op: '>=', limit: 40_000 },
  },
  {
    key: 'live_rebuild_events_per_s',
    label: 'live rebuild while the product serves 100 sockets',
    value: (r) => r.live_rebuild_events_per_s,
    unit: 'events/s',
  },
  {
    key: 'rebuild_push_p99_ms',
    label: 'socket push p99, 100 sockets, during a live rebuild',
    value: (r) => r.rebuild_push_p99_ms,
    unit: 'ms',
    target: { op: '<', limit: 100 },
  },
  {
    key: 'live_rebuild_switch_ms',
    label: 'live rebuild: the switch held the followers for',
    value: (r) => r.live_rebuild_switch_ms,
    unit: 'ms',
  },
  {
    key: 'stats_latency_growth',
    label: 'GET /api/stats p50, large ÷ small store, followers caught up',
    value: (r) => r.stats_latency_growth,
    unit: '',
    target: { op: '<=', limit: 1.5 },
  },
  {
    key: 'stats_latency_during_catch_up',
    label: 'the same while the followers catch up',
    value: (r) => r.stats_latency_during_catch_up,
    unit: '',
  },
  {
    key: 'console_js_gzip_kb',
    label: 'console initial JS (gzip)',
    value: (r) => r.console_js_gzip_kb,
    unit: 'KB',
    target: { op: '<', limit: 200 },
  },
  { key: 'dashboard_lcp_ms', label: '/dashboard largest contentful paint', value: (r) => r.dashboard_lcp_ms, unit: 'ms' },
  { key: 'negotiations_per_s', label: 'negotiation engine alone', value: (r) => r.negotiations_per_s, unit: '/s' },
  {
    key: 'automation_moves_per_s',
    label: 'offers recorded end to end, 16 users seed at once, no reply delay',
    value: (r) => r.automation_moves_per_s,
    unit: '/s',
  },
  {
    key: 'matching_ms_at_10k',
    label: "a new borrower's first conversation, 10,000 lenders stored (median of 3)",
    value: (r) => r.matching_ms_at_10k,
    unit: 'ms',
  },
  { key: 'engine_moves_per_s', label: 'offers made by the negotiation engine alone', value: (r) => r.engine_moves_per_s, unit: '/s' },
];

function met(value: number, target: NonNullable<Target['target']>): boolean {
  if (target.op === '>=') return value >= target.limit;
  if (target.op === '<=') return value <= target.limit;
  return value < target.limit;
}

export function markdownTable(results: Record<string, any>): string {
  const lines = ['| key | what | value | target | met |', '|---|---|---:|---|---|'];
  for (const row of TARGETS) {
    // A run of some scenarios only (--only) has no value for the others.
    let value: number | undefined;
    try {
      value = row.value(results);
    } catch {
      value = undefined;
    }
    if (typeof value !== 'number') continue;
    const target = row.target ? `${row.target.op} ${row.target.limit.toLocaleString('en-GB')}` : '';
    const verdict = row.target ? (met(value, row.target) ? 'yes' : 'no') : '';
    lines.push(`| ${row.key} | ${row.label} | ${value.toLocaleString('en-GB')} ${row.unit} | ${target} | ${verdict} |`);
  }
  return lines.join('\n');
}
