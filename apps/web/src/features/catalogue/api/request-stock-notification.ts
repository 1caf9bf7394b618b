import {
  StockNotificationConfirmedSchema,
  type StockNotificationRequest,
  StockNotificationResponseSchema,
} from '@store/contract';
import { useMutation } from '@tanstack/react-query';
import { apiSend, segment } from '../../../lib/api-client.ts';

/**
 * "Tell me when it is back": the address to write to once the sold-out product has stock again. The
 * answer says whether a link to confirm it was mailed there first.
 */
export const requestStockNotification = ({ productId, ...body }: StockNotificationRequest & { productId: number }) =>
  apiSend('POST', `/products/${segment(productId)}/stock-notifications`, body, StockNotificationResponseSchema);

export const useRequestStockNotification = () => useMutation({ mutationFn: requestStockNotification });

/** Confirms a request by the token of its emailed link; answers the language it was made in. */
export const confirmStockNotification = (token: string) =>
  apiSend('POST', '/stock-notifications/confirm', { token }, StockNotificationConfirmedSchema);

export const useConfirmStockNotification = () => useMutation({ mutationFn: confirmStockNotification });
