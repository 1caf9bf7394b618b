import { int8ToNumber, type PrismaClient } from '@store/db';
import { type Logger, silentLogger } from '../shared/logger.ts';
import type { PaymentEventIntake } from './payment-event-intake.ts';
import type { PaymentProvider, ProviderPayment } from './provider.ts';
import { type ProvidersByName, providersOf } from './provider-registry.ts';

type AskedProvider = Pick<PaymentProvider, 'name' | 'getPayment' | 'listPayments'>;

export interface PaymentReconcilerDeps {
  db: PrismaClient;
  /** Each payment is asked about at its own provider, by the name stored with it. */
  providers?: ProvidersByName<AskedProvider>;
  /** One provider for every payment (tests). */
  provider?: AskedProvider;
  intake: Pick<PaymentEventIntake, 'receiveProviderPayment'>;
  logger?: Logger;
  clock?: () => Date;
}

export interface ReconcileOptions {
  /** A payment waiting at least this long is asked about. */
  pendingAfterMs?: number;
  /** And asked again no sooner than this after the last time. */
  recheckAfterMs?: number;
  /** Payments older than this are left alone: the provider decided them long ago. */
  maxAgeMs?: number;
  /** Orders per run, oldest payments first. */
  limit?: number;
}

export const PENDING_PAYMENT_CHECK_MS = 2 * 60_000;
export const PENDING_PAYMENT_RECHECK_MS = 5 * 60_000;
export const PENDING_PAYMENT_MAX_AGE_MS = 24 * 60 * 60_000;

/**
 * Asking the provider when its callbacks do not come: the provider's word on a payment is stored as
 * an event of its own (once per version of the payment) and applied by the same path as a callback.
 */
export function createPaymentReconciler({
  db,
  intake,
  logger = silentLogger,
  clock = () => new Date(),
  ...given
}: PaymentReconcilerDeps) {
  const lookup = providersOf(given);
  const names = () => lookup.providers.map((provider) => provider.name);

  /**
   * Every payment of the order the store started with the provider: by id where the store has it,
   * through the order's list for those it has not (a widget or hosted page payment is known to the
   * store only once its callback arrived). Answers how many had news that was handed on.
   */
  async function reconcileOrder(orderId: string): Promise<number> {
    const payments = await db.payment.findMany({
      where: { orderId },
      select: { id: true, provider: true, providerPaymentId: true, providerVersion: true },
    });
    let updates = 0;
    for (const name of new Set(payments.map((payment) => payment.provider))) {
      const provider = lookup.byName(name);
      if (!provider) {
        logger.warn({ orderId, provider: name }, 'a payment of a provider not configured here was not asked about');
        continue;
      }
      updates += await reconcileAt(
        provider,
        orderId,
        payments.filter((payment) => payment.provider === name),
      );
    }
    return updates;
  }

  /** The order's payments at one provider. */
  async function reconcileAt(
    provider: AskedProvider,
    orderId: string,
    payments: Array<{ providerPaymentId: string | null; providerVersion: bigint }>,
  ): Promise<number> {
    const found = new Map<string, ProviderPayment>();
    for (const { providerPaymentId } of payments) {
      if (providerPaymentId) found.set(providerPaymentId, await provider.getPayment(providerPaymentId));
    }
    if (payments.some((payment) => payment.providerPaymentId === null)) {
      for (const payment of await provider.listPayments(orderId)) found.set(payment.providerPaymentId, payment);
    }
    const applied = new Map(
      payments.map((payment) => [payment.providerPaymentId, int8ToNumber(payment.providerVersion)]),
    );
    let updates = 0;
    for (const payment of found.values()) {
      if (payment.version <= (applied.get(payment.providerPaymentId) ?? 0)) continue;
      const received = await intake.receiveProviderPayment(provider.name, payment);
      if (received.eventId && !received.rejection) updates++;
    }
    await db.payment.updateMany({ where: { orderId, provider: provider.name }, data: { checkedAt: clock() } });
    return updates;
  }

  return {
    reconcileOrder,

    /**
     * The store's payment the provider knows as `providerPaymentId`, asked about at once: a verified
     * callback that names a payment without carrying it (a Stripe dispute closed) says it changed.
     * What the provider answers goes the way of every poll (stored, then applied by the event job).
     * Answers how many payments had news; none for a payment the store does not have.
     */
    async reconcilePayment(providerName: string, providerPaymentId: string): Promise<number> {
      const payment = await db.payment.findFirst({
        where: { provider: providerName, providerPaymentId },
        select: { orderId: true },
      });
      return payment ? reconcileOrder(payment.orderId) : 0;
    },

    /**
     * Orders with a payment still waiting (INIT or PENDING) past `pendingAfterMs`: the provider is
     * asked about each, at most once per `recheckAfterMs`. One order the provider cannot answer for
     * does not stop the others.
     */
    async reconcilePending({
      pendingAfterMs = PENDING_PAYMENT_CHECK_MS,
      recheckAfterMs = PENDING_PAYMENT_RECHECK_MS,
      maxAgeMs = PENDING_PAYMENT_MAX_AGE_MS,
      limit = 50,
    }: ReconcileOptions = {}): Promise<{ orders: number; updates: number }> {
      const now = clock().getTime();
      const waiting = await db.payment.findMany({
        where: {
          provider: { in: names() },
          status: { in: ['INIT', 'PENDING'] },
          createdAt: { lt: new Date(now - pendingAfterMs), gt: new Date(now - maxAgeMs) },
          OR: [{ checkedAt: null }, { checkedAt: { lt: new Date(now - recheckAfterMs) } }],
        },
        orderBy: { createdAt: 'asc' },
        distinct: ['orderId'],
        take: limit,
        select: { orderId: true },
      });
      let updates = 0;
      for (const { orderId } of waiting) {
        try {
          updates += await reconcileOrder(orderId);
        } catch (error) {
          logger.warn({ err: error, orderId }, 'the provider could not be asked about a pending payment');
        }
      }
      return { orders: waiting.length, updates };
    },
  };
}

export type PaymentReconciler = ReturnType<typeof createPaymentReconciler>;
