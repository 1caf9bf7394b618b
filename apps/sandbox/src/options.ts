import type { ChaosSettings, DeliveryOptions } from './webhooks.ts';

/** Who the sandbox pretends the merchant is, on the PIX code and the UPI intent. */
export interface MerchantProfile {
  /** At most 25 characters (the PIX code's limit). */
  name: string;
  /** At most 15 characters (the PIX code's limit). */
  city: string;
  pixKey: string;
  upiVpa: string;
}

export const DEFAULT_MERCHANT: MerchantProfile = {
  name: 'GIFT STORE SANDBOX',
  city: 'SAO PAULO',
  // A PIX random key (EVP) that belongs to nobody: the sandbox's codes are well formed, never payable.
  pixKey: '7d9f0335-8dcc-4054-9bf9-0dbd61d36906',
  upiVpa: 'giftstore@sandbox',
};

export interface SandboxOptions {
  /** This plugin's prefix as browsers reach it: http://localhost:3000/sandbox. Every page URL starts here. */
  publicUrl: string;
  /** The merchant's secret key: bearer of the server API and the admin calls, key of the hosted page's signature. */
  apiKey: string;
  /**
   * Whether the server API and the admin calls answer other machines too: the full stack's store
   * calls its sandbox across the network. Otherwise (the default) only the loopback address, where
   * the store that mounts the sandbox calls it, so its key alone guards nothing from the network.
   */
  merchantFromNetwork?: boolean;
  /** Standard Webhooks secrets (`whsec_` + base64); each signs every callback (several during a rotation). */
  webhookSecrets: string[];
  /** The store's origins: the only places a browser is sent back to, and who may frame the widget. */
  storeOrigins: string[];
  /** Where callbacks of widget payments go; the widget request cannot name one, as at a real provider. */
  widgetCallbackUrl: string;
  merchant?: Partial<MerchantProfile>;
  delivery?: Partial<DeliveryOptions>;
  /** The misbehaviour switch, also settable at run time with PUT {prefix}/admin/chaos. */
  chaos?: Partial<ChaosSettings>;
  /** How long a payment waits for the customer (QR, UPI, hosted page, 3-D Secure) before it fails as expired. */
  paymentTtlMs?: number;
  /** The fetch that delivers callbacks. */
  fetch?: typeof fetch;
  clock?: () => Date;
}

export const DEFAULT_PAYMENT_TTL_MS = 30 * 60_000;
/**
 * A QR or UPI payment's `expires_at` must be at least this far ahead: less leaves the customer no
 * time to open a bank or UPI app and confirm, so the store would show a code that dies in their
 * hands. Refused, the store knows at once that its order is too close to expiring to be paid.
 */
export const EXPIRES_AT_MIN_LEAD_MS = 30_000;
/** A hosted-page request older than this is refused: a copied form cannot be replayed days later. */
export const HOSTED_REQUEST_MAX_AGE_MS = 60 * 60_000;
/** Clocks disagree a little; a request dated this far ahead is still accepted. */
export const CLOCK_SKEW_MS = 5 * 60_000;
