import { OkResponseSchema, type StockNotificationRequest } from '@store/contract';
import { useMutation } from '@tanstack/react-query';
import { apiSend, segment } from '../../../lib/api-client.ts';

/** "Tell me when it is back": the address to write to once the sold-out product has stock again. */
export const requestStockNotification = ({ productId, ...body }: StockNotificationRequest & { productId: number }) =>
  apiSend('POST', `/products/${segment(productId)}/stock-notifications`, body, OkResponseSchema);

export const useRequestStockNotification = () => useMutation({ mutationFn: requestStockNotification });
