import { describe, expect, it } from 'vitest';
import { methodsFor } from './method-choice.tsx';

describe('methodsFor', () => {
  it('shows every method of the language while the store’s offer is not known', () => {
    expect(methodsFor('purchase', 'en')).toEqual(['card', 'cardForm', 'hosted', 'pix', 'sbp', 'upi', 'balance']);
    expect(methodsFor('balance', 'pt-BR')).toEqual(['card', 'cardForm', 'hosted', 'pix']);
  });

  it('shows only what the store offers, and the balance', () => {
    expect(methodsFor('purchase', 'en', ['card', 'pix', 'upi'])).toEqual(['cardForm', 'pix', 'upi', 'balance']);
    expect(methodsFor('purchase', 'ru', ['widget', 'hosted_page', 'pix'])).toEqual(['card', 'hosted', 'balance']);
    expect(methodsFor('balance', 'en', [])).toEqual([]);
  });
});
