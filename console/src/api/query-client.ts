import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './http.ts';

/** The one cache of server state. Routes prefetch into it while their code loads; pages read from it. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // An answer refused for a reason (403, 404) does not get better by asking again.
      retry: (failures, error) => failures < 2 && !(error instanceof ApiError && error.status < 500),
      refetchOnWindowFocus: true,
      // What a route prefetched while its code loaded is not asked for again the moment the page mounts.
      staleTime: 2_000,
    },
  },
});
