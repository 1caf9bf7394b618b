import { type NameUpdateRequest, UserResponseSchema } from '@store/contract';
import { useMutation } from '@tanstack/react-query';
import { apiSend } from '../../../lib/api-client.ts';
import { storeUser } from '../../auth/api/get-user.ts';

export const updateName = (body: NameUpdateRequest) =>
  apiSend('PATCH', '/profile/name-update', body, UserResponseSchema);

export const useUpdateName = () => useMutation({ mutationFn: updateName, onSuccess: ({ user }) => storeUser(user) });
