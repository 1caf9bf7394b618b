import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client.ts';

/** Catalogue data changes rarely; a minute of freshness makes back-and-forth browsing instant. */
export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 60_000,
        gcTime: 10 * 60_000,
        refetchOnWindowFocus: false,
        retry: (failures, error) => {
          // 4xx answers are final: a missing product does not appear on the third try.
          if (error instanceof ApiError && error.status < 500 && error.status !== 429) return false;
          return failures < 2;
        },
      },
    },
  });
}

export const queryClient = createQueryClient();
