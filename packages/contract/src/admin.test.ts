import { describe, expect, it } from 'vitest';
import { AdminOrderSearchQuerySchema, AdminSessionBodySchema, BalanceAdjustBodySchema, roleMay } from './admin.ts';

describe('the admin contract', () => {
  it('asks for a second factor on sign-in, on the totp field', () => {
    const result = AdminSessionBodySchema.safeParse({ email: 'o@example.com', password: 'x' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['totp', 'admin.secondFactorRequired'],
    ]);
    expect(
      AdminSessionBodySchema.safeParse({ email: 'o@example.com', password: 'x', recovery_code: 'ABCD-efgh-1234-5678' })
        .data?.recovery_code,
    ).toBe('abcd-efgh-1234-5678');
  });

  it('refuses a date range that ends before it starts, on `to`', () => {
    const result = AdminOrderSearchQuerySchema.safeParse({ from: '2026-11-27', to: '2026-11-01' });
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['to']);
    expect(AdminOrderSearchQuerySchema.parse({ page: '2', status: '' })).toEqual({ page: 2 });
  });

  it('refuses a zero adjustment', () => {
    const result = BalanceAdjustBodySchema.safeParse({
      amount_minor: 0,
      reason: 'goodwill',
      totp: '123456',
      idempotency_key: '7b0d3c1e-4d52-4c0e-9f43-1f6a9d6e2b11',
    });
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['amount_minor']);
  });

  it('gives support no refunds and the owner the staff', () => {
    expect(roleMay('support', 'orders.refund')).toBe(false);
    expect(roleMay('manager', 'orders.refund')).toBe(true);
    expect(roleMay('manager', 'staff.manage')).toBe(false);
    expect(roleMay('owner', 'staff.manage')).toBe(true);
  });
});
