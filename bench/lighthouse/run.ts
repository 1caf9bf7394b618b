/**
 * Lighthouse (mobile: its default emulation and throttling) on the home page, a category, a product
 * and the signed-in profile of a running store; prints performance, accessibility, best practices
 * and CLS for each. A measurement to read, not a test: start the store first (`pnpm start`), then
 * `pnpm --filter @store/bench lighthouse` (BASE_URL, default http://127.0.0.1:3000; CHROMIUM_PATH,
 * default Debian's /usr/bin/chromium).
 *
 * The browser is Playwright's persistent context with a debugging port: the profile needs a
 * signed-in shopper in local storage, and Lighthouse's tabs share that context's storage.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';

const base = process.env.BASE_URL ?? 'http://127.0.0.1:3000';
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const port = Number(process.env.LIGHTHOUSE_PORT ?? 9333);
const pages = ['/', '/category/steam', '/product/2', '/profile'];

async function signedInShopper() {
  const run = Date.now().toString(36);
  const password = 'Lighthouse1';
  const response = await fetch(`${base}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: `Lh${run}`.slice(0, 16),
      email: `lighthouse-${run}@example.com`,
      password,
      password_confirmation: password,
      locale: 'en',
    }),
  });
  if (!response.ok) throw new Error(`registering the shopper: ${response.status} ${await response.text()}`);
  return (await response.json()) as { token: string; user: unknown };
}

const context = await chromium.launchPersistentContext(mkdtempSync(path.join(os.tmpdir(), 'lighthouse-')), {
  executablePath,
  headless: true,
  args: [`--remote-debugging-port=${port}`, '--no-sandbox', '--disable-gpu'],
});
try {
  const { token, user } = await signedInShopper();
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(base);
  await page.evaluate(
    ({ token, user }) => {
      localStorage.setItem('auth-token', token);
      localStorage.setItem('user', JSON.stringify(user));
    },
    { token, user },
  );

  const rows: Record<string, string | number>[] = [];
  for (const route of pages) {
    const result = await lighthouse(
      `${base}${route}`,
      {
        port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility', 'best-practices'],
        // Keeps the signed-in shopper: the profile is measured as a shopper sees it.
        disableStorageReset: true,
      },
      undefined,
    );
    if (!result) throw new Error(`no result for ${route}`);
    const { categories, audits } = result.lhr;
    const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
    rows.push({
      page: route,
      performance: score('performance'),
      accessibility: score('accessibility'),
      'best-practices': score('best-practices'),
      CLS: Number((audits['cumulative-layout-shift']?.numericValue ?? Number.NaN).toFixed(3)),
      LCP_ms: Math.round(audits['largest-contentful-paint']?.numericValue ?? Number.NaN),
    });
    const failing = Object.values(audits)
      .filter((audit) => audit.score !== null && audit.score < 1 && audit.scoreDisplayMode === 'binary')
      .map((audit) => audit.id);
    if (failing.length > 0) console.log(`${route}: failing audits: ${failing.join(', ')}`);
  }
  console.table(rows);
} finally {
  await context.close();
}
