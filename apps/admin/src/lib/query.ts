import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api.ts';

/** Staff read what changes under them: short freshness, no retry of a final 4xx. */
export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        refetchOnWindowFocus: false,
        retry: (failures, error) => {
          if (error instanceof ApiError && error.status < 500 && error.status !== 429) return false;
          return failures < 2;
        },
      },
    },
  });
}
