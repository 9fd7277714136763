import { z } from 'zod';

/** POST /api/admin/rebuild: which read models to rebuild live (with those they read); all of them when absent. */
export const rebuildRequest = z
  .object({
    only: z.array(z.string().min(1).max(60)).min(1).max(20).optional().describe('Read model names, e.g. ["deals"]'),
  })
  .strict();

/** Where the live rebuild started from this process stands (docs/decisions/live-rebuild.md). */
export const rebuildStatusView = z.object({
  running: z.boolean(),
  phase: z.enum(['preparing', 'building', 'switching', 'done', 'failed']).nullable(),
  parts: z.array(z.string()),
  done: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  eventsPerSecond: z.number().nonnegative(),
  secondsLeft: z.number().nonnegative().nullable(),
  /** The progress as one line of words ("120,000 of 200,000 events (60%), 41,234 events/s, about 2 s left"). */
  line: z.string().nullable(),
  error: z.string().nullable(),
});
export type RebuildStatusView = z.infer<typeof rebuildStatusView>;

const rate = z.number().nonnegative().nullable().describe('per second over the window; null before there is one');
const ms = z.number().nonnegative().nullable().describe('milliseconds; null when nothing was measured in the window');

/**
 * GET /api/admin/system: this process's health as the System screen draws it, from the same metrics GET /metrics
 * serves (docs/operations/observability.md): rates and percentiles over the last minute, every follower's lag.
 */
export const systemView = z.object({
  at: z.string(),
  /** The seconds the rates and percentiles cover (up to 60); null on the first look. */
  windowSeconds: z.number().nonnegative().nullable(),
  http: z.object({ perSecond: rate, p50Ms: ms, p95Ms: ms, p99Ms: ms }),
  commands: z.object({
    decidedPerSecond: rate,
    refusedPerSecond: rate,
    conflictsPerSecond: rate,
    decided: z.number(),
    refused: z.number(),
  }),
  appends: z.object({ perSecond: rate, p50Ms: ms, p99Ms: ms }),
  realtime: z.object({ socketsOpen: z.number(), pushesPerSecond: rate, p50Ms: ms, p99Ms: ms }),
  automation: z.object({ movesPerSecond: rate, negotiationsEnded: z.number() }),
  database: z.object({ used: z.number(), idle: z.number(), max: z.number(), pending: z.number() }),
  followers: z.array(
    z.object({
      name: z.string(),
      state: z.enum(['starting', 'running', 'standby', 'failing', 'stopped']),
      position: z.string().nullable(),
      lagEvents: z.number().nullable(),
      lagSeconds: z.number().nullable(),
      restarts: z.number(),
      lastError: z.string().nullable(),
      eventsPerSecond: rate,
      batchP99Ms: ms,
    }),
  ),
});
export type SystemView = z.infer<typeof systemView>;
