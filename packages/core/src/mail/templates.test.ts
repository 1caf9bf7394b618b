import { isNoticeTemplate, LOCALES, NOTICE_TEMPLATES, type ReceiptData, TOKEN_EMAIL_TEMPLATES } from '@store/contract';
import { describe, expect, it } from 'vitest';
import { EMAIL_TEXTS } from './email-texts.ts';
import {
  escapeHtml,
  extractLinks,
  formatDuration,
  formatMoney,
  orderNumber,
  renderEmail,
  resolveLocale,
} from './templates.ts';

const link = 'https://shop.example/password-reset/abc123?x=1&y=2';
const data = { name: 'Maria', link, expiresInMinutes: 60 };
/** The templates made of one link and a few sentences: every one but the receipt. */
const LINK_TEMPLATES = [...TOKEN_EMAIL_TEMPLATES, ...NOTICE_TEMPLATES];

describe('email templates', () => {
  for (const template of LINK_TEMPLATES) {
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
        if (!isNoticeTemplate(template)) {
          expect(message.text).toContain(formatDuration(60, locale));
          expect(message.text).toContain(EMAIL_TEXTS[locale].common.ignore);
        }
        expect(extractLinks(message.text)).toEqual([link]);
      });
    }
  }

  it('every locale words every template differently from English (no untranslated copy)', () => {
    for (const locale of LOCALES.filter((value) => value !== 'en')) {
      for (const template of LINK_TEMPLATES) {
        const en = EMAIL_TEXTS.en.templates[template];
        const other = EMAIL_TEXTS[locale].templates[template];
        expect(other.intro).not.toBe(en.intro);
        expect(other.button).not.toBe(en.button);
      }
    }
  });

  for (const template of NOTICE_TEMPLATES.filter((name) => name !== 'email-changed')) {
    it(`${template} is a notice: what to do if it was not you, no link lifetime, in every language`, () => {
      for (const locale of LOCALES) {
        const message = renderEmail(template, locale, { ...data, link: 'https://shop.example/faq' });
        const closing = EMAIL_TEXTS[locale].templates[template].closing;
        expect(message.text).toContain(closing);
        expect(message.html).toContain(escapeHtml(closing));
        expect(message.text).not.toContain(EMAIL_TEXTS[locale].common.expiry.split('{')[0]);
        expect(message.text).not.toContain(EMAIL_TEXTS[locale].common.ignore);
        if (locale !== 'en') expect(closing).not.toBe(EMAIL_TEXTS.en.templates[template].closing);
      }
    });
  }

  it('email-changed says what to do if it was not you and how long its link undoes the change, never "ignore this"', () => {
    for (const locale of LOCALES) {
      const week = 7 * 24 * 60;
      const message = renderEmail('email-changed', locale, { ...data, expiresInMinutes: week });
      const [before, after] = EMAIL_TEXTS[locale].templates['email-changed'].closing.split('{duration}');
      const closing = `${before}${formatDuration(week, locale)}${after}`;
      expect(message.text).toContain(closing);
      expect(message.html).toContain(escapeHtml(closing));
      expect(message.text).not.toContain(EMAIL_TEXTS[locale].common.ignore);
      if (locale !== 'en') expect(before).not.toBe(EMAIL_TEXTS.en.templates['email-changed'].closing.split('{')[0]);
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
    expect(renderEmail('password-reset', 'de', data).subject).toBe('Reset your Giftstore password');
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

describe('the order receipt', () => {
  const profile = 'https://shop.example/profile';
  const receipt: ReceiptData = {
    orderId: '0f3c2a1b-7d6e-4f5a-9b8c-1d2e3f4a5b6c',
    currency: 'BRL',
    totalMinor: 8_970,
    refundedMinor: 0,
    lines: [
      { name: 'Steam {store} Card', quantity: 2, delivered: 2 },
      { name: 'Xbox <Gift>', quantity: 1, delivered: 1 },
    ],
  };
  const render = (locale: string, override: Partial<ReceiptData> = {}) =>
    renderEmail('order-receipt', locale, {
      name: 'Maria',
      link: profile,
      expiresInMinutes: 60,
      receipt: { ...receipt, ...override },
    });

  for (const locale of LOCALES) {
    it(`in ${locale} lists the lines, the total and the profile link, and says codes are not in it`, () => {
      const texts = EMAIL_TEXTS[locale].receipt;
      const message = render(locale);
      expect(message.subject).toContain(orderNumber(receipt.orderId));
      expect(message.text).toContain(texts.intro);
      expect(message.text).toContain('Steam {store} Card');
      expect(message.text).toContain(formatMoney(8_970, 'BRL', locale));
      expect(message.text).toContain(texts.codesHint);
      expect(message.text).not.toContain(texts.partialRefund.slice(0, 20));
      expect(extractLinks(message.text)).toEqual([profile]);
      expect(message.html).toContain(`href="${profile}"`);
      expect(message.html).toContain('Xbox &lt;Gift&gt;');
      expect(message.html).not.toContain('<Gift>');
      for (const part of [message.subject, message.text, message.html]) {
        expect(part).not.toMatch(/\{(?!store\})\w+\}/);
        expect(part).not.toContain('undefined');
      }
      // A receipt is not a token email: no expiry, no "ignore this" line.
      expect(message.text).not.toContain(EMAIL_TEXTS[locale].common.ignore);
    });
  }

  it('says what a shortfall returned to the balance, line by line', () => {
    const message = render('en', {
      refundedMinor: 2_990,
      lines: [{ name: 'Steam Card', quantity: 3, delivered: 2 }],
    });
    expect(message.text).toContain('Steam Card: 2 of 3 delivered');
    expect(message.text).toContain('We returned R$29.90 to your balance');
    expect(message.text).toContain(EMAIL_TEXTS.en.receipt.intro);
  });

  it('leads with the refund when nothing could be delivered', () => {
    const message = render('pt-BR', { refundedMinor: 8_970, lines: [{ name: 'Card', quantity: 3, delivered: 0 }] });
    expect(message.text).not.toContain(EMAIL_TEXTS['pt-BR'].receipt.intro);
    expect(message.text).toContain('Devolvemos o valor total');
    expect(message.text).toContain(formatMoney(8_970, 'BRL', 'pt-BR'));
  });

  it('needs its order', () => {
    expect(() => renderEmail('order-receipt', 'en', { name: 'M', link: profile, expiresInMinutes: 60 })).toThrow(
      /needs its order/,
    );
  });
});

describe('the balance notices', () => {
  const profile = 'https://shop.example/profile';
  const movement = {
    orderId: '7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
    currency: 'BRL',
    amountMinor: 25_000,
    balanceMinor: 31_050,
  };
  const cases = [
    { template: 'balance-topup', cause: 'topup', intro: 'topupIntro', subject: 'topupSubject' },
    { template: 'balance-refund', cause: 'order_refunded', intro: 'orderRefundedIntro', subject: 'refundSubject' },
    { template: 'balance-refund', cause: 'paid_twice', intro: 'paidTwiceIntro', subject: 'paidTwiceSubject' },
    { template: 'balance-refund', cause: 'late_returned', intro: 'lateReturnedIntro', subject: 'lateReturnedSubject' },
  ] as const;

  for (const { template, cause, intro, subject } of cases) {
    for (const locale of LOCALES) {
      it(`${template} (${cause}) in ${locale} names the order, the amount and where the money is, and links the profile`, () => {
        const texts = EMAIL_TEXTS[locale].balance;
        const message = renderEmail(template, locale, {
          name: 'Maria',
          link: profile,
          expiresInMinutes: 60,
          balance: { ...movement, cause },
        });
        expect(message.locale).toBe(locale);
        expect(message.subject).toBe(
          texts[subject].replace('{store}', 'Giftstore').replace('{order}', orderNumber(movement.orderId)),
        );
        const amount = formatMoney(25_000, 'BRL', locale);
        const balance = formatMoney(31_050, 'BRL', locale);
        const order = orderNumber(movement.orderId);
        const expectedIntro = texts[intro].replace('{order}', order).replace('{amount}', amount);
        expect(message.text).toContain(expectedIntro);
        // Money onto the balance says what the balance is now; a payment going back to its card does not.
        const balanceNow = texts.balanceNow.replace('{balance}', balance);
        if (cause === 'paid_twice' || cause === 'late_returned') expect(message.text).not.toContain(balanceNow);
        else expect(message.text).toContain(balanceNow);
        expect(message.html).toContain(escapeHtml(expectedIntro));
        expect(message.text).toContain('Maria');
        expect(extractLinks(message.text)).toEqual([profile]);
        expect(message.html).toContain(`href="${profile}"`);
        expect(message.html).toContain(`lang="${locale}"`);
        for (const part of [message.subject, message.text, message.html]) {
          expect(part).not.toMatch(/\{\w+\}/);
          expect(part).not.toContain('undefined');
        }
        // A notice of money, not a token email: no link lifetime, no "ignore this".
        expect(message.text).not.toContain(EMAIL_TEXTS[locale].common.ignore);
        if (locale !== 'en') expect(texts[intro]).not.toBe(EMAIL_TEXTS.en.balance[intro]);
      });
    }
  }

  it('needs its balance movement, and one that fits the template', () => {
    const base = { name: 'M', link: profile, expiresInMinutes: 60 };
    expect(() => renderEmail('balance-topup', 'en', base)).toThrow(/needs its balance movement/);
    expect(() =>
      renderEmail('balance-topup', 'en', { ...base, balance: { ...movement, cause: 'order_refunded' } }),
    ).toThrow(/cannot tell of order_refunded/);
    expect(() => renderEmail('balance-refund', 'en', { ...base, balance: { ...movement, cause: 'topup' } })).toThrow(
      /cannot tell of topup/,
    );
  });
});

describe('formatMoney', () => {
  it('separates thousands by a space in every language, as the web app does', () => {
    expect(formatMoney(123_456_790, 'BRL', 'pt-BR')).toBe('R$\u00a01\u00a0234\u00a0567,90');
    expect(formatMoney(123_490, 'INR', 'en')).toBe('₹1\u00a0234.90');
    expect(formatMoney(100_000, 'RUB', 'ru')).toBe('1\u00a0000,00\u00a0₽');
    for (const locale of LOCALES) expect(formatMoney(100_000, 'BRL', locale)).not.toMatch(/\d[,.]\d{3}/);
  });
});
