import { describe, expect, it } from 'vitest';
import { canSee, homeFor, sectionsFor } from './roles.ts';

describe('sections by role', () => {
  it('shows the owner everything, staff and audit included', () => {
    expect(sectionsFor('owner').map((section) => section.id)).toEqual([
      'dashboard',
      'orders',
      'audit',
      'stock',
      'products',
      'promo',
      'customers',
      'staff',
    ]);
  });

  it('shows a manager stock and orders but not staff; support orders and customers but not stock', () => {
    expect(canSee('manager', 'stock')).toBe(true);
    expect(canSee('manager', 'staff')).toBe(false);
    expect(canSee('manager', 'products')).toBe(true);
    expect(canSee('support', 'products')).toBe(false);
    expect(canSee('manager', 'promo')).toBe(true);
    expect(canSee('support', 'promo')).toBe(false);
    expect(canSee('support', 'orders')).toBe(true);
    expect(canSee('support', 'customers')).toBe(true);
    expect(canSee('support', 'stock')).toBe(false);
    expect(canSee('support', 'audit')).toBe(false);
    expect(canSee('support', 'staff')).toBe(false);
  });

  it('lands every role on a page it may open', () => {
    for (const role of ['owner', 'manager', 'support'] as const) {
      expect(canSee(role, homeFor(role) as 'dashboard')).toBe(true);
    }
  });
});
