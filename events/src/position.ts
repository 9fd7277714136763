import { z } from 'zod';

/**
 * A global position in the event log. Both adapters order events by a pair:
 * PostgreSQL by (transaction id, sequence number), EventStoreDB by (commit, prepare).
 * On the wire it is the string "commit:prepare", so it fits an HTTP header and JSON.
 */
export interface Position {
  readonly commit: bigint;
  readonly prepare: bigint;
}

export const START: Position = { commit: 0n, prepare: 0n };

/**
 * The largest parts a position can have: PostgreSQL's transaction ids (xid8) and EventStoreDB's commit positions
 * are unsigned 64-bit, and the store's sequence is a signed 64-bit bigint. A token beyond them names no place in
 * any log, so it is refused where it enters (400), not found out by the database.
 */
const MAX_COMMIT = 2n ** 64n - 1n;
const MAX_PREPARE = 2n ** 63n - 1n;

export const positionToken = z
  .string()
  .regex(/^\d{1,20}:\d{1,20}$/, { error: 'A position is two whole numbers joined by a colon, such as "812:40"', abort: true })
  .refine(
    (token) => {
      const [commit, prepare] = token.split(':') as [string, string];
      return BigInt(commit) <= MAX_COMMIT && BigInt(prepare) <= MAX_PREPARE;
    },
    { error: `A position's first number is at most ${MAX_COMMIT} and its second at most ${MAX_PREPARE}` },
  );

export function formatPosition(position: Position): string {
  return `${position.commit}:${position.prepare}`;
}

export function parsePosition(token: string): Position {
  const parsed = positionToken.safeParse(token);
  if (!parsed.success) throw new RangeError(`Not a position: ${JSON.stringify(token)}`);
  const [commit, prepare] = token.split(':') as [string, string];
  return { commit: BigInt(commit), prepare: BigInt(prepare) };
}

export function comparePositions(a: Position, b: Position): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  if (a.prepare !== b.prepare) return a.prepare < b.prepare ? -1 : 1;
  return 0;
}

/** Compares two wire tokens; a convenience for the console, which keeps positions as strings. */
export function compareTokens(a: string, b: string): number {
  return comparePositions(parsePosition(a), parsePosition(b));
}
