import { PAYMENT_FAILURE_REASONS } from '@store/contract';
import { describe, expect, it } from 'vitest';
import { createTestI18n } from '../../test/render.tsx';
import { failureText } from './failure-reason.ts';

describe('failureText', () => {
  const i18n = createTestI18n();

  it.each(PAYMENT_FAILURE_REASONS)('gives %s a sentence of its own that says nothing was charged', (reason) => {
    const key = failureText(reason);
    expect(key).toBe(`payment.reason.${reason}`);
    expect(i18n.t(key)).toMatch(/Nothing was charged\.$/);
    expect(i18n.t(key)).not.toBe(i18n.t('payment.reason.other'));
  });

  it.each([undefined, null, '', 'refused_by_provider', 'toString'])(
    'reads %s as a failure of unknown cause',
    (reason) => {
      expect(failureText(reason)).toBe('payment.reason.other');
    },
  );
});
