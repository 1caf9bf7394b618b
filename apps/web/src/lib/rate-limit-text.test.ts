import { describe, expect, it } from 'vitest';
import en from '../locales/account/en.json';
import ru from '../locales/basket/ru.json';
import { ApiError } from './api-client.ts';
import { rateLimitText } from './rate-limit-text.ts';
import { Translator } from './translator.ts';

const limited = (retryAfter: number | null) => new ApiError(429, 'Too Many Requests', {}, null, retryAfter);

describe('rateLimitText', () => {
  it('says how long to wait in the interface language, never the English server text', () => {
    const { t } = new Translator('ru', ru);
    expect(rateLimitText(limited(30), t, 'promo')).toBe('Слишком много запросов. Повторите через 30 с.');
    expect(rateLimitText(limited(600), t, 'promo')).toBe('Слишком много запросов. Повторите через 10 мин.');
  });

  it('falls back to a plain wait when the server did not say how long', () => {
    const { t } = new Translator('en', en);
    expect(rateLimitText(limited(null), t, 'auth')).toBe('Too many requests. Wait a moment and try again.');
  });
});
