import { prepare, type Queryable, qb } from '@store/db';
import type { LockedOrder } from '../orders/order-sql.ts';
import type { ReceiptItem } from './provider.ts';
import type { RowOf, SqlExpression } from './typed-sql.ts';

/** The provider's receipt takes at most this many lines; a longer order is one line of its total. */
const RECEIPT_ITEMS_MAX = 100;
const RECEIPT_NAME_MAX = 128;

/** An order's line as the provider's receipt takes it. */
export interface ReceiptLine {
  productName: string;
  quantity: number;
  unitPriceMinor: number;
  discountMinor: number;
}

/**
 * Reads what the provider's receipt is made of: the customer's email and language, and the order's
 * lines (null when it has none). `userId`: a value, or an expression of the customer's id (a statement
 * that reads it as the receipt's source, a subquery of one).
 */
export function receiptSource(orderId: string, userId: string | SqlExpression<string>) {
  return qb
    .selectFrom('users as u')
    .select((eb) => [
      'u.email',
      'u.locale',
      eb
        .selectFrom('order_lines as ol')
        .select((eb) => {
          // json_build_object's keys: text, which a parameter cannot say by itself.
          const key = (name: keyof ReceiptLine) => eb.cast<string>(eb.val(name), 'text');
          const line = eb.fn('json_build_object', [
            key('productName'),
            'ol.product_name',
            key('quantity'),
            'ol.quantity',
            key('unitPriceMinor'),
            'ol.unit_price_minor',
            key('discountMinor'),
            'ol.discount_minor',
          ]);
          return eb.fn.agg<ReceiptLine[]>('json_agg', [line]).orderBy('ol.product_id').orderBy('ol.id').as('lines');
        })
        .where('ol.order_id', '=', orderId)
        .as('lines'),
    ])
    .where('u.id', '=', userId);
}

/** What the provider's receipt is made of: the customer's email and language, and the order's lines. */
export type ReceiptSource = RowOf<ReturnType<typeof receiptSource>>;

/**
 * What the provider's pages, the receipt and the bank statement say the payment is for, in the
 * customer's language (English for any other).
 */
interface PaymentTexts {
  goods: (order: string) => string;
  topUp: string;
}
const ENGLISH_PAYMENT_TEXTS: PaymentTexts = {
  goods: (order) => `Digital goods, order ${order}`,
  topUp: 'Balance top-up',
};
const PAYMENT_TEXTS: Record<string, PaymentTexts> = {
  en: ENGLISH_PAYMENT_TEXTS,
  'pt-BR': { goods: (order) => `Produtos digitais, pedido ${order}`, topUp: 'Recarga de saldo' },
  ru: { goods: (order) => `Цифровые товары, заказ ${order}`, topUp: 'Пополнение баланса' },
  hi: { goods: (order) => `डिजिटल सामान, ऑर्डर ${order}`, topUp: 'बैलेंस टॉप-अप' },
};
export const paymentTexts = (locale: string | undefined): PaymentTexts =>
  (locale ? PAYMENT_TEXTS[locale] : undefined) ?? ENGLISH_PAYMENT_TEXTS;

/**
 * The order's lines as receipt items whose sums add up to its total: a line's discount is spread
 * over its units, and where it does not divide evenly the line is split in two prices a cent apart.
 */
export function receiptItems(lines: ReceiptLine[], totalMinor: number, fallbackName: string): ReceiptItem[] {
  const items: ReceiptItem[] = [];
  for (const line of lines) {
    const name = line.productName.slice(0, RECEIPT_NAME_MAX);
    const paid = line.unitPriceMinor * line.quantity - line.discountMinor;
    const base = Math.floor(paid / line.quantity);
    const dearer = paid - base * line.quantity;
    if (line.quantity - dearer > 0) items.push({ name, unitPriceMinor: base, quantity: line.quantity - dearer });
    if (dearer > 0) items.push({ name, unitPriceMinor: base + 1, quantity: dearer });
  }
  const sum = items.reduce((total, item) => total + item.unitPriceMinor * item.quantity, 0);
  if (items.length === 0 || items.length > RECEIPT_ITEMS_MAX || sum !== totalMinor) {
    return [{ name: fallbackName, unitPriceMinor: totalMinor, quantity: 1 }];
  }
  return items;
}

/**
 * The order's lines in a charge's currency: what each line's units cost, less its discount, as its
 * share of the charge (the last line takes what rounding leaves), so that receiptItems adds them up
 * to the charge. Lines in the store's currency are as they are.
 */
export function chargedLines(lines: ReceiptLine[], storeTotalMinor: number, chargeMinor: number): ReceiptLine[] {
  if (chargeMinor === storeTotalMinor || storeTotalMinor <= 0) return lines;
  let left = chargeMinor;
  return lines.map((line, index) => {
    const paid = line.unitPriceMinor * line.quantity - line.discountMinor;
    const share =
      index === lines.length - 1
        ? left
        : Number((BigInt(paid) * BigInt(chargeMinor) * 2n + BigInt(storeTotalMinor)) / (BigInt(storeTotalMinor) * 2n));
    left -= share;
    const unitPriceMinor = Math.ceil(Math.max(0, share) / line.quantity);
    return { ...line, unitPriceMinor, discountMinor: unitPriceMinor * line.quantity - share };
  });
}

/** The customer's email and the order's lines, for the provider's receipt. */
export async function readReceiptSource(sql: Queryable, order: LockedOrder): Promise<ReceiptSource | undefined> {
  const [receipt] = await sql.query(receiptSourceStatement({ orderId: order.id, userId: order.userId }));
  return receipt;
}

const receiptSourceStatement = prepare((a: { orderId: string; userId: string }) => receiptSource(a.orderId, a.userId));

/**
 * The customer's language (kept in step with the interface's by the language switcher), for the
 * provider's own pages: read with the receipt's source as the payment opened, else (a repeated
 * attempt, which opened nothing) on its own.
 */
export async function customerLanguage(
  sql: Queryable,
  opened: { receipt?: ReceiptSource },
  userId: string,
): Promise<string | undefined> {
  if (opened.receipt) return opened.receipt.locale;
  const [user] = await sql.query(localeStatement({ userId }));
  return user?.locale;
}

const localeStatement = prepare((a: { userId: string }) =>
  qb.selectFrom('users').select('locale').where('id', '=', a.userId),
);
