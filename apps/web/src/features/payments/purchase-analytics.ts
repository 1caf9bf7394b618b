import type { OrderDelivery } from '@store/contract';
import { pushAnalytics } from '../../lib/analytics.ts';

/** Orders whose purchase has been reported from this browser; the newest are kept. */
export const REPORTED_ORDERS_STORAGE_KEY = 'purchase-reported';
const REPORTED_MAX = 50;

export interface PurchaseItem {
  id: string | number;
  name: string;
  category: string;
  price: number;
  quantity: number;
}

function readReported(): string[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(REPORTED_ORDERS_STORAGE_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * The purchase event, in GA4's shape with shipping 0, once per order. The ids reported live in local
 * storage, so reloading the confirmation page, or reaching it in a second tab, does not count the sale
 * twice. Returns whether this call reported it.
 */
export function reportPurchaseOnce(
  order: { id: string; value: number; currency: string; coupon?: string | undefined },
  items: readonly PurchaseItem[],
): boolean {
  const reported = readReported();
  if (reported.includes(order.id)) return false;
  try {
    localStorage.setItem(REPORTED_ORDERS_STORAGE_KEY, JSON.stringify([...reported, order.id].slice(-REPORTED_MAX)));
  } catch {
    // Storage blocked: reported for this page at least.
  }
  // GA4's advice: clear the previous ecommerce object so its items do not leak into this event.
  pushAnalytics({ ecommerce: null });
  pushAnalytics({
    event: 'purchase',
    ecommerce: {
      transaction_id: order.id,
      value: order.value,
      currency: order.currency,
      shipping: 0,
      ...(order.coupon ? { coupon: order.coupon } : {}),
      items: items.map((item) => ({
        item_id: String(item.id),
        item_name: item.name,
        item_category: item.category,
        price: item.price,
        quantity: item.quantity,
      })),
    },
  });
  return true;
}

/** The purchase of a delivered order, as GET /payment-confirm/{orderId} answers it: once per order. */
export function reportDeliveredPurchase(delivery: OrderDelivery): boolean {
  return reportPurchaseOnce(
    { id: delivery.order.id, value: delivery.order.total - delivery.order.refunded, currency: delivery.order.currency },
    delivery.products.map((product) => ({
      id: product.product_id,
      name: product.name,
      category: product.category,
      price: product.unit_price,
      quantity: product.delivered,
    })),
  );
}
