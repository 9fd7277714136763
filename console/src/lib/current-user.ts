import { currentUserView } from '@pf/events';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api-client';
import { queryKeys } from './query-keys';

/**
 * Asked for as soon as the console boots on a signed-in path (startSignedIn in app/routes/screens.ts). Not asked
 * again when the shell mounts after a failed answer: a second 401 would toast and redirect a second time.
 */
export const getUserQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.user, queryFn: () => api.get('/api/auth/user', currentUserView), retryOnMount: false });

/** Signed in when the current-user call returns data; not retried on failure. */
export function useUser() {
  return useQuery(getUserQueryOptions());
}
