import type { PaymentMethod } from '@store/db';
import { z } from 'zod';
import type { ProviderPaymentMethod } from './provider.ts';

/** The store's payment method of each method the provider's events name. */
export const METHOD_OF: Record<ProviderPaymentMethod, PaymentMethod> = {
  widget: 'WIDGET',
  hosted_page: 'HOSTED_PAGE',
  card: 'CARD',
  qr: 'QR',
  upi: 'UPI',
};

/** The event as the store reads it, kept in payment_events.payload beside the provider's own body. */
export const StoredEventSchema = z.object({
  type: z.string(),
  occurredAt: z.iso.datetime(),
  providerPaymentId: z.string(),
  orderId: z.string(),
  method: z.enum(['widget', 'hosted_page', 'card', 'qr', 'upi']),
  status: z.enum(['init', 'pending', 'succeeded', 'failed', 'refunded']),
  amountMinor: z.int().positive(),
  currency: z.string(),
  refundedMinor: z.int().nonnegative(),
  /** Events stored before chargebacks were read carry none. */
  chargedBackMinor: z.int().nonnegative().default(0),
  failureReason: z.string().nullable(),
  card: z.object({ brand: z.string().max(32), last4: z.string().regex(/^\d{4}$/) }).nullable(),
  version: z.int().nonnegative(),
});
export type StoredEvent = z.infer<typeof StoredEventSchema>;
