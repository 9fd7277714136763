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
