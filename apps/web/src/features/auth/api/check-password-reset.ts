import { OkResponseSchema } from '@store/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet, segment } from '../../../lib/api-client.ts';

/** GET /password-reset/{token}: whether the emailed link can still set a password; it is not used up. */
export const checkPasswordReset = (token: string, signal?: AbortSignal) =>
  apiGet(`/password-reset/${segment(token)}`, OkResponseSchema, { signal });

export const passwordResetCheckOptions = (token: string) =>
  queryOptions({
    queryKey: ['password-reset', token],
    queryFn: ({ signal }) => checkPasswordReset(token, signal),
    retry: false,
    staleTime: 0,
    gcTime: 0,
  });

export const usePasswordResetCheck = (token: string, enabled: boolean) =>
  useQuery({ ...passwordResetCheckOptions(token), enabled });
