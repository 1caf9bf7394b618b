import { $Enums, type OrderStatus } from '@store/db';
import { describe, expect, it } from 'vitest';
import { ALLOWED_FROM, COMPLETED_STATUSES, canTransition, UNPAID_ENDINGS, UNPAID_STATUSES } from './order-state.ts';

const STATUSES = Object.values($Enums.OrderStatus) as OrderStatus[];

describe('the order state machine', () => {
  it('names every status of the database, and every status it names exists', () => {
    expect(Object.keys(ALLOWED_FROM).sort()).toEqual([...STATUSES].sort());
    for (const sources of Object.values(ALLOWED_FROM)) for (const from of sources) expect(STATUSES).toContain(from);
  });

  it('allows exactly the documented transitions', () => {
    const allowed = STATUSES.flatMap((from) =>
      STATUSES.filter((to) => canTransition(from, to)).map((to) => `${from}>${to}`),
    );
    expect(allowed.sort()).toEqual(
      [
        'CREATED>PENDING',
        'CREATED>PAID',
        'PENDING>PAID',
        'EXPIRED>PAID',
        'FAILED>PAID',
        'CANCELLED>PAID',
        'PAID>FULFILLED',
        'PAID>PARTIALLY_REFUNDED',
        'FULFILLED>PARTIALLY_REFUNDED',
        'PARTIALLY_REFUNDED>PARTIALLY_REFUNDED',
        'PAID>REFUNDED',
        'FULFILLED>REFUNDED',
        'PARTIALLY_REFUNDED>REFUNDED',
        'CREATED>FAILED',
        'PENDING>FAILED',
        'CREATED>CANCELLED',
        'PENDING>CANCELLED',
        'CREATED>EXPIRED',
        'PENDING>EXPIRED',
      ].sort(),
    );
  });

  it('never goes back to unpaid, never leaves REFUNDED, and never fulfils what was not paid', () => {
    for (const from of STATUSES) {
      for (const to of UNPAID_STATUSES)
        expect(canTransition(from, to), `${from}>${to}`).toBe(to === 'PENDING' && from === 'CREATED');
      expect(canTransition('REFUNDED', from)).toBe(false);
      if (from !== 'PAID') expect(canTransition(from, 'FULFILLED'), from).toBe(false);
    }
  });

  it('lets a confirmed payment complete an order after any unpaid ending', () => {
    for (const ending of UNPAID_ENDINGS) expect(canTransition(ending, 'PAID')).toBe(true);
    for (const done of COMPLETED_STATUSES) expect(canTransition(done, 'PAID')).toBe(false);
  });
});
