import { USER_REFRESH_AFTER_SPEND_MS } from '@store/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Component as CheckoutPage } from '../../app/routes/checkout.tsx';
import { queryClient } from '../../lib/query-client.ts';
import { setSession } from '../../lib/session-store.ts';
import { fakeBasketServer } from '../../test/basket-server.ts';
import { giveConsents, productFixture, userFixture } from '../../test/fixtures.ts';
import { renderWithApp } from '../../test/render.tsx';
import { addToBasket, getBasket } from '../basket/basket-store.ts';
import PaymentDialogs from './components/payment-dialogs.tsx';
import { closePaymentDialog } from './payment-ui-store.ts';
import { REPORTED_ORDERS_STORAGE_KEY, reportPurchaseOnce } from './purchase-analytics.ts';

const ORDER_ID = '0b6f3c2e-8a57-4c1e-9d5e-2f7f3a1b9c44';
const steam = productFixture({ id: 1, name: 'Steam 50', price: 50, price_minor: 5_000 });

let server: ReturnType<typeof fakeBasketServer>;
let spendReply: { status: number; body: unknown };
/** The user GET /user answers (the refresh after a spend or a refusal). */
let freshUser: ReturnType<typeof userFixture>;

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

beforeEach(() => {
  server = fakeBasketServer([steam]);
  spendReply = {
    status: 200,
    body: {
      order_id: ORDER_ID,
      status: 'fulfilled',
      total_minor: 5_000,
      refunded_minor: 0,
      balance: 70,
      balance_minor: 7_000,
    },
  };
  freshUser = userFixture({ id: 'u1', balance: 70, balance_minor: 7_000 });
  window.dataLayer = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://localhost');
      const answer = await server.fetchMock(input, init);
      if (url.pathname === '/api/orders/create') {
        return json(200, {
          order_id: ORDER_ID,
          total_price: 50,
          total_minor: 5_000,
          currency: 'BRL',
          type: 'spending',
          status: 'created',
          expires_at: null,
        });
      }
      if (url.pathname === '/api/payment/spending-balance-handle') {
        if (spendReply.status === 200) server.lines.clear();
        return json(spendReply.status, spendReply.body);
      }
      if (url.pathname === '/api/user') return json(200, { user: freshUser });
      return answer;
    }),
  );
});

afterEach(() => {
  act(() => closePaymentDialog());
  vi.useRealTimers();
  // The app's own cache: a user read under a test's fake clock would look fresh to the next test's
  // real one, and the refresh after a refusal would not ask the server.
  queryClient.clear();
});

function renderCheckout() {
  return renderWithApp(
    <>
      <CheckoutPage />
      <PaymentDialogs />
    </>,
    { route: '/checkout' },
  );
}

async function payFromBalance(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('radio', { name: /Account balance/ }));
  await giveConsents(user, document.body);
  expect(screen.getByTestId('payment-note')).toHaveTextContent('paid from your account balance');
  await user.click(screen.getByRole('button', { name: /^Pay BRL\s50\.00$/ }));
}

describe('paying from the balance', () => {
  it('opens the insufficient-funds modal when the balance is short, and its button opens the top-up choice', async () => {
    setSession('tok', userFixture({ id: 'u1', balance: 12.5, balance_minor: 1_250 }));
    addToBasket(steam);
    const user = userEvent.setup();
    renderCheckout();
    await payFromBalance(user);

    const modal = await screen.findByTestId('insufficient-modal');
    expect(within(modal).getByRole('heading', { name: 'Insufficient funds' })).toBeVisible();
    expect(modal).toHaveTextContent('BRL 37.50 short');
    expect(server.callsTo('POST /api/orders/create')).toEqual([]);

    await user.click(within(modal).getByRole('button', { name: 'Top up balance' }));
    const methods = await screen.findByTestId('payment-methods-modal');
    expect(within(methods).getByRole('heading', { name: 'Top up' })).toBeVisible();
    expect(within(methods).queryByRole('radio', { name: /Account balance/ })).toBeNull();
    expect(within(methods).getByRole('radio', { name: /^Bank card Visa/ })).toBeVisible();
    // The amount starts at the smallest top-up that covers the BRL 37.50 missing; the hint names the currency.
    const amount = within(methods).getByLabelText('Top-up amount');
    expect(amount).toHaveValue('100');
    expect(methods).toHaveTextContent(/From BRL\s100\.00/);
    // A top-up asks its amount before any method can go on.
    const go = within(methods).getByRole('button', { name: 'Continue' });
    await user.clear(amount);
    await user.click(within(methods).getByRole('radio', { name: /^Bank card Visa/ }));
    await giveConsents(user, methods);
    expect(go).toBeDisabled();
    await user.type(amount, '99');
    expect(methods).toHaveTextContent(/Enter an amount of at least BRL\s100\.00\./);
    expect(go).toBeDisabled();
    await user.type(within(methods).getByLabelText('Top-up amount'), '0');
    expect(go).toBeEnabled();
  });

  it('creates a spending order with the promo code, spends it, reloads the basket, shows success and refreshes the user later', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    setSession('tok', userFixture({ id: 'u1', balance: 120, balance_minor: 12_000 }));
    addToBasket(steam);
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderCheckout();
    await payFromBalance(user);

    const modal = await screen.findByTestId('payment-success-modal');
    expect(within(modal).getByRole('heading', { name: 'Payment successful' })).toBeVisible();
    expect(within(modal).getByRole('link', { name: 'Go to profile' })).toHaveAttribute('href', '/profile');
    expect(within(modal).getByRole('link', { name: 'Show my codes' })).toHaveAttribute(
      'href',
      `/payment-confirm/${ORDER_ID}`,
    );

    const [create] = server.callsTo('POST /api/orders/create');
    expect(create?.search).toBe('?type=spending');
    expect(create?.body).toEqual({ type: 'spending' });
    expect(server.callsTo('POST /api/payment/spending-balance-handle').map((call) => call.search)).toEqual([
      `?orderId=${ORDER_ID}`,
    ]);
    // The basket is the server's again: the bought line is gone.
    await waitFor(() => expect(getBasket()).toEqual([]));

    const purchases = (window.dataLayer ?? []).filter((event) => event.event === 'purchase');
    expect(purchases).toEqual([
      {
        event: 'purchase',
        ecommerce: expect.objectContaining({ transaction_id: ORDER_ID, value: 50, currency: 'BRL', shipping: 0 }),
      },
    ]);

    expect(server.callsTo('GET /api/user')).toEqual([]);
    await act(() => vi.advanceTimersByTimeAsync(USER_REFRESH_AFTER_SPEND_MS));
    await waitFor(() => expect(server.callsTo('GET /api/user')).toHaveLength(1));
  });

  it('opens the insufficient-funds modal when the server finds the balance short', async () => {
    spendReply = { status: 422, body: { message: 'Short', errors: { balance: ['validation.insufficientFunds'] } } };
    setSession('tok', userFixture({ id: 'u1', balance: 120, balance_minor: 12_000 }));
    addToBasket(steam);
    const user = userEvent.setup();
    renderCheckout();
    await payFromBalance(user);
    expect(await screen.findByTestId('insufficient-modal')).toBeVisible();
  });

  it('shows the payment error modal on a failure: Try again reopens the choice on Index, closing goes home', async () => {
    spendReply = { status: 500, body: { message: 'Internal error' } };
    setSession('tok', userFixture({ id: 'u1', balance: 120, balance_minor: 12_000 }));
    addToBasket(steam);
    const user = userEvent.setup();
    renderCheckout();
    await payFromBalance(user);

    let modal = await screen.findByTestId('payment-error-modal');
    expect(within(modal).getByRole('heading', { name: 'Something went wrong!' })).toBeVisible();
    expect(modal).toHaveTextContent('Please try making the payment again.');
    await user.click(within(modal).getByRole('button', { name: 'Try again' }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
    const methods = await screen.findByTestId('payment-methods-modal');
    expect(within(methods).getByRole('heading', { name: 'Pay' })).toBeVisible();
    expect(within(methods).getByRole('radio', { name: /Account balance/ })).toBeVisible();

    // Paid again from the modal, failing again; this time the modal is closed.
    await user.click(within(methods).getByRole('radio', { name: /Account balance/ }));
    await giveConsents(user, methods);
    await user.click(within(methods).getByRole('button', { name: /^Pay/ }));
    modal = await screen.findByTestId('payment-error-modal');
    await user.click(within(modal).getByRole('button', { name: 'Close' }));
    expect(screen.queryByTestId('payment-error-modal')).toBeNull();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
  });
});

describe('paying from the balance while the account owes the store', () => {
  it('says what is owed before asking the server, and its top-up starts at the debt plus what the order lacks', async () => {
    setSession('tok', userFixture({ id: 'u1', balance: 0, balance_minor: 0, owed_minor: 9_000 }));
    addToBasket(steam);
    const user = userEvent.setup();
    renderCheckout();
    // The balance method does not offer a balance it cannot spend.
    const method = screen.getByTestId('payment-balance');
    expect(method).toHaveTextContent(/Your account owes BRL\s90\.00: top up to use the balance/);
    expect(method).not.toHaveTextContent('Your balance');
    await user.click(screen.getByRole('radio', { name: /Account balance/ }));
    await giveConsents(user, document.body);
    expect(screen.getByTestId('payment-note')).toHaveTextContent(
      'The balance cannot pay while your account owes money',
    );
    await user.click(screen.getByRole('button', { name: /^Pay BRL\s50\.00$/ }));

    const modal = await screen.findByTestId('balance-owed-modal');
    expect(within(modal).getByRole('heading', { name: 'Your account owes money' })).toBeVisible();
    expect(modal).toHaveTextContent(/Your account owes BRL\s90\.00: a top-up was returned to you after it was spent\./);
    expect(server.callsTo('POST /api/orders/create')).toEqual([]);

    await user.click(within(modal).getByRole('button', { name: 'Top up balance' }));
    const methods = await screen.findByTestId('payment-methods-modal');
    // 90.00 owed and 50.00 for the order: a top-up pays the debt first.
    expect(within(methods).getByLabelText('Top-up amount')).toHaveValue('140');
  });

  it('opens the debt’s modal on the server’s balanceOwed refusal, with the amount the user read again names', async () => {
    // The stored user is from before the top-up was given back: it shows a balance and no debt.
    spendReply = { status: 422, body: { message: 'Owed', errors: { balance: ['validation.balanceOwed'] } } };
    freshUser = userFixture({ id: 'u1', balance: 0, balance_minor: 0, owed_minor: 8_000 });
    setSession('tok', userFixture({ id: 'u1', balance: 120, balance_minor: 12_000 }));
    addToBasket(steam);
    const user = userEvent.setup();
    renderCheckout();
    await payFromBalance(user);

    const modal = await screen.findByTestId('balance-owed-modal');
    expect(modal).toHaveTextContent(/Your account owes BRL\s80\.00/);
    expect(screen.queryByTestId('insufficient-modal')).toBeNull();
    expect(server.callsTo('GET /api/user')).toHaveLength(1);
    await user.click(within(modal).getByRole('button', { name: 'Top up balance' }));
    const methods = await screen.findByTestId('payment-methods-modal');
    // 80.00 owed and the whole 50.00 of the order, now that the balance is empty.
    expect(within(methods).getByLabelText('Top-up amount')).toHaveValue('130');
  });

  it('still says the account owes when the amount cannot be read, and starts at the smallest top-up', async () => {
    spendReply = { status: 422, body: { message: 'Owed', errors: { balance: ['validation.balanceOwed'] } } };
    freshUser = userFixture({ id: 'u1', balance: 120, balance_minor: 12_000 });
    setSession('tok', userFixture({ id: 'u1', balance: 120, balance_minor: 12_000 }));
    addToBasket(steam);
    const user = userEvent.setup();
    renderCheckout();
    await payFromBalance(user);

    const modal = await screen.findByTestId('balance-owed-modal');
    expect(modal).toHaveTextContent(/^Your account owes money.*Your account owes money: a top-up was returned/);
    await user.click(within(modal).getByRole('button', { name: 'Top up balance' }));
    expect(within(await screen.findByTestId('payment-methods-modal')).getByLabelText('Top-up amount')).toHaveValue(
      '100',
    );
  });
});

describe('the purchase event', () => {
  it('is pushed once per order, even when asked again (a reload of the confirmation)', () => {
    window.dataLayer = [];
    const order = { id: ORDER_ID, value: 50, currency: 'BRL' };
    const items = [{ id: 1, name: 'Steam 50', category: 'steam', price: 50, quantity: 1 }];
    expect(reportPurchaseOnce(order, items)).toBe(true);
    expect(reportPurchaseOnce(order, items)).toBe(false);
    expect(window.dataLayer.filter((event) => event.event === 'purchase')).toHaveLength(1);
    expect(JSON.parse(localStorage.getItem(REPORTED_ORDERS_STORAGE_KEY) ?? '[]')).toEqual([ORDER_ID]);
  });
});
