import { CardTypeResponseSchema, ErrorKeys } from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectFieldError } from '../../test/accounts.ts';
import { buildTestApp, createRecordingQueue } from '../../test/helper.ts';

let ctx: Awaited<ReturnType<typeof buildTestApp>>;

beforeAll(async () => {
  ctx = await buildTestApp({ RATE_LIMIT_SCALE: '1000' }, { queue: createRecordingQueue() });
});
afterAll(async () => {
  await ctx?.close();
});

const cardType = (body: unknown) => call(ctx.app, 'POST', '/api/card-type', { body });

describe('POST /api/card-type', () => {
  it('names the brand from the first 8 digits', async () => {
    for (const [number, type] of [
      ['42424242', 'Visa'],
      ['55555555', 'MasterCard'],
      ['22210000', 'MasterCard'],
      ['22001234', 'Mir'],
      ['37828224', 'AmericanExpress'],
    ] as const) {
      const response = await cardType({ number });
      expect(response.status, number).toBe(200);
      expect(CardTypeResponseSchema.parse(response.body)).toEqual({ type });
    }
  });

  it('takes the mask’s spaces and a longer number, looking at its first 8 digits only', async () => {
    expect((await cardType({ number: '2200 1234' })).body).toEqual({ type: 'Mir' });
    expect((await cardType({ number: '4000 0027 6000 3184' })).body).toEqual({ type: 'Visa' });
  });

  it('answers null for the other brands and unknown prefixes', async () => {
    expect((await cardType({ number: '62000000' })).body).toEqual({ type: null });
    expect((await cardType({ number: '99999999' })).body).toEqual({ type: null });
  });

  it('refuses bad input with a 422 naming the field', async () => {
    expectFieldError(await cardType({}), 'number', ErrorKeys.requiredField);
    expectFieldError(await cardType({ number: '4242abcd' }), 'number', ErrorKeys.invalidValue);
    expectFieldError(await cardType({ number: '4242424' }), 'number', ErrorKeys.tooShort);
    expectFieldError(await cardType({ number: '4'.repeat(20) }), 'number', ErrorKeys.tooLong);
    expect((await cardType({ number: 42424242 })).status).toBe(422);
  });

  it('is in the OpenAPI document', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(Object.keys(response.json().paths)).toContain('/api/card-type');
  });
});
