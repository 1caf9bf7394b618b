import type { FastifyBaseLogger } from 'fastify';
import { Webhook } from 'standardwebhooks';
import { type PaymentEvent, paymentWire } from './payments.ts';

export interface DeliveryOptions {
  /** Attempts per callback, the first included; then it is given up and logged. */
  maxAttempts: number;
  /** Wait before the second attempt; doubled for each further one, up to maxDelayMs, with ±20% jitter. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** An attempt that has no answer by then counts as failed. */
  timeoutMs: number;
}

export const DEFAULT_DELIVERY: DeliveryOptions = {
  maxAttempts: 8,
  baseDelayMs: 1_000,
  maxDelayMs: 60_000,
  timeoutMs: 5_000,
};

/**
 * The misbehaviour a real provider shows now and then, on demand: each callback delivered twice,
 * a batch delivered newest first, everything held back. Tests turn it on to prove the store copes.
 */
export interface ChaosSettings {
  duplicate: boolean;
  outOfOrder: boolean;
  /** Callbacks are held this long, then delivered together. */
  delayMs: number;
}

export const NO_CHAOS: ChaosSettings = { duplicate: false, outOfOrder: false, delayMs: 0 };

/** Out of order needs several callbacks to reorder: without a delay they are gathered this long. */
const REORDER_WINDOW_MS = 250;
const DELIVERY_LOG_MAX = 1_000;

export interface CallbackMessage {
  /** The event id: the same in every attempt and copy, the store's key for deduplication. */
  id: string;
  type: string;
  url: string;
  body: string;
}

export interface DeliveryRecord {
  eventId: string;
  type: string;
  url: string;
  /** 1, or 2 for the duplicate of the chaos switch. */
  copy: number;
  attempts: number;
  state: 'pending' | 'delivered' | 'failed';
  lastStatus: number | null;
  lastError: string | null;
}

interface DispatcherOptions {
  secrets: string[];
  delivery: DeliveryOptions;
  chaos: ChaosSettings;
  fetch: typeof fetch;
  logger: FastifyBaseLogger;
  clock: () => Date;
}

/**
 * Sends callbacks as Standard Webhooks do: `webhook-id` (the event id), `webhook-timestamp` (Unix
 * seconds of this attempt) and `webhook-signature`, a space-separated list of `v1,<base64 HMAC-SHA256
 * of "id.timestamp.body">`, one per configured secret, so the receiver may rotate its secret. Signed by
 * the standardwebhooks library. A callback is retried with exponential backoff until the receiver
 * answers 2xx, at most `maxAttempts` times; redirects are not followed.
 */
export class CallbackDispatcher {
  private chaos: ChaosSettings;
  private readonly signers: Webhook[];
  private batch: CallbackMessage[] = [];
  private batchTimer: NodeJS.Timeout | undefined;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<AbortController>();
  private readonly records: DeliveryRecord[] = [];
  /** Per payment, the first attempt of its latest callback: the next one starts after it. */
  private readonly chains = new Map<string, Promise<void>>();
  private closed = false;

  constructor(private readonly options: DispatcherOptions) {
    if (options.secrets.length === 0) throw new Error('at least one webhook secret is required');
    this.signers = options.secrets.map((secret) => new Webhook(secret));
    this.chaos = { ...options.chaos };
  }

  get chaosSettings(): ChaosSettings {
    return { ...this.chaos };
  }

  setChaos(chaos: ChaosSettings): void {
    this.chaos = { ...chaos };
  }

  get deliveries(): readonly DeliveryRecord[] {
    return this.records;
  }

  /** Serialises the event now, so later changes of the payment do not alter what this callback says. */
  send(event: PaymentEvent): void {
    if (this.closed) return;
    const message: CallbackMessage = {
      id: event.id,
      type: event.type,
      url: event.payment.callbackUrl,
      body: JSON.stringify({
        type: event.type,
        timestamp: this.options.clock().toISOString(),
        data: paymentWire(event.payment),
      }),
    };
    const { duplicate, outOfOrder, delayMs } = this.chaos;
    if (!duplicate && !outOfOrder && delayMs === 0) {
      // One payment's callbacks leave in the order they happened (a retry may still land after a
      // later one: the payment's version tells the receiver which is newer).
      const key = event.payment.id;
      const record = this.record(message, 1);
      const chain = (this.chains.get(key) ?? Promise.resolve()).then(() => this.attempt(record, message));
      this.chains.set(key, chain);
      void chain.then(() => {
        if (this.chains.get(key) === chain) this.chains.delete(key);
      });
      return;
    }
    this.batch.push(message);
    if (!this.batchTimer) {
      this.batchTimer = setTimeout(
        () => void this.flush(),
        outOfOrder ? Math.max(delayMs, REORDER_WINDOW_MS) : delayMs,
      );
    }
  }

  /** The `webhook-signature` value for one attempt: every secret's signature, space-separated. */
  sign(id: string, timestamp: Date, body: string): string {
    return this.signers.map((signer) => signer.sign(id, timestamp, body)).join(' ');
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.batchTimer) clearTimeout(this.batchTimer);
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const controller of this.inFlight) controller.abort();
  }

  /** A held batch goes out with each first attempt awaited, so the receiver sees exactly this order. */
  private async flush(): Promise<void> {
    const batch = this.batch;
    this.batch = [];
    this.batchTimer = undefined;
    const { duplicate, outOfOrder } = this.chaos;
    const ordered = outOfOrder ? [...batch].reverse() : batch;
    for (let copy = 1; copy <= (duplicate ? 2 : 1); copy++) {
      for (const message of ordered) await this.attempt(this.record(message, copy), message);
    }
  }

  private record(message: CallbackMessage, copy: number): DeliveryRecord {
    const record: DeliveryRecord = {
      eventId: message.id,
      type: message.type,
      url: message.url,
      copy,
      attempts: 0,
      state: 'pending',
      lastStatus: null,
      lastError: null,
    };
    this.records.push(record);
    if (this.records.length > DELIVERY_LOG_MAX) this.records.shift();
    return record;
  }

  private async attempt(record: DeliveryRecord, message: CallbackMessage): Promise<void> {
    if (this.closed) return;
    record.attempts += 1;
    const now = this.options.clock();
    const controller = new AbortController();
    this.inFlight.add(controller);
    try {
      const response = await this.options.fetch(message.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'store-sandbox-payments/1',
          'webhook-id': message.id,
          'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
          'webhook-signature': this.sign(message.id, now, message.body),
        },
        body: message.body,
        redirect: 'manual',
        signal: AbortSignal.any([controller.signal, AbortSignal.timeout(this.options.delivery.timeoutMs)]),
      });
      await response.body?.cancel().catch(() => undefined);
      record.lastStatus = response.status;
      record.lastError = null;
      if (response.status >= 200 && response.status < 300) {
        record.state = 'delivered';
        return;
      }
    } catch (error) {
      record.lastStatus = null;
      record.lastError = error instanceof Error ? error.message : String(error);
    } finally {
      this.inFlight.delete(controller);
    }
    if (this.closed) return;
    const log = { eventId: message.id, type: message.type, url: message.url, attempt: record.attempts };
    if (record.attempts >= this.options.delivery.maxAttempts) {
      record.state = 'failed';
      this.options.logger.warn({ ...log, status: record.lastStatus, error: record.lastError }, 'callback given up');
      return;
    }
    const delay = this.backoff(record.attempts);
    this.options.logger.info({ ...log, status: record.lastStatus, retryInMs: delay }, 'callback not acknowledged');
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.attempt(record, message);
    }, delay);
    this.timers.add(timer);
  }

  private backoff(failedAttempts: number): number {
    const { baseDelayMs, maxDelayMs } = this.options.delivery;
    const exponential = Math.min(maxDelayMs, baseDelayMs * 2 ** (failedAttempts - 1));
    return Math.round(exponential * (0.8 + Math.random() * 0.4));
  }
}
