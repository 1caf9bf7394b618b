import { type BalanceNoticeData, RECEIPT_SEND_WINDOW_MINUTES } from '@store/contract';
import { type Queryable, qb } from '@store/db';
import { recordEmail } from '../mail/outbox.ts';
import { resolveLocale } from '../mail/templates.ts';

export interface BalanceNotice {
  userId: string;
  orderId: string;
  currency: string;
  amountMinor: number;
  cause: BalanceNoticeData['cause'];
  /** Where the store is opened; the notice links to the profile there. */
  publicUrl: string;
}

/**
 * Writes the email that tells a customer what came onto their balance (a top-up credited, a refund)
 * into the outbox, inside the transaction that credited it, so the two are stored together or not
 * at all; the caller enqueues `email.send` for the id after the commit (or the outbox sweep sends
 * it). Call it after the credit: it reads the balance the customer has now.
 */
export async function recordBalanceNotice(tx: Queryable, notice: BalanceNotice): Promise<string> {
  const [customer] = await tx.query(
    qb
      .selectFrom('users')
      .select(['email', 'name', 'locale', 'balance_minor as balanceMinor'])
      .where('id', '=', notice.userId),
  );
  if (!customer) throw new Error(`customer ${notice.userId} does not exist`);
  return recordEmail(tx, {
    to: customer.email,
    template: notice.cause === 'topup' ? 'balance-topup' : 'balance-refund',
    locale: resolveLocale(customer.locale),
    data: {
      name: customer.name,
      link: new URL('/profile', notice.publicUrl).toString(),
      expiresInMinutes: RECEIPT_SEND_WINDOW_MINUTES,
      balance: {
        orderId: notice.orderId,
        currency: notice.currency,
        amountMinor: notice.amountMinor,
        balanceMinor: customer.balanceMinor,
        cause: notice.cause,
      },
    },
  });
}
