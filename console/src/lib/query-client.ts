import { QueryClient } from '@tanstack/react-query';

/** Spec §9: no interval or focus refetch, data never stale, no retries for reads or writes. */
export const queryClient = new QueryClient({
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
