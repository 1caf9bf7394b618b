import { SpendResponseSchema } from '@store/contract';
import { useMutation } from '@tanstack/react-query';
import { apiSend, toSearch } from '../../../lib/api-client.ts';

/** POST /payment/spending-balance-handle?orderId=: pays a spending order from the balance. */
export const spendBalance = (orderId: string) =>
  apiSend('POST', `/payment/spending-balance-handle${toSearch({ orderId })}`, {}, SpendResponseSchema);

export const useSpendBalance = () => useMutation({ mutationFn: spendBalance });
