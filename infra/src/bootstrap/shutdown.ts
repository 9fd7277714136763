import type { Logger } from '../logger';

/** How long one step of a shutdown may take before the next one goes ahead without it. */
export const SHUTDOWN_STEP_MS = 10_000;

export type ShutdownStep = readonly [name: string, step: () => Promise<unknown> | undefined];

/**
 * Runs the steps of a graceful stop in order, each given at most `stepMs`: a step that has not finished by then
 * (a follower stuck on a lost connection, a socket that never closes) is logged by name and left behind, so that
 * a stop always ends and the steps after it (the pool, the embedded database) still run. A step that fails is
 * logged and passed over for the same reason.
 */
export async function shutDownInOrder(log: Logger, steps: readonly ShutdownStep[], stepMs = SHUTDOWN_STEP_MS): Promise<void> {
  for (const [name, step] of steps) {
    let timer: NodeJS.Timeout | undefined;
    const overdue = new Promise<'overdue'>((resolve) => {
      timer = setTimeout(() => resolve('overdue'), stepMs);
      timer.unref();
    });
    try {
      const outcome = await Promise.race([Promise.resolve(step()).then(() => 'done' as const), overdue]);
      if (outcome === 'overdue') log.warn(`Stopping: ${name} did not finish within ${stepMs / 1000} s; going on without it`);
    } catch (error) {
      log.warn({ err: error }, `Stopping: ${name} failed; going on`);
    } finally {
      clearTimeout(timer);
    }
  }
}
