import { currentUserView } from '@pf/events';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api-client';
import { queryKeys } from './query-keys';

const getUserQueryOptions = () => queryOptions({ queryKey: queryKeys.user, queryFn: () => api.get('/api/auth/user', currentUserView) });

/** Signed in when the current-user call returns data; not retried on failure. */
export function useUser() {
  return useQuery(getUserQueryOptions());
}
