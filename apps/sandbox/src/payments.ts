import { randomBytes } from 'node:crypto';
import type { Language } from './i18n.ts';
import type { Currency } from './money.ts';

export type PaymentMethod = 'widget' | 'hosted_page' | 'card' | 'qr' | 'upi';
export type PaymentStatus = 'init' | 'pending' | 'succeeded' | 'failed' | 'refunded';
export type FailureReason =
  | 'card_declined'
  | 'insufficient_funds'
  | 'expired_card'
  | '3ds_failed'
  | 'refused_by_payer'
  | 'cancelled_by_payer'
  | 'expired';
export type EventType = 'payment.pending' | 'payment.succeeded' | 'payment.failed' | 'payment.refunded';

/** Where a browser goes once a payment is decided: back to the store, or a result page in the widget. */
export type Channel = 'api' | 'hosted' | 'widget';

export interface ThreeDsChallenge {
  /** `classic`: PaReq/MD/TermUrl posted to the ACS; `redirect`: a GET to the challenge page. */
  flow: 'classic' | 'redirect';
  /** What passing the challenge leads to: 4000 0084 0000 1629 passes and is then declined. */
  afterPass: 'succeed' | 'decline';
  /** Proves the browser at the challenge came from this payment's answer (carried in PaReq or the URL). */
  token: string;
}

export interface Refund {
  id: string;
  paymentId: string;
  amountMinor: number;
  status: 'succeeded';
  createdAt: Date;
}

export interface SandboxPayment {
  id: string;
  orderId: string;
  method: PaymentMethod;
  channel: Channel;
  status: PaymentStatus;
  amountMinor: number;
  currency: Currency;
  description: string;
  refundedMinor: number;
  failureReason: FailureReason | null;
  /** Brand and last four digits: all the sandbox keeps of a card. */
  card: { brand: string; last4: string } | null;
  /** Grows with every change; callbacks carry it so the store can tell an old event from a new one. */
  version: number;
  createdAt: Date;
  updatedAt: Date;
  callbackUrl: string;
  returnUrl: string | null;
  threeDs: ThreeDsChallenge | null;
  widgetSessionId: string | null;
  qr: { scheme: 'pix' | 'sbp'; payload: string; image: string; payLink: string; expiresAt: Date } | null;
  upi: { successUrl: string; declineUrl: string; cancelUrl: string; intent: string; image: string } | null;
  /** The shopper's language as the payment's request named it: every later page of the payment uses it. */
  language: Language | null;
  refunds: Refund[];
}

export interface PaymentEvent {
  id: string;
  type: EventType;
  payment: SandboxPayment;
}

/** The payment as the server API and the callbacks show it. */
export function paymentWire(payment: SandboxPayment) {
  return {
    id: payment.id,
    order_id: payment.orderId,
    method: payment.method,
    status: payment.status,
    amount_minor: payment.amountMinor,
    currency: payment.currency,
    refunded_minor: payment.refundedMinor,
    failure_reason: payment.failureReason,
    card: payment.card,
    version: payment.version,
    created_at: payment.createdAt.toISOString(),
    updated_at: payment.updatedAt.toISOString(),
  };
}
export type PaymentWire = ReturnType<typeof paymentWire>;

/** Random ids the browser sees: unguessable, so a page's URL is its only key. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}

/** Moves a payment may make; anything else is a programming error, not a silent write. */
const TRANSITIONS: Record<PaymentStatus, readonly PaymentStatus[]> = {
  init: ['pending', 'succeeded', 'failed'],
  pending: ['succeeded', 'failed'],
  succeeded: ['refunded'],
  failed: [],
  refunded: [],
};

const EVENT_OF: Record<Exclude<PaymentStatus, 'init'>, EventType> = {
  pending: 'payment.pending',
  succeeded: 'payment.succeeded',
  failed: 'payment.failed',
  refunded: 'payment.refunded',
};

export class InvalidTransitionError extends Error {}

export type NewPayment = Pick<
  SandboxPayment,
  'orderId' | 'method' | 'channel' | 'amountMinor' | 'currency' | 'description' | 'callbackUrl' | 'returnUrl'
> &
  Partial<Pick<SandboxPayment, 'card' | 'threeDs' | 'widgetSessionId' | 'qr' | 'upi' | 'language'>>;

/**
 * The sandbox's payments, in memory: a restart forgets them (the sandbox is for development and
 * tests). Every change of status goes through `transition`, which emits the callback event.
 */
export class PaymentBook {
  /** Insertion order is creation order: the newest payment of an order is the last one added. */
  private readonly payments = new Map<string, SandboxPayment>();
  private readonly expiries = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly emit: (event: PaymentEvent) => void,
    private readonly options: { clock: () => Date; initTtlMs: number },
  ) {}

  create(input: NewPayment, id = newId('pay')): SandboxPayment {
    const now = this.options.clock();
    const payment: SandboxPayment = {
      id,
      status: 'init',
      refundedMinor: 0,
      failureReason: null,
      card: null,
      threeDs: null,
      widgetSessionId: null,
      qr: null,
      upi: null,
      language: null,
      version: 1,
      createdAt: now,
      updatedAt: now,
      refunds: [],
      ...input,
    };
    this.payments.set(payment.id, payment);
    // A payment left waiting for the customer (a QR, a UPI or hosted page, a 3-D Secure challenge)
    // fails when it expires, with a callback, as a real provider's would: the store never waits forever.
    const timer = setTimeout(() => {
      this.expiries.delete(payment.id);
      if (payment.status === 'init' || payment.status === 'pending') this.transition(payment, 'failed', 'expired');
    }, this.options.initTtlMs);
    timer.unref();
    this.expiries.set(payment.id, timer);
    return payment;
  }

  get(id: string): SandboxPayment | undefined {
    return this.payments.get(id);
  }

  /** Newest first. */
  listByOrder(orderId: string): SandboxPayment[] {
    return [...this.payments.values()].filter((payment) => payment.orderId === orderId).reverse();
  }

  transition(payment: SandboxPayment, to: Exclude<PaymentStatus, 'init'>, reason: FailureReason | null = null): void {
    if (!TRANSITIONS[payment.status].includes(to)) {
      throw new InvalidTransitionError(`payment ${payment.id} cannot go from ${payment.status} to ${to}`);
    }
    payment.status = to;
    payment.failureReason = to === 'failed' ? reason : payment.failureReason;
    this.touch(payment);
    if (to !== 'pending') this.clearExpiry(payment.id);
    this.emit({ id: newId('evt'), type: EVENT_OF[to], payment });
  }

  /** Refunds part or all of a succeeded payment; a full refund makes it `refunded`. */
  refund(payment: SandboxPayment, amountMinor: number): Refund {
    const refund: Refund = {
      id: newId('re'),
      paymentId: payment.id,
      amountMinor,
      status: 'succeeded',
      createdAt: this.options.clock(),
    };
    payment.refunds.push(refund);
    payment.refundedMinor += amountMinor;
    if (payment.refundedMinor === payment.amountMinor) {
      this.transition(payment, 'refunded');
    } else {
      this.touch(payment);
      this.emit({ id: newId('evt'), type: 'payment.refunded', payment });
    }
    return refund;
  }

  close(): void {
    for (const timer of this.expiries.values()) clearTimeout(timer);
    this.expiries.clear();
  }

  private touch(payment: SandboxPayment) {
    payment.version += 1;
    payment.updatedAt = this.options.clock();
  }

  private clearExpiry(id: string) {
    const timer = this.expiries.get(id);
    if (timer) clearTimeout(timer);
    this.expiries.delete(id);
  }
}
