import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setSession } from '../../../lib/session-store.ts';
import { fakeBasketServer, promoResult } from '../../../test/basket-server.ts';
import { productFixture, userFixture } from '../../../test/fixtures.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { closeAccountUi, getAccountUi } from '../../auth/account-ui-store.ts';
import { addToBasket } from '../basket-store.ts';
import { clearPromo } from '../promo-store.ts';
import BasketPanel from './basket-panel.tsx';

const steam = productFixture({ id: 1, name: 'Steam 50', price: 50, price_minor: 5_000 });
const psn = productFixture({ id: 2, name: 'PSN 20.55', price: 20.55, price_minor: 2_055 });

let server: ReturnType<typeof fakeBasketServer>;

beforeEach(() => {
  vi.stubGlobal('matchMedia', () => ({ matches: true }));
  server = fakeBasketServer([steam, psn]);
  vi.stubGlobal('fetch', vi.fn(server.fetchMock));
});

afterEach(() => {
  act(() => {
    clearPromo();
    closeAccountUi();
  });
});

function renderPanel() {
  const onOpenChange = vi.fn();
  renderWithApp(<BasketPanel open onOpenChange={onOpenChange} returnFocus={() => {}} />);
  const form = screen.getByRole('form', { name: 'Promo code' });
  return {
    onOpenChange,
    form,
    input: within(form).getByLabelText('Promo code'),
    apply: within(form).getByRole('button', { name: 'Apply' }),
  };
}

const promoCalls = () => server.callsTo('POST /api/promocode/');

describe('promo code', () => {
  it('can be sent from 3 characters; applied, it strikes the total through, follows quantity changes, and undoes', async () => {
    setSession('tok', userFixture({ id: 'u1' }));
    addToBasket(steam);
    addToBasket(psn);
    server.answerPromo({ status: 200, body: promoResult({ code: 'WELCOME10', discount: 10, applies_to: [1, 2] }) });
    const user = userEvent.setup();
    const { input, apply } = renderPanel();

    await user.type(input, 'we');
    expect(apply).toBeDisabled();
    await user.type(input, 'l');
    expect(apply).toBeEnabled();
    await user.type(input, 'come10 ');
    await user.click(apply);

    expect(await screen.findByTestId('promo-applied')).toHaveTextContent('WELCOME10: 10% off');
    // The server prices the code on the server basket: the queued changes were sent first.
    const order = server.calls.map((call) => `${call.method} ${call.path}`);
    expect(order.indexOf('PATCH /api/basket')).toBeGreaterThanOrEqual(0);
    expect(order.indexOf('PATCH /api/basket')).toBeLessThan(order.indexOf('POST /api/promocode/'));
    expect(new URLSearchParams(promoCalls()[0]?.search).get('code')).toBe('welcome10');
    expect(new URLSearchParams(promoCalls()[0]?.search).get('price')).toBe('70.55');
    expect(promoCalls()[0]?.headers.Authorization).toBe('Bearer tok');
    // 10 % of 5 000 and of 2 055 minor units, each rounded half up: 500 + 206.
    expect(screen.getByTestId('basket-total-original')).toHaveTextContent('BRL 70.55');
    expect(screen.getByTestId('basket-total')).toHaveTextContent('BRL 63.49');

    const psnLine = screen.getByText('PSN 20.55').closest('li') as HTMLElement;
    await user.click(within(psnLine).getByRole('button', { name: 'One more PSN 20.55' }));
    // 500 + round(411.0) = 911 off 9 110.
    expect(screen.getByTestId('basket-total-original')).toHaveTextContent('BRL 91.10');
    expect(screen.getByTestId('basket-total')).toHaveTextContent('BRL 81.99');

    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(screen.queryByTestId('promo-applied')).toBeNull();
    expect(screen.queryByTestId('basket-total-original')).toBeNull();
    expect(screen.getByTestId('basket-total')).toHaveTextContent('BRL 91.10');
  });

  it('discounts only the lines the code applies to', async () => {
    setSession('tok', userFixture({ id: 'u1' }));
    addToBasket(steam);
    addToBasket(psn);
    server.answerPromo({ status: 200, body: promoResult({ discount: 50, applies_to: [1] }) });
    const user = userEvent.setup();
    const { input, apply } = renderPanel();
    await user.type(input, 'HALFSTEAM');
    await user.click(apply);
    await screen.findByTestId('promo-applied');
    expect(screen.getByTestId('basket-total')).toHaveTextContent('BRL 45.55');
  });

  it('asks a guest to log in, and the server agrees', async () => {
    addToBasket(steam);
    server.answerPromo({ status: 401, body: { message: 'Log in first', code: 'promo.loginRequired' } });
    const user = userEvent.setup();
    const { input, apply, onOpenChange } = renderPanel();
    const hint = screen.getByTestId('promo-login');
    expect(hint).toHaveTextContent('Log in to use a promo code.');
    expect(hint).not.toHaveAttribute('role');

    await user.type(input, 'WELCOME10');
    await user.click(apply);
    expect(await screen.findByRole('alert')).toHaveTextContent('Log in to use a promo code.');
    await user.click(within(hint).getByRole('button', { name: 'Log in' }));
    expect(onOpenChange).toHaveBeenCalledWith(false);
    expect(getAccountUi().auth).toEqual({ tab: 'login', stay: true });
  });

  it('says a refused code is invalid, and why', async () => {
    setSession('tok', userFixture({ id: 'u1' }));
    addToBasket(steam);
    server.answerPromo({
      status: 422,
      body: { message: 'Invalid promo code.', errors: { code: ['validation.invalidPromoCode'] }, reason: 'expired' },
    });
    const user = userEvent.setup();
    const { input, apply } = renderPanel();
    await user.type(input, 'OLDCODE');
    await user.click(apply);
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid promo code. This code has expired.');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByTestId('promo-applied')).toBeNull();
  });

  it('says in the interface language when to try again after too many tries, in a notification that can be dismissed', async () => {
    setSession('tok', userFixture({ id: 'u1' }));
    addToBasket(steam);
    server.answerPromo({
      status: 429,
      body: { message: 'Slow down: 5 tries a minute.' },
      headers: { 'retry-after': '300' },
    });
    const user = userEvent.setup();
    const { input, apply } = renderPanel();
    await user.type(input, 'GUESS1');
    await user.click(apply);
    const notice = await screen.findByTestId('promo-rate-limit');
    expect(notice).toHaveTextContent('Too many requests. Try again in 5 min.');
    await user.click(within(notice).getByRole('button', { name: 'Close' }));
    expect(screen.queryByTestId('promo-rate-limit')).toBeNull();
  });

  it('is dropped when the basket is emptied', async () => {
    setSession('tok', userFixture({ id: 'u1' }));
    addToBasket(steam);
    server.answerPromo({ status: 200, body: promoResult() });
    const user = userEvent.setup();
    const { input, apply } = renderPanel();
    await user.type(input, 'WELCOME10');
    await user.click(apply);
    await screen.findByTestId('promo-applied');
    await user.click(screen.getByRole('button', { name: 'Delete all' }));
    act(() => addToBasket(steam));
    expect(await screen.findByRole('form', { name: 'Promo code' })).toBeVisible();
    expect(screen.queryByTestId('promo-applied')).toBeNull();
  });

  it('is forgotten when the customer logs out', async () => {
    setSession('tok', userFixture({ id: 'u1' }));
    addToBasket(steam);
    server.answerPromo({ status: 200, body: promoResult() });
    const user = userEvent.setup();
    const { input, apply } = renderPanel();
    await user.type(input, 'WELCOME10');
    await user.click(apply);
    await screen.findByTestId('promo-applied');
    act(() => setSession('tok2', userFixture({ id: 'u2' })));
    expect(screen.queryByTestId('promo-applied')).toBeNull();
  });
});
