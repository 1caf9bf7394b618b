import { type User, UserResponseSchema } from '@store/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, apiGet } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { clearSession, getSession, setSessionUser } from '../../../lib/session-store.ts';

export const USER_QUERY_KEY = ['user'] as const;

/**
 * GET /user. An answer that says the token is no good (401, or any other refusal short of rate
 * limiting) ends the session; a server or network failure keeps it, since it says nothing about the
 * token.
 */
export async function getUser(signal?: AbortSignal): Promise<User> {
  try {
    const { user } = await apiGet('/user', UserResponseSchema, { signal });
    setSessionUser(user);
    return user;
  } catch (error) {
    if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 429) {
      clearSession();
    }
    throw error;
  }
}

export const userQueryOptions = () =>
  queryOptions({
    queryKey: USER_QUERY_KEY,
    queryFn: ({ signal }) => getUser(signal),
    staleTime: 0,
    initialData: () => getSession().user ?? undefined,
    initialDataUpdatedAt: 0,
  });

export const useUser = () => useQuery(userQueryOptions());

/** A changed user (profile edits, activation): the cache and the stored copy agree. */
export function storeUser(user: User) {
  setSessionUser(user);
  queryClient.setQueryData(USER_QUERY_KEY, user);
}

/** On page load and window focus: check the stored token still works. */
export async function refreshSession(): Promise<void> {
  if (!getSession().token) return;
  try {
    await queryClient.fetchQuery({ ...userQueryOptions(), staleTime: 0 });
  } catch {
    // getUser has already ended the session if the answer called for it.
  }
}
