import { currentUserView } from '@pf/events';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client';
import { queryKeys } from '../../lib/query-keys';

export const getUserQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.user, queryFn: () => api.get('/api/auth/user', currentUserView) });

/** Spec §4: authenticated when the current-user call returns data; not retried on failure. */
export function useUser() {
  return useQuery(getUserQueryOptions());
}
