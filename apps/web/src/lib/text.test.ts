import { describe, expect, it } from 'vitest';
import { splitCoverText } from './text.ts';

describe('splitCoverText', () => {
  it('keeps a grouped face value whole in the large part', () => {
    expect(splitCoverText('1 000 INR')).toEqual({ first: '1 000', rest: 'INR' });
    expect(splitCoverText('13 000 RP')).toEqual({ first: '13 000', rest: 'RP' });
    expect(splitCoverText('1\u00a0000 VP')).toEqual({ first: '1\u00a0000', rest: 'VP' });
    expect(splitCoverText('1,000 VP')).toEqual({ first: '1,000', rest: 'VP' });
    expect(splitCoverText('2 000 000 RUB')).toEqual({ first: '2 000 000', rest: 'RUB' });
  });

  it('splits a plain value from its unit, and other text at its first space', () => {
    expect(splitCoverText('10 USD')).toEqual({ first: '10', rest: 'USD' });
    expect(splitCoverText('9.99 EUR')).toEqual({ first: '9.99', rest: 'EUR' });
    expect(splitCoverText('100')).toEqual({ first: '100', rest: '' });
    expect(splitCoverText('10 20 USD')).toEqual({ first: '10', rest: '20 USD' });
    expect(splitCoverText('Premium 3 months')).toEqual({ first: 'Premium', rest: '3 months' });
    expect(splitCoverText('  ')).toBeNull();
    expect(splitCoverText(null)).toBeNull();
  });
});
