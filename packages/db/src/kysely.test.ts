import { describe, expect, it } from 'vitest';
import { compile, prepare, qb } from './kysely.ts';

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
