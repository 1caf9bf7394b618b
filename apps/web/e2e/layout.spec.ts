import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type APIRequestContext, type Browser, expect, type Page, type TestInfo, test } from '@playwright/test';
import { placeOrder } from './shop-helpers.ts';

/**
 * Every screen in every language at every width a shopper brings: nothing may scroll sideways, no
 * product card's content may leave the card or be cut short, and the interface speaks the page's
 * language. One page per language is resized through the widths, so a screen loads once, not six
 * times; the four languages run as four tests that workers can share.
 */

const LANGUAGES = ['pt-BR', 'en', 'ru', 'hi'] as const;
type Language = (typeof LANGUAGES)[number];
const WIDTHS = [320, 360, 375, 768, 1024, 1280];
const HEIGHT = 720;

const locales = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/locales');

function flatten(tree: unknown, out: string[] = []) {
  if (typeof tree === 'string') out.push(tree);
  else if (tree && typeof tree === 'object') for (const value of Object.values(tree)) flatten(value, out);
  return out;
}

/** A language's every text: the first-load catalogue and each part the screens load later. */
function catalogueTexts(language: Language): string[] {
  const parts = readdirSync(locales, { withFileTypes: true }).filter((entry) => entry.isDirectory());
  const files = [
    path.join(locales, `${language}.json`),
    ...parts.map((part) => path.join(locales, part.name, `${language}.json`)),
  ];
  return files.flatMap((file) => flatten(JSON.parse(readFileSync(file, 'utf8'))));
}

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A catalogue text as a pattern of the whole visible string: placeholders match anything. */
const pattern = (text: string) =>
  text
    .split(/\{\{[^}]+\}\}/)
    .map(literal)
    .join('.+');

/**
 * The texts of the other languages that this language says differently, as one pattern of a whole
 * string: one of them on the page is interface text left untranslated. Short or placeholder-only
 * texts ("{{count}}", "OK") are left out.
 */
function foreignPattern(language: Language): string {
  const own = new Set(catalogueTexts(language).map((text) => text.trim()));
  const foreign = new Set<string>();
  for (const other of LANGUAGES) {
    if (other === language) continue;
    for (const text of catalogueTexts(other)) {
      const trimmed = text.trim();
      const letters = trimmed.replace(/\{\{[^}]+\}\}/g, '').replace(/[^\p{L}]/gu, '');
      if (letters.length < 4 || own.has(trimmed)) continue;
      foreign.add(pattern(trimmed));
    }
  }
  return `^(?:${[...foreign].join('|')})$`;
}

/** Latin-script words a Cyrillic or Devanagari page may show: those its own catalogue uses (brands, codes). */
function ownLatinWords(language: Language): string[] {
  const words = new Set<string>();
  for (const text of catalogueTexts(language)) {
    for (const word of text.replace(/\{\{[^}]+\}\}/g, ' ').match(/[A-Za-z][A-Za-z'’-]*/g) ?? [])
      words.add(word.toLowerCase());
  }
  return [...words];
}

/** Names the store's data gives (products, categories): shown as they are in every language. */
async function dataNames(request: APIRequestContext): Promise<string[]> {
  const categories = (await (await request.get('/api/categories')).json()) as {
    id: string;
    name: string;
    formatted_name: string;
  }[];
  const names = new Set<string>();
  for (const category of categories) {
    names.add(category.name);
    names.add(category.formatted_name);
    const listing = (await (await request.get(`/api/categories/${category.id}?limit=60`)).json()) as {
      result: { products: { name: string }[] };
    };
    for (const product of listing.result.products) names.add(product.name);
  }
  // Spaced as the page's texts are compared (a name's no-break spaces as plain ones), longest first,
  // so "Steam Gift Card 10 USD" goes before "Steam".
  return [...names].map((name) => name.replace(/\s+/g, ' ')).sort((a, b) => b.length - a.length);
}

/** Text the shopper typed or owns (a search, their name and email): shown as they wrote it. */
const ownWords = (...texts: string[]) => texts.map(literal);

interface Rules {
  language: Language;
  /** A pattern of whole strings of other languages' catalogues. */
  foreign: string;
  latin: string[];
  /** A pattern of names and the shopper's own words, removed before the words are looked at. */
  names: string;
}

/**
 * What is wrong on the page as it is now: sideways scroll of the page, a sidebar name or content of a
 * product card cut short or outside it, and visible text (and the labels screen readers read) in
 * another language.
 */
async function problems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth)
      found.push(`page scrolls sideways: ${root.scrollWidth} > ${root.clientWidth}`);

    // Stacked above the page on narrow screens, the sidebar's row is as tall as its chips, no taller.
    const aside = document.querySelector('main')?.previousElementSibling;
    const main = document.querySelector('main');
    if (aside instanceof HTMLElement && aside.tagName === 'ASIDE' && main && aside.firstElementChild) {
      const row = aside.getBoundingClientRect();
      if (row.bottom <= main.getBoundingClientRect().top + 1) {
        const band = row.height - aside.firstElementChild.getBoundingClientRect().height;
        if (band > 8) found.push(`blank band of ${Math.round(band)} px under the sidebar`);
      }
    }

    // The sidebar's category names are shown whole, on a second line when one is not enough.
    for (const label of document.querySelectorAll<HTMLElement>('aside a [class*="label"]')) {
      if (!label.checkVisibility()) continue;
      if (label.scrollWidth > label.clientWidth + 1 || label.scrollHeight > label.clientHeight + 1)
        found.push(`sidebar name cut short: "${(label.textContent ?? '').trim()}"`);
    }

    const named = (element: Element) =>
      `${element.tagName.toLowerCase()}${element.className ? `.${String(element.className).split(' ')[0]}` : ''} "${(element.textContent ?? '').trim().slice(0, 30)}"`;

    for (const card of document.querySelectorAll<HTMLElement>('[data-testid="product-card"]')) {
      if (!card.checkVisibility()) continue;
      const box = card.getBoundingClientRect();
      if (card.scrollWidth > card.clientWidth + 1) found.push(`card content wider than the card: ${named(card)}`);
      for (const element of card.querySelectorAll<HTMLElement>('*')) {
        if (!element.checkVisibility() || element.closest('.visually-hidden')) continue;
        const rect = element.getBoundingClientRect();
        if (rect.width === 0) continue;
        if (rect.right > box.right + 1 || rect.left < box.left - 1) {
          found.push(
            `sticks out of its card by ${Math.round(Math.max(rect.right - box.right, box.left - rect.left))} px: ${named(element)}`,
          );
        } else if (
          element.scrollWidth > element.clientWidth + 1 &&
          element.clientWidth > 0 &&
          element.children.length === 0
        ) {
          found.push(`cut short in its card (${element.scrollWidth} > ${element.clientWidth}): ${named(element)}`);
        }
      }
    }

    // A card's labels never lie over each other: the discount badge, the cover's text and the name.
    for (const card of document.querySelectorAll<HTMLElement>('[data-testid="product-card"]')) {
      if (!card.checkVisibility()) continue;
      const labels = [...card.querySelectorAll<HTMLElement>('[class*="badge"], [data-testid="cover-text"], h2, h3')]
        .filter((label) => label.checkVisibility())
        .map((label) => ({ label, rect: label.getBoundingClientRect() }));
      for (const [i, a] of labels.entries()) {
        for (const b of labels.slice(i + 1)) {
          const apart =
            a.rect.right <= b.rect.left + 1 ||
            b.rect.right <= a.rect.left + 1 ||
            a.rect.bottom <= b.rect.top + 1 ||
            b.rect.bottom <= a.rect.top + 1;
          if (!apart && !a.label.contains(b.label) && !b.label.contains(a.label))
            found.push(`${named(a.label)} lies over ${named(b.label)}`);
        }
      }
    }

    // The basket's and the checkout's product names are shown whole: cut short, they lost the region.
    for (const name of document.querySelectorAll<HTMLElement>(
      '[data-testid="basket-line"] a[href^="/product/"], [data-testid="checkout-line"] [class*="lineName"]',
    )) {
      if (!name.checkVisibility()) continue;
      if (name.scrollWidth > name.clientWidth + 1) found.push(`basket name cut short: ${named(name)}`);
    }

    // The cards of a row line up their names and their buttons, whatever wraps on one of them.
    const rows = new Map<number, Array<{ card: HTMLElement; name: number; buttons: number }>>();
    for (const card of document.querySelectorAll<HTMLElement>('[data-testid="product-card"]')) {
      const name = card.querySelector('h2, h3');
      const buttons = card.querySelector('button');
      if (!card.checkVisibility() || !name || !buttons) continue;
      const top = Math.round(card.getBoundingClientRect().top);
      const row = rows.get(top) ?? [];
      row.push({ card, name: name.getBoundingClientRect().top, buttons: buttons.getBoundingClientRect().bottom });
      rows.set(top, row);
    }
    for (const row of rows.values()) {
      const [first, ...rest] = row;
      for (const other of rest) {
        if (!first) break;
        if (Math.abs(other.name - first.name) > 1 || Math.abs(other.buttons - first.buttons) > 1) {
          found.push(`cards of a row out of line: ${named(first.card)} and ${named(other.card)}`);
        }
      }
    }

    const { rules, verdicts } = (window as unknown as { layoutCheck: Installed }).layoutCheck;
    const { language } = rules;
    const foreignText = new RegExp(rules.foreign, 'u');
    const latinWords = new Set(rules.latin);
    const ownScript = language === 'ru' || language === 'hi';
    const namesPattern = new RegExp(rules.names, 'g');
    const verdict = (text: string): string | null => {
      if (!/\p{L}/u.test(text)) return null;
      if (foreignText.test(text)) return `text of another language: "${text.slice(0, 60)}"`;
      if (!ownScript) return null;
      // Currency codes (ISO 4217) are written the same in every language.
      const strangers = (text.replace(namesPattern, ' ').match(/[A-Za-z][A-Za-z'’-]*/g) ?? []).filter(
        (word) => word.length > 2 && !/^[A-Z]{3}$/.test(word) && !latinWords.has(word.toLowerCase()),
      );
      return strangers.length > 0 ? `Latin words ${strangers.slice(0, 4).join(' ')} in "${text.slice(0, 60)}"` : null;
    };
    const check = (raw: string, where: string) => {
      const text = raw.replace(/\s+/g, ' ').trim();
      if (!verdicts.has(text)) verdicts.set(text, verdict(text));
      const problem = verdicts.get(text);
      if (problem) found.push(`${problem} ${where}`);
    };

    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest('script, style, [translate="no"]')) continue;
      // Text marked as another language, or an unknown one (lang="": shoppers' reviews), is not the page's.
      if (parent.closest('[lang]') !== document.documentElement) continue;
      const hidden = parent.closest('.visually-hidden');
      if (!hidden && !parent.checkVisibility()) continue;
      check(node.textContent ?? '', `in <${parent.tagName.toLowerCase()}>`);
    }
    for (const element of document.body.querySelectorAll<HTMLElement>(
      '[aria-label], [placeholder], [title], img[alt]',
    )) {
      if (element.closest('[translate="no"]') || !element.checkVisibility()) continue;
      if (element.closest('[lang]') !== document.documentElement) continue;
      for (const attribute of ['aria-label', 'placeholder', 'title', 'alt']) {
        const value = element.getAttribute(attribute);
        if (value) check(value, `in ${attribute} of <${element.tagName.toLowerCase()}>`);
      }
    }
    return [...new Set(found)];
  });
}

interface Installed {
  rules: Rules;
  /** Each text is judged once per page load: the widths and screens show mostly the same texts. */
  verdicts: Map<string, string | null>;
}

/** Hands the rules to the page once per load: they are large, the checks many. */
async function install(page: Page, rules: Rules) {
  await page.evaluate((given) => {
    (window as unknown as { layoutCheck: Installed }).layoutCheck = { rules: given, verdicts: new Map() };
  }, rules);
}

/** Each width in turn, the problems of each, named by screen and width. */
async function acrossWidths(page: Page, screen: string): Promise<string[]> {
  const found: string[] = [];
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: HEIGHT });
    // Two frames: the resize has been laid out and painted.
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    for (const problem of await problems(page)) found.push(`${screen} @${width}: ${problem}`);
  }
  await page.setViewportSize({ width: 1280, height: HEIGHT });
  return found;
}

/** Waits until the page's texts and data are in: no navigation pending, no skeleton, a main heading. */
async function settled(page: Page) {
  await expect(page.getByRole('progressbar', { includeHidden: true })).toHaveAttribute('aria-hidden', 'true');
  await expect(page.locator('main h1').first()).toBeVisible();
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
}

/** Opens `url` in the running app as its own links do (no reload: every screen costs one render, not a start). */
async function navigate(page: Page, url: string) {
  await page.evaluate((target) => {
    window.history.pushState(null, '', target);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, url);
  await expect(page).toHaveURL((current) => `${current.pathname}${current.search}` === url);
}

const SEARCHED = 'steam';
const NOT_FOUND = 'zzzzqqq';

/** Walks every screen and dialog in `language` on its own page; answers what is wrong, screen by screen. */
async function walk(browser: Browser, request: APIRequestContext, language: Language, info: TestInfo, names: string[]) {
  const password = 'Layoutpass1';
  const run = `${Date.now().toString(36)}${info.retry}${language.slice(0, 2)}`;
  const name = `Fit${run}`.slice(0, 16);
  const email = `fit-${run}@example.com`;
  const rules: Rules = {
    language,
    foreign: foreignPattern(language),
    latin: ownLatinWords(language),
    names: [...names.map(literal), ...ownWords(name, email, SEARCHED, NOT_FOUND)].join('|'),
  };

  const registered = await request.post('/api/register', {
    data: {
      name,
      email,
      password,
      password_confirmation: password,
      locale: language,
    },
  });
  expect(registered.ok()).toBe(true);
  const { token, user } = (await registered.json()) as { token: string; user: unknown };

  const context = await browser.newContext({ viewport: { width: 1280, height: HEIGHT } });
  const page = await context.newPage();
  await page.addInitScript((lang) => localStorage.setItem('lang', lang), language);

  const found: string[] = [];
  await page.goto('/');
  await settled(page);
  await install(page, rules);
  const visit = async (screen: string, url: string) => {
    await navigate(page, url);
    await settled(page);
    found.push(...(await acrossWidths(page, screen)));
  };

  await visit('home', '/');
  await visit('category', '/category/steam');
  await visit('category, a late page', '/category/steam?page=99');
  await visit('product', '/product/2');
  await visit('sold-out product', '/product/1');
  await visit('search results', `/search/${SEARCHED}`);
  await visit('search, nothing found', `/search/${NOT_FOUND}`);
  await visit('novelties', '/noveltes');
  await visit('discounts', '/discounts');
  await visit('holiday', '/holiday');
  for (const info of ['/privacy', '/contract-offer', '/requisites', '/guarantees', '/faq']) await visit(info, info);
  await visit('not found', '/no-such-page');

  // The filters, opened where phones open them.
  await navigate(page, '/category/steam');
  await settled(page);
  await page.setViewportSize({ width: 375, height: HEIGHT });
  await page.getByTestId('filters-toggle').click();
  await expect(page.getByTestId('filters-toggle')).toHaveAttribute('aria-expanded', 'true');
  found.push(...(await acrossWidths(page, 'filters open')));

  // The login dialog.
  await navigate(page, '/');
  await settled(page);
  await page.getByTestId('account-button').click();
  await expect(page.getByTestId('auth-modal')).toBeVisible();
  found.push(...(await acrossWidths(page, 'auth modal')));
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('auth-modal')).toBeHidden();

  // The page of the link that undoes a change of email: it asks before acting, so any well-formed
  // token shows it.
  await navigate(page, `/email-change-undo/${'x'.repeat(43)}`);
  await settled(page);
  await expect(page.getByTestId('email-change-undo-modal')).toBeVisible();
  found.push(...(await acrossWidths(page, 'email change undo')));
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('email-change-undo-modal')).toBeHidden();

  // Signed in, with a basket: the basket panel, the checkout, the profile and the payment outcomes.
  await page.evaluate(
    ({ token, user }) => {
      localStorage.setItem('auth-token', token);
      localStorage.setItem('user', JSON.stringify(user));
    },
    { token, user },
  );
  await page.goto('/');
  await settled(page);
  await install(page, rules);
  const buyable = page.getByTestId('product-card').filter({ has: page.locator('button:enabled') });
  await buyable.first().locator('button:enabled').last().click();
  const notification = page.getByTestId('added-notification');
  await expect(notification).toBeVisible();
  found.push(...(await acrossWidths(page, 'added notification')));
  await page.keyboard.press('F8');
  await page.keyboard.press('Escape');
  await expect(notification).toBeHidden();
  await page.getByTestId('cart-button').click();
  await expect(page.getByTestId('basket-panel').getByTestId('basket-line')).toHaveCount(1);
  found.push(...(await acrossWidths(page, 'basket open')));

  await visit('checkout', '/checkout');
  await visit('profile', '/profile');

  // The dialog that deletes the account: it asks for the password first, so opening it changes nothing.
  // The basket panel opened above is still over the page: closed first.
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('basket-panel')).toBeHidden();
  await page.getByTestId('delete-account').click();
  await expect(page.getByTestId('delete-account-modal')).toBeVisible();
  found.push(...(await acrossWidths(page, 'delete account dialog')));
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('delete-account-modal')).toBeHidden();

  // A product the customer reviewed: their review with its edit and delete in place of the form.
  const reviewed = await request.post('/api/products/feedbacks', {
    headers: { authorization: `Bearer ${token}`, 'x-requested-with': 'XMLHttpRequest' },
    data: { productId: 3, rating: 4, text: 'Fine card.' },
  });
  expect(reviewed.status()).toBe(201);
  await visit('product, own review', '/product/3');
  await expect(page.getByTestId('own-review')).toBeVisible();
  found.push(...(await acrossWidths(page, 'own review')));
  await page.getByTestId('own-review').getByRole('button').last().click();
  found.push(...(await acrossWidths(page, 'own review, asking to delete')));
  await visit('payment confirmed', '/payment-confirm/1');
  await visit('payment failed', '/payment-error/1');
  // An order waiting for its payment: the profile's order history, and the order's own page.
  const orderId = await placeOrder(request, token, LANGUAGES.indexOf(language));
  await visit('profile with an order', '/profile');
  await visit('order', `/profile?order=${orderId}`);

  await context.close();
  return found.map((problem) => `${language} ${problem}`);
}

// One test per language, so that the walks spread over the workers rather than one worker carrying
// all four; the file's other tests are independent of them and of each other.
test.describe.configure({ mode: 'parallel' });

for (const language of LANGUAGES) {
  test(`every screen fits 320-1280 px and speaks the page language, in ${language}`, async ({
    browser,
    request,
  }, info) => {
    // Every screen at six widths: about a minute and a half alone, longer beside the other workers.
    test.setTimeout(300_000);
    const found = await walk(browser, request, language, info, await dataNames(request));
    expect(found, `${found.length} problems`).toEqual([]);
  });
}

/** Every text's key ("product.region"), as the page would show it were its text missing; plural forms by their base. */
function catalogueKeys(): string[] {
  const keys = new Set<string>();
  const walkKeys = (tree: unknown, prefix: string) => {
    if (typeof tree === 'string') keys.add(prefix.replace(/_(zero|one|two|few|many|other)$/, ''));
    else if (tree && typeof tree === 'object')
      for (const [key, value] of Object.entries(tree)) walkKeys(value, prefix ? `${prefix}.${key}` : key);
  };
  const parts = readdirSync(locales, { withFileTypes: true }).filter((entry) => entry.isDirectory());
  for (const file of [path.join(locales, 'en.json'), ...parts.map((part) => path.join(locales, part.name, 'en.json'))])
    walkKeys(JSON.parse(readFileSync(file, 'utf8')), '');
  // A key of one word ("ok") could be any text's word: only paths are looked for.
  return [...keys].filter((key) => key.includes('.'));
}

test('a first visit straight to a page that loads texts of its own shows them, not their keys, in every language', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const keys = new RegExp(`(?:^|[^\\w.])(?:${catalogueKeys().map(literal).join('|')})(?:$|[^\\w.])`);
  const found: string[] = [];
  for (const language of LANGUAGES) {
    const context = await browser.newContext({ viewport: { width: 1280, height: HEIGHT } });
    await context.addInitScript((lang) => localStorage.setItem('lang', lang), language);
    const page = await context.newPage();
    // The texts arrive last, as on a slow line where the page's own code is cached: its loader then
    // asks for its texts before the language's catalogue is in.
    await page.route(/\/assets\/(?:pt-BR|en|ru|hi)-[\w-]+\.js$/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 400));
      await route.continue();
    });
    for (const url of ['/product/2', '/category/steam', `/search/${SEARCHED}`, '/faq']) {
      // A new load each time.
      await page.goto(url);
      await settled(page);
      // biome-ignore lint/performance/useDomNodeTextContent: the text as rendered is what the shopper sees.
      const shown = await page.locator('body').innerText();
      const key = shown.match(keys)?.[0]?.trim();
      if (key) found.push(`${language} ${url}: shows the key ${key}`);
    }
    await context.close();
  }
  expect(found).toEqual([]);
});

test('the Devanagari web font loads for Hindi only', async ({ page }) => {
  const fontRequests: string[] = [];
  page.on('request', (request) => {
    if (/noto-sans-devanagari/i.test(request.url())) fontRequests.push(request.url());
  });
  for (const language of ['pt-BR', 'en', 'ru'] as const) {
    await page.addInitScript((lang) => localStorage.setItem('lang', lang), language);
    await page.goto('/');
    await settled(page);
    await page.waitForLoadState('networkidle');
    expect(fontRequests, `no Devanagari font on a ${language} first load`).toEqual([]);
  }

  await page.addInitScript(() => localStorage.setItem('lang', 'hi'));
  await page.goto('/');
  await settled(page);
  await expect.poll(() => fontRequests.some((url) => url.endsWith('.woff2'))).toBe(true);
  await expect
    .poll(() =>
      page.evaluate(async () => {
        await document.fonts.ready;
        return [...document.fonts].some(
          (face) => face.family.replace(/"/g, '') === 'Noto Sans Devanagari' && face.status === 'loaded',
        );
      }),
    )
    .toBe(true);
});
