import { EMAIL_TEMPLATES, LOCALES } from '@store/contract';
import { describe, expect, it } from 'vitest';
import { EMAIL_TEXTS } from './email-texts.ts';
import { escapeHtml, extractLinks, formatDuration, renderEmail, resolveLocale } from './templates.ts';

const link = 'https://shop.example/password-reset/abc123?x=1&y=2';
const data = { name: 'Maria', link, expiresInMinutes: 60 };

describe('email templates', () => {
  for (const template of EMAIL_TEMPLATES) {
    for (const locale of LOCALES) {
      it(`${template} in ${locale} has a subject, the link in both parts and no unfilled placeholder`, () => {
        const message = renderEmail(template, locale, data);
        expect(message.locale).toBe(locale);
        expect(message.subject.trim().length).toBeGreaterThan(5);
        expect(message.subject).toBe(message.subject.trim());
        expect(message.text).toContain(link);
        expect(message.html).toContain(`href="${escapeHtml(link)}"`);
        expect(message.html).toContain(`lang="${locale}"`);
        for (const part of [message.subject, message.text, message.html]) {
          expect(part).not.toMatch(/\{\w+\}/);
          expect(part).not.toContain('undefined');
        }
        expect(message.text).toContain('Maria');
        expect(message.html).toContain('Maria');
        expect(message.text).toContain(EMAIL_TEXTS[locale].templates[template].button);
        expect(message.text).toContain(formatDuration(60, locale));
        expect(message.text).toContain(EMAIL_TEXTS[locale].common.ignore);
        expect(extractLinks(message.text)).toEqual([link]);
      });
    }
  }

  it('every locale words every template differently from English (no untranslated copy)', () => {
    for (const locale of LOCALES.filter((value) => value !== 'en')) {
      for (const template of EMAIL_TEMPLATES) {
        const en = EMAIL_TEXTS.en.templates[template];
        const other = EMAIL_TEXTS[locale].templates[template];
        expect(other.intro).not.toBe(en.intro);
        expect(other.button).not.toBe(en.button);
      }
    }
  });

  it('escapes the customer name in the HTML part', () => {
    const message = renderEmail('account-activation', 'en', { ...data, name: '<script>alert("x")</script>' });
    expect(message.html).not.toContain('<script>');
    expect(message.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    // Plain text is not HTML: the name stays as typed.
    expect(message.text).toContain('Hello, <script>alert("x")</script>!');
  });

  it('never reads braces in a name as placeholders', () => {
    const message = renderEmail('email-verify', 'en', { ...data, name: '{store}{duration}' });
    expect(message.text).toContain('Hello, {store}{duration}!');
  });

  it('greets without a name when there is none', () => {
    expect(renderEmail('password-reset', 'ru', { ...data, name: '  ' }).text.startsWith('Здравствуйте!\n')).toBe(true);
  });

  it('escapes the link inside the href attribute', () => {
    const message = renderEmail('password-reset', 'en', { ...data, link: 'https://shop.example/?a="b"&c=<d>' });
    expect(message.html).not.toContain('"b"');
    expect(message.html).toContain('href="https://shop.example/?a=&quot;b&quot;&amp;c=&lt;d&gt;"');
  });

  it('refuses a link that is not http(s)', () => {
    expect(() => renderEmail('password-reset', 'en', { ...data, link: 'javascript:alert(1)' })).toThrow(/protocol/);
  });

  it('falls back to English for an unknown locale and matches by language', () => {
    expect(renderEmail('password-reset', 'de', data).locale).toBe('en');
    expect(renderEmail('password-reset', 'de', data).subject).toBe('Reset your Gift Store password');
    expect(resolveLocale('pt')).toBe('pt-BR');
    expect(resolveLocale('pt-PT')).toBe('pt-BR');
    expect(resolveLocale('ru-RU')).toBe('ru');
    expect(resolveLocale('EN')).toBe('en');
    expect(resolveLocale('')).toBe('en');
  });

  it('says how long the link works in the words of each language', () => {
    expect(formatDuration(60, 'en')).toBe('1 hour');
    expect(formatDuration(72 * 60, 'en')).toBe('3 days');
    expect(formatDuration(90, 'en')).toBe('90 minutes');
    expect(formatDuration(60, 'pt-BR')).toBe('1 hora');
    expect(formatDuration(60, 'ru')).toBe('1 час');
    expect(formatDuration(120, 'ru')).toBe('2 часа');
    expect(formatDuration(300, 'ru')).toBe('5 часов');
    expect(formatDuration(21, 'ru')).toBe('21 минуту');
    expect(formatDuration(3 * 1_440, 'ru')).toBe('3 дня');
    expect(formatDuration(60, 'hi')).toBe('1 घंटे');
    expect(renderEmail('password-reset', 'hi', data).text).toContain('यह लिंक 1 घंटे तक काम करेगा।');
  });
});
