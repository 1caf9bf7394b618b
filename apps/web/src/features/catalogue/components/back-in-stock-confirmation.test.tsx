import { STOCK_NOTIFICATION_LINK_EXPIRED, STOCK_NOTIFICATION_LINK_USED } from '@store/contract';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { currentLanguage, initI18n, LANGUAGE_STORAGE_KEY } from '../../../lib/i18n.ts';
import { mockApi } from '../../../test/fixtures.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { BackInStockConfirmation } from './back-in-stock-confirmation.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
});

const token = (seed: string) => seed.padEnd(43, 'x');
const CONFIRM = 'POST /api/stock-notifications/confirm';

/** Opens the link with `seed`'s token, the API answering its confirmation with `reply`. */
function open(seed: string, reply: Parameters<typeof mockApi>[0][string]) {
  const api = mockApi({ [CONFIRM]: reply });
  vi.stubGlobal('fetch', vi.fn(api.fetchMock));
  const view = renderWithApp(<BackInStockConfirmation />, {
    route: `/product/12?backInStockToken=${token(seed)}&tab=reviews`,
  });
  return { api, unmount: view.unmount };
}

describe('the product page a back-in-stock confirmation link opens', () => {
  it('confirms the request once, takes the token out of the address, and says so', async () => {
    const { api } = open('c1', { body: { ok: true, message: 'Confirmed.', lang: 'en' } });
    expect(await screen.findByText(/^Confirmed: we will write to you once/)).toBeVisible();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/product\/12\?tab=reviews$/);
    expect(api.calls).toHaveLength(1);
    expect(api.calls[0]?.body).toEqual({ token: token('c1') });
  });

  it('says clearly when the link was used already, has expired, or is not one of ours', async () => {
    const cases = [
      ['u1', { status: 409, body: { message: 'Used', code: STOCK_NOTIFICATION_LINK_USED } }, /used already/],
      ['e1', { status: 409, body: { message: 'Expired', code: STOCK_NOTIFICATION_LINK_EXPIRED } }, /has expired/],
      ['i1', { status: 422, body: { message: 'Bad', errors: { token: ['validation.tokenInvalid'] } } }, /not valid/],
    ] as const;
    for (const [seed, reply, text] of cases) {
      const { unmount } = open(seed, reply);
      expect(await screen.findByText(text)).toHaveAttribute('data-testid', 'notify-confirmation');
      unmount();
    }
  });

  it('speaks the language the request was made in where none was chosen, and keeps a choice made here', async () => {
    await initI18n('en');
    localStorage.removeItem(LANGUAGE_STORAGE_KEY);
    const first = open('l1', { body: { ok: true, message: 'Confirmed.', lang: 'ru' } });
    await waitFor(() => expect(currentLanguage()).toBe('ru'));
    expect(localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('ru');
    first.unmount();

    open('l2', { body: { ok: true, message: 'Confirmed.', lang: 'hi' } });
    expect(await screen.findByText(/^Confirmed/)).toBeVisible();
    expect(currentLanguage()).toBe('ru');
  });
});
