import { profileQueryOptions } from '../../features/settings/api/settings';
import { getUserQueryOptions } from '../../lib/current-user';
import { queryClient } from '../../lib/query-client';
import { inChunk, screenOf, screens, SIGNED_IN } from './screens';

// Apart from screens.ts because the shell's chunk (signed-in.tsx) routes by that table: declared there, the shell's
// loader would make the two modules import each other.

/** The shell of the signed-in screens (navigation, live socket, display settings). */
export const signedIn = inChunk(() => import('./signed-in'));

/**
 * On a signed-in path, as the console boots: the shell's chunk, the screen's chunk and the current user at once, and
 * the profile every screen waits for once the user is known (so a signed-out console asks nothing more than before).
 * They would otherwise be asked for one after another, as each part renders. A failed load is left for the render
 * that needs it to meet (the error boundary, the sign-in redirect).
 */
export function startSignedIn(pathname: string): void {
  if (!SIGNED_IN.test(pathname)) return;
  const screen = screenOf(pathname);
  void signedIn.preload().catch(() => undefined);
  if (screen) void screens[screen].preload().catch(() => undefined);
  void queryClient
    .fetchQuery(getUserQueryOptions())
    .then(() => queryClient.prefetchQuery(profileQueryOptions()))
    .catch(() => undefined);
}
