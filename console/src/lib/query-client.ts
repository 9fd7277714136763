import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { isUnauthorised } from './api-client';
import { queryKeys } from './query-keys';

/**
 * Any call answered 401 (a session revoked, or idle past the timeout of Settings → Preferences) asks again
 * who is signed in; that answer's 401 is what signs the console out (the shell's unauthorised toast and the
 * login route), so the console is signed out on its next request, whichever screen made it.
 */
function signedOutMaybe(error: unknown, key?: readonly unknown[]): void {
  if (!isUnauthorised(error) || (key && key[0] === queryKeys.user[0] && key[1] === queryKeys.user[1])) return;
  void queryClient.refetchQueries({ queryKey: queryKeys.user });
}

/** No interval or focus refetch, data never stale, no retries for reads or writes. */
export const queryClient: QueryClient = new QueryClient({
  queryCache: new QueryCache({ onError: (error, query) => signedOutMaybe(error, query.queryKey) }),
  mutationCache: new MutationCache({ onError: (error) => signedOutMaybe(error) }),
  defaultOptions: {
    queries: {
      refetchInterval: false,
      refetchOnWindowFocus: false,
      staleTime: Infinity,
      retry: false,
    },
    mutations: { retry: false },
  },
});
