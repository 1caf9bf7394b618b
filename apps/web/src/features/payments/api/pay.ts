import {
  type CreateQrBody,
  type CreateUpiBody,
  HostedPageResponseSchema,
  type InitializePaymentBody,
  type PaymentBody,
  PaymentResponseSchema,
  QrPaymentResponseSchema,
  type SbpPaymentBody,
  SbpPaymentResponseSchema,
  UpiPaymentResponseSchema,
} from '@store/contract';
import { apiSend } from '../../../lib/api-client.ts';

// The payment calls the browser makes (docs/payments.md, "The store's payment calls"). The bodies are
// typed as the contract's parsed shapes (what the server reads them as); the card's month and year go
// as numbers.

/** POST /payment: without card fields the widget's request, with them the provider's answer. */
export const startPayment = (body: PaymentBody) => apiSend('POST', '/payment', body, PaymentResponseSchema);

/** POST /payment/initialize: the signed form of the hosted payment page. */
export const initializeHostedPage = (body: InitializePaymentBody) =>
  apiSend('POST', '/payment/initialize', body, HostedPageResponseSchema);

/** POST /orders/create-qr: the QR image, the pay link and the code to copy. */
export const createQrPayment = (body: Omit<CreateQrBody, 'amount'> & { amount: string }) =>
  apiSend('POST', '/orders/create-qr', body, QrPaymentResponseSchema);

/** POST /payment-sbp: the SBP QR code and its pay link, charged in roubles. */
export const createSbpPayment = (body: SbpPaymentBody) =>
  apiSend('POST', '/payment-sbp', body, SbpPaymentResponseSchema);

/** POST /orders/create-upi: where to send the browser. */
export const createUpiPayment = (body: CreateUpiBody) =>
  apiSend('POST', '/orders/create-upi', body, UpiPaymentResponseSchema);
