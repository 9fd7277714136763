import { INVITATION_PATH } from '@pf/events';

/**
 * Where a signed-out visit meant to go, kept across the sign-in (docs/decisions/firms-and-visibility.md,
 * "Firms"): an invitation link opened before signing in leads, once signed in and past the role picker,
 * to the invitation rather than to the dashboard. Only the console's own invitation paths are kept, so nothing
 * stored here can send the browser elsewhere. Session storage: it ends with the tab, like the sign-in it waits on.
 */
const KEY = 'pf.after-sign-in';
const KEPT = INVITATION_PATH;
/** The invitation whose visitor pressed its button signed out: joined without asking again once they are signed in. */
const ACCEPTING = 'pf.accepting-invitation';

export function rememberAfterSignIn(path: string): void {
  if (!KEPT.test(path)) return;
  try {
    window.sessionStorage.setItem(KEY, path);
  } catch {
    // Storage refused (a private window's quota): the visitor opens the link again after signing in.
  }
}

/** The remembered path (forgotten as it is read), else the given one. */
export function takeAfterSignIn(otherwise: string): string {
  try {
    const path = window.sessionStorage.getItem(KEY);
    window.sessionStorage.removeItem(KEY);
    return path && KEPT.test(path) ? path : otherwise;
  } catch {
    return otherwise;
  }
}

/** The kept path a sign-in page was given as `?next=` (an invitation), else the given one. */
export function afterSignInFrom(search: string, otherwise: string): string {
  const next = new URLSearchParams(search).get('next');
  return next && KEPT.test(next) ? next : otherwise;
}

/** The visitor of this invitation pressed its button: remembered across the sign-in it leads to. */
export function markAccepting(token: string): void {
  try {
    window.sessionStorage.setItem(ACCEPTING, token);
  } catch {
    // Storage refused: back from signing in, the visitor presses Join once more.
  }
}

/** Whether the visitor already chose to join this invitation (forgotten as it is read). */
export function takeAccepting(token: string): boolean {
  try {
    const accepting = window.sessionStorage.getItem(ACCEPTING);
    window.sessionStorage.removeItem(ACCEPTING);
    return accepting === token;
  } catch {
    return false;
  }
}
