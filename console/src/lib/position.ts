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
}
