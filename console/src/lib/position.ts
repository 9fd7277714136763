import { compareTokens, positionToken } from '@pf/events';

/**
 * The furthest point in the event log this browser knows about: the `x-position` of its own commands and the
 * `position` of every push. Reads send it as `x-after-position`, so a list refetched after a write (ours or
 * one pushed to us) already shows it.
 */
let latest: string | null = null;

export function notePosition(token: string | null | undefined): void {
  if (!token || !positionToken.safeParse(token).success) return;
  if (latest === null || compareTokens(token, latest) > 0) latest = token;
}

export function latestPosition(): string | null {
  return latest;
}

export function resetPosition(): void {
  latest = null;
  viewPositions.clear();
}

/** Per entity ("conversation:7"), the position of the newest view of it written into the query cache. */
const viewPositions = new Map<string, string>();

/**
 * Whether a view of `key` that stands at `token` may replace the one in the cache: not when the cache already
 * holds a view from a later position. A command's answer can arrive after the push of a later change (another
 * session took the side the moment this one handed it back); written over it, the screen would show the older
 * state until the next change. Pushes arrive in order, so skipping an older view loses nothing. A view with no
 * position (a command that changed nothing) only fills an entity no positioned view has reached yet.
 */
export function takeView(key: string, token: string | null | undefined): boolean {
  const known = viewPositions.get(key);
  if (!token || !positionToken.safeParse(token).success) return known === undefined;
  if (known !== undefined && compareTokens(token, known) < 0) return false;
  viewPositions.set(key, token);
  return true;
}
