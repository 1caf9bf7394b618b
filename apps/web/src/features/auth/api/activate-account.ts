import { UserResponseSchema } from '@store/contract';
import { useMutation } from '@tanstack/react-query';
import { apiSend } from '../../../lib/api-client.ts';
import { getSession } from '../../../lib/session-store.ts';
import { storeUser } from './get-user.ts';

/** POST /account/activate: the link from the registration email; works signed in or not. */
export const activateAccount = (token: string) =>
  apiSend('POST', '/account/activate', { token }, UserResponseSchema).then(({ user }) => user);

export const useActivateAccount = () =>
  useMutation({
    mutationFn: activateAccount,
    onSuccess: (user) => {
      // The link may belong to another account than the one signed in here.
      if (getSession().user?.id === user.id) storeUser(user);
    },
  });
