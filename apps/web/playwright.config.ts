import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../..');
const port = Number(process.env.E2E_PORT ?? 4173);
const baseURL = `http://127.0.0.1:${port}`;

// One throw-away database per run; workers inherit the variable, so they agree on it.
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(os.tmpdir(), 'giftstore-e2e-'));

// Debian's Chromium where it is installed (CHROMIUM_PATH names another): its old headless shell
// first, the browser Playwright itself runs headless tests in, which took a third less CPU than the
// full browser over the same tests on this machine; elsewhere, such as a GitHub runner, the browser
// `playwright install chromium` downloads.
const systemChromium =
  process.env.CHROMIUM_PATH ??
  ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((candidate) => existsSync(candidate));

const launchOptions = {
  ...(systemChromium ? { executablePath: systemChromium } : {}),
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
  ],
};

export default defineConfig({
  testDir: './e2e',
  outputDir: './test-results',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // Every test on whichever worker is free, files split across them: the tests take their own
  // products and customers so that they never meet (a walk that must run in order says so itself).
  fullyParallel: true,
  // Four browsers on two cores: with two, a test spent most of its time waiting for the store, the
  // sandbox or a page, and the cores were idle more than half of the run; with four they are busy.
  workers: Number(process.env.E2E_WORKERS ?? 4),
  // No retries: a test that passes only the second time is a flake to fix, not to hide.
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  globalTeardown: './e2e/global-teardown.ts',
  use: {
    baseURL,
    browserName: 'chromium',
    launchOptions,
    // Actions and DOM snapshots of a failed test, without the screencast, whose frames cost the
    // browser about a fifth of the run's time.
    trace: { mode: 'retain-on-failure', screenshots: false },
    reducedMotion: 'reduce',
    screenshot: 'only-on-failure',
    locale: 'en-US',
  },
  projects: [
    {
      name: 'mobile',
      use: { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true },
      // The journeys whose phone layout differs (tagged with PHONE in shop-helpers.ts); layout.spec
      // walks every screen at every width from 320 px, in every language, in the desktop project.
      grep: /@phone/,
    },
    { name: 'desktop', use: { viewport: { width: 1280, height: 800 } } },
  ],
  webServer: {
    // The store started the way `pnpm start` starts it (generate, build the web app, the console and the
    // API, start the built API that serves them), on its own port and an empty embedded database that
    // the API seeds with the demo catalogue. Before it starts, the console walk's staff are added with
    // the operator command (e2e/seed-staff.mjs), as the first owner is.
    command: `pnpm --filter @store/db generate && pnpm --filter @store/web build && pnpm --filter @store/admin build && pnpm --filter @store/api build && node apps/web/e2e/seed-staff.mjs && pnpm --filter @store/api start`,
    cwd: repoRoot,
    // Empty DATABASE_URL and REDIS_URL mean embedded mode even where CI sets them for other tests.
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: process.env.E2E_DATA_DIR,
      DATABASE_URL: '',
      REDIS_URL: '',
      LOG_LEVEL: 'warn',
      // Emailed links (read from the development mailbox) point at the store under test.
      PUBLIC_URL: baseURL,
      // Every test browses from one address; the per-address limit is sized for one shopper.
      RATE_LIMIT_SCALE: '20',
      // The build the tests browse fails when the home route's JavaScript is over its budget.
      SIZE_BUDGET_STRICT: '1',
    },
    url: `${baseURL}/health`,
    timeout: 240_000,
    reuseExistingServer: !process.env.CI,
    stdout: 'pipe',
    stderr: 'pipe',
  },
});
