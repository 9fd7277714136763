import type { FastifyRequest } from 'fastify';
import { parsePosition, positionToken, type Position } from '@pf/events';
import { Invalid, NotCaughtUp, type EventStore } from '@pf/infra';
import type { ReadModelProgress } from './projection-kit/progress';

/** The position a read names in `x-after-position`, checked; undefined when it names none. */
export function afterPosition(request: FastifyRequest): { position: Position; token: string } | undefined {
  const header = request.headers['x-after-position'];
  if (header === undefined) return undefined;
  const token = Array.isArray(header) ? header[0]! : header;
  if (!positionToken.safeParse(token).success) {
    throw new Invalid(`x-after-position must be a position such as "812:40", not "${token.slice(0, 40)}"`);
  }
  return { position: parsePosition(token), token };
}

/**
 * Read your writes: waits (bounded) until the follower behind `progress` has passed the position, else 503
 * (NotCaughtUp). A position no event ever had is the client's mistake, not a wait too short: 400.
 */
export async function waitUntilApplied(
  progress: ReadModelProgress,
  store: EventStore,
  { position, token }: { position: Position; token: string },
  timeoutMs: number,
): Promise<void> {
  try {
    await progress.waitFor(position, timeoutMs);
  } catch (error) {
    if (error instanceof NotCaughtUp && store.wasWrittenAt && !(await store.wasWrittenAt(position))) {
      throw new Invalid(`x-after-position: no event was written at "${token}"; send a position this server gave you`);
    }
    throw error;
  }
}
