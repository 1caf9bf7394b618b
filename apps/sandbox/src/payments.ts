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
export type EventType =
  | 'payment.pending'
  | 'payment.succeeded'
  | 'payment.failed'
  | 'payment.refunded'
  | 'payment.charged_back';

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

/** What the card's bank took back of a payment: a chargeback the merchant lost. */
export interface Chargeback {
  id: string;
  paymentId: string;
  amountMinor: number;
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
  chargedBackMinor: number;
  failureReason: FailureReason | null;
  /** Brand and last four digits: all the sandbox keeps of a card. */
  card: { brand: string; last4: string } | null;
  /** Grows with every change; callbacks carry it so the store can tell an old event from a new one. */
  version: number;
  createdAt: Date;
  updatedAt: Date;
  /** A payment still waiting for the customer then fails as `expired`. */
  expiresAt: Date;
  callbackUrl: string;
  returnUrl: string | null;
  threeDs: ThreeDsChallenge | null;
  widgetSessionId: string | null;
  qr: { scheme: 'pix' | 'sbp'; payload: string; image: string; payLink: string } | null;
  upi: { successUrl: string; declineUrl: string; cancelUrl: string; intent: string; image: string } | null;
  /** The shopper's language as the payment's request named it: every later page of the payment uses it. */
  language: Language | null;
  refunds: Refund[];
  chargebacks: Chargeback[];
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
    charged_back_minor: payment.chargedBackMinor,
    failure_reason: payment.failureReason,
    card: payment.card,
    version: payment.version,
    created_at: payment.createdAt.toISOString(),
    updated_at: payment.updatedAt.toISOString(),
  };
}
export type PaymentWire = ReturnType<typeof paymentWire>;

/** What refunds and chargebacks may still take of a payment. */
export function remainingMinor(payment: SandboxPayment): number {
  return payment.amountMinor - payment.refundedMinor - payment.chargedBackMinor;
}

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
  Partial<Pick<SandboxPayment, 'card' | 'threeDs' | 'widgetSessionId' | 'qr' | 'upi' | 'language'>> & {
    /** The merchant's limit (its order's own expiry): the payment expires then, or at the book's own TTL if sooner. */
    expiresAt?: Date;
  };

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
    const { expiresAt: limit, ...fields } = input;
    const now = this.options.clock();
    const ttlEnd = now.getTime() + this.options.initTtlMs;
    const payment: SandboxPayment = {
      id,
      status: 'init',
      refundedMinor: 0,
      chargedBackMinor: 0,
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
      expiresAt: new Date(Math.min(ttlEnd, limit?.getTime() ?? ttlEnd)),
      refunds: [],
      chargebacks: [],
      ...fields,
    };
    this.payments.set(payment.id, payment);
    // A payment left waiting for the customer (a QR, a UPI or hosted page, a 3-D Secure challenge)
    // fails when it expires, with a callback, as a real provider's would: the store never waits forever.
    const timer = setTimeout(() => {
      this.expiries.delete(payment.id);
      this.expire(payment);
    }, payment.expiresAt.getTime() - now.getTime());
    timer.unref();
    this.expiries.set(payment.id, timer);
    return payment;
  }

  /**
   * A payment read after its expiry fails first if its timer has not yet run (a busy or suspended
   * process runs timers late): no page pays it after that moment.
   */
  get(id: string): SandboxPayment | undefined {
    const payment = this.payments.get(id);
    if (payment) this.expireIfDue(payment);
    return payment;
  }

  /** Newest first. */
  listByOrder(orderId: string): SandboxPayment[] {
    const payments = [...this.payments.values()].filter((payment) => payment.orderId === orderId).reverse();
    for (const payment of payments) this.expireIfDue(payment);
    return payments;
  }

  /** `type` is the event's, when something other than the new status moved it (a chargeback). */
  transition(
    payment: SandboxPayment,
    to: Exclude<PaymentStatus, 'init'>,
    reason: FailureReason | null = null,
    type: EventType = EVENT_OF[to],
  ): void {
    if (!TRANSITIONS[payment.status].includes(to)) {
      throw new InvalidTransitionError(`payment ${payment.id} cannot go from ${payment.status} to ${to}`);
    }
    payment.status = to;
    payment.failureReason = to === 'failed' ? reason : payment.failureReason;
    this.touch(payment);
    if (to !== 'pending') this.clearExpiry(payment.id);
    this.emit({ id: newId('evt'), type, payment });
  }

  /** Refunds part or all of what is left of a succeeded payment. */
  refund(payment: SandboxPayment, amountMinor: number): Refund {
    this.checkGiveBack(payment, amountMinor);
    const refund: Refund = {
      id: newId('re'),
      paymentId: payment.id,
      amountMinor,
      status: 'succeeded',
      createdAt: this.options.clock(),
    };
    payment.refunds.push(refund);
    payment.refundedMinor += amountMinor;
    this.gaveBack(payment, 'payment.refunded');
    return refund;
  }

  /** A chargeback the merchant lost, of part or all of what is left of a succeeded payment. */
  chargeBack(payment: SandboxPayment, amountMinor: number): Chargeback {
    this.checkGiveBack(payment, amountMinor);
    const chargeback: Chargeback = {
      id: newId('cb'),
      paymentId: payment.id,
      amountMinor,
      createdAt: this.options.clock(),
    };
    payment.chargebacks.push(chargeback);
    payment.chargedBackMinor += amountMinor;
    this.gaveBack(payment, 'payment.charged_back');
    return chargeback;
  }

  close(): void {
    for (const timer of this.expiries.values()) clearTimeout(timer);
    this.expiries.clear();
  }

  private expire(payment: SandboxPayment) {
    if (payment.status === 'init' || payment.status === 'pending') this.transition(payment, 'failed', 'expired');
  }

  private expireIfDue(payment: SandboxPayment) {
    if (this.options.clock() >= payment.expiresAt) this.expire(payment);
  }

  /** The routes answer 409 and 422 before this; reaching it is a programming error, not a silent write. */
  private checkGiveBack(payment: SandboxPayment, amountMinor: number) {
    if (payment.status !== 'succeeded') {
      throw new InvalidTransitionError(`payment ${payment.id} is ${payment.status}: nothing to give back`);
    }
    if (!Number.isSafeInteger(amountMinor) || amountMinor < 1 || amountMinor > remainingMinor(payment)) {
      throw new RangeError(`payment ${payment.id} has ${remainingMinor(payment)} left, not ${amountMinor}`);
    }
  }

  /** Once refunds and chargebacks together cover the whole amount, the payment is `refunded`. */
  private gaveBack(payment: SandboxPayment, type: 'payment.refunded' | 'payment.charged_back') {
    if (remainingMinor(payment) === 0) {
      this.transition(payment, 'refunded', null, type);
    } else {
      this.touch(payment);
      this.emit({ id: newId('evt'), type, payment });
    }
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
