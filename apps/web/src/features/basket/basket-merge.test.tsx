import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeBasketServer } from '../../test/basket-server.ts';
import { productFixture, userFixture } from '../../test/fixtures.ts';
import { renderWithApp } from '../../test/render.tsx';
import { closeAccountUi, openAuth } from '../auth/account-ui-store.ts';
import AccountDialogs from '../auth/components/account-dialogs.tsx';
import { BASKET_QUEUE_STORAGE_KEY, readQueue } from './basket-queue.ts';
import { addToBasket, BASKET_STORAGE_KEY, getBasket } from './basket-store.ts';
import { flushBasket } from './basket-sync.ts';

const steam = productFixture({ id: 1, name: 'Steam 50', price: 50, price_minor: 5_000 });
const psn = productFixture({ id: 2, name: 'PSN 20', price: 20, price_minor: 2_000 });

const stored = () => JSON.parse(localStorage.getItem(BASKET_STORAGE_KEY) ?? 'null');
const quantities = () => Object.fromEntries(getBasket().map((line) => [line.id, line.pivot.quantity]));

afterEach(() => {
  act(() => closeAccountUi());
  delete window.dataLayer;
});

async function logIn() {
  const user = userEvent.setup();
  act(() => openAuth('login'));
  renderWithApp(<AccountDialogs />);
  const modal = screen.getByTestId('auth-modal');
  await user.type(within(modal).getByLabelText('Email'), 'ana@example.com');
  await user.type(within(modal).getByLabelText('Password'), 'secret123');
  await user.click(within(modal).getByRole('button', { name: 'Log in' }));
  expect(await screen.findByTestId('location')).toHaveTextContent('/profile');
}

describe('the guest basket at login', () => {
  it('is sent in one merge with the merge id stored beside it, and the merged server basket replaces it', async () => {
    const server = fakeBasketServer([steam, psn], { 2: 1 });
    vi.stubGlobal('fetch', vi.fn(server.fetchMock));
    addToBasket(steam);
    addToBasket(steam);
    addToBasket(psn);
    const mergeId = stored().merge_id;

    await logIn();

    const merges = server.callsTo('POST /api/basket/merge');
    expect(merges).toHaveLength(1);
    expect(merges[0]?.body).toEqual({
      merge_id: mergeId,
      products: [
        { id: 1, quantity: 2 },
        { id: 2, quantity: 1 },
      ],
    });
    expect(merges[0]?.headers.Authorization).toBe('Bearer tok');
    expect(server.calls.map((call) => `${call.method} ${call.path}`).indexOf('POST /api/login')).toBe(0);
    // Summed with what the server held; the local copy is now the customer's, and nothing is left to send.
    expect(quantities()).toEqual({ 1: 2, 2: 2 });
    expect(stored()).toMatchObject({ owner: 'u1', merge_id: null });
    expect(localStorage.getItem(BASKET_QUEUE_STORAGE_KEY)).toBeNull();
  });

  it('is merged once when the first answer is lost and the same copy is sent again', async () => {
    const server = fakeBasketServer([steam], { 1: 1 });
    vi.stubGlobal('fetch', vi.fn(server.fetchMock));
    server.fail('POST /api/basket/merge', 'lose');
    addToBasket(steam);
    addToBasket(steam);
    const mergeId = stored().merge_id;

    await logIn();
    // The server has it, the page does not know: the merge waits in the queue with its id.
    expect(server.lines.get(1)).toBe(3);
    expect(readQueue().merge?.merge_id).toBe(mergeId);

    await expect(flushBasket()).resolves.toBe(true);
    const merges = server.callsTo('POST /api/basket/merge');
    expect(merges.map((call) => (call.body as { merge_id: string }).merge_id)).toEqual([mergeId, mergeId]);
    expect(server.lines.get(1)).toBe(3);
    expect(quantities()).toEqual({ 1: 3 });
    expect(readQueue().merge).toBeNull();
  });

  it('sends no merge when the guest basket is empty, and shows the server basket', async () => {
    const server = fakeBasketServer([steam, psn], { 2: 4 });
    vi.stubGlobal('fetch', vi.fn(server.fetchMock));
    await logIn();
    expect(server.callsTo('POST /api/basket/merge')).toHaveLength(0);
    expect(server.callsTo('GET /api/basket')).toHaveLength(1);
    expect(quantities()).toEqual({ 2: 4 });
  });

  it('is merged on registration too', async () => {
    const server = fakeBasketServer([steam]);
    const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) =>
      String(input).endsWith('/api/register')
        ? new Response(JSON.stringify({ token: 'tok', user: userFixture({ id: 'u1' }) }), { status: 201 })
        : server.fetchMock(input, init),
    );
    vi.stubGlobal('fetch', fetchMock);
    addToBasket(steam);
    const user = userEvent.setup();
    act(() => openAuth('register'));
    renderWithApp(<AccountDialogs />);
    const modal = screen.getByTestId('auth-modal');
    await user.type(within(modal).getByLabelText('Name'), 'Ana2026');
    await user.type(within(modal).getByLabelText('Email'), 'ana@example.com');
    await user.type(within(modal).getByLabelText('Password', { selector: 'input' }), 'Strongpass1');
    await user.type(within(modal).getByLabelText('Repeat password'), 'Strongpass1');
    await user.click(within(modal).getByRole('checkbox'));
    await user.click(within(modal).getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByTestId('notice-modal')).toBeVisible();
    expect(server.callsTo('POST /api/basket/merge')).toHaveLength(1);
    expect(quantities()).toEqual({ 1: 1 });
    expect(stored().owner).toBe('u1');
  });
});
