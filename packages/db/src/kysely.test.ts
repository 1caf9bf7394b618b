import { describe, expect, it } from 'vitest';
import { compile, prepare, prepareEach, qb } from './kysely.ts';

const direct = (id: string, userId: string) =>
  qb
    .selectFrom('orders')
    .select(['id', 'status'])
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('status', 'in', ['CREATED', 'PENDING']);

describe('prepare', () => {
  const prepared = prepare((a: { id: string; userId: string }) => direct(a.id, a.userId));

  it('answers the text and the values the statement built on every call has', () => {
    for (const [id, userId] of [
      ['a', 'u1'],
      ['b', 'u2'],
    ] as const) {
      expect(compile(prepared({ id, userId }))).toEqual(compile(direct(id, userId)));
    }
  });

  it('keeps the values written into the statement and fills each argument where it was used', () => {
    const { text, values } = compile(prepared({ id: 'order-1', userId: 'user-9' }));
    expect(text).toContain('"user_id" = $2');
    expect(values).toEqual(['order-1', 'user-9', 'CREATED', 'PENDING']);
  });
});

describe('prepare, its arguments', () => {
  it('sends an array as one parameter, the same statement whatever its length', () => {
    const byIds = prepare((a: { ids: readonly string[] }) =>
      qb
        .selectFrom('orders')
        .select('id')
        .where((eb) => eb('id', '=', eb.fn.any(eb.val(a.ids)))),
    );
    const one = compile(byIds({ ids: ['a'] }));
    const three = compile(byIds({ ids: ['a', 'b', 'c'] }));
    expect(three.text).toBe(one.text);
    expect(three.values).toEqual([['a', 'b', 'c']]);
  });

  it('sends an argument left undefined as NULL, the column still written', () => {
    const insert = prepare((a: { userId: string; paymentId?: string | null }) =>
      qb
        .insertInto('order_events')
        .values({ order_id: a.userId, actor: 'x', kind: 'payment', payment_id: a.paymentId }),
    );
    const { text, values } = compile(insert({ userId: 'u1' }));
    expect(text).toContain('"payment_id"');
    expect(values).toEqual(['u1', 'x', 'payment', null]);
  });

  it('refuses, on its first call, an argument that shaped the statement rather than filled a value', () => {
    const shaped = prepare((a: { id: string; changes: { paidAt?: Date } }) =>
      qb
        .updateTable('orders')
        .set({ paid_at: a.changes.paidAt ?? null })
        .where('id', '=', a.id),
    );
    expect(() => shaped({ id: 'o1', changes: { paidAt: new Date() } })).toThrow(/changes shaped the statement/);
  });
});

describe('prepareEach', () => {
  const move = prepareEach((to: 'PAID' | 'FULFILLED', a: { id: string }) =>
    qb
      .updateTable('orders')
      .set({ status: to })
      .where('id', '=', a.id)
      .where('status', '=', to === 'PAID' ? 'PENDING' : 'PAID'),
  );

  it('builds one statement per shape, each with its own values fixed and the arguments filled in', () => {
    expect(compile(move('PAID', { id: 'o1' })).values).toEqual(['PAID', 'o1', 'PENDING']);
    expect(compile(move('FULFILLED', { id: 'o2' })).values).toEqual(['FULFILLED', 'o2', 'PAID']);
    expect(compile(move('PAID', { id: 'o3' }))).toEqual(
      compile(qb.updateTable('orders').set({ status: 'PAID' }).where('id', '=', 'o3').where('status', '=', 'PENDING')),
    );
  });
});
