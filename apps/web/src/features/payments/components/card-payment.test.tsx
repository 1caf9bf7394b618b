import { PAYMENT_POLL_MS, type PaymentStatusValue } from '@store/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setSession } from '../../../lib/session-store.ts';
import { fakeBasketServer } from '../../../test/basket-server.ts';
import { productFixture, userFixture } from '../../../test/fixtures.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { addToBasket } from '../../basket/basket-store.ts';
import { flushBasket } from '../../basket/basket-sync.ts';
import { closePaymentDialog, openPaymentDialog } from '../payment-ui-store.ts';
import { REPORTED_ORDERS_STORAGE_KEY } from '../purchase-analytics.ts';
import PaymentDialogs from './payment-dialogs.tsx';

const ORDER_ID = '7d1e2c3b-4a5f-4e6d-8c7b-9a0f1e2d3c4b';
const TOPUP_ID = '1d1e2c3b-4a5f-4e6d-8c7b-9a0f1e2d3c4b';
const steam = productFixture({ id: 1, name: 'Steam 50', price: 50, price_minor: 5_000 });
const card = { brand: 'visa', last4: '4242' };

let server: ReturnType<typeof fakeBasketServer>;
/** What POST /payment answers next; each call takes one, the last one repeats. */
let answers: { status: number; body: Record<string, unknown> }[];
let statuses: PaymentStatusValue[];
let paymentCalls: Record<string, unknown>[];
let orderCalls: unknown[];
let statusCalls: number;
let submitted: { action: string; method: string; fields: Record<string, string> }[];

const delivery = {
  ok: true,
  order: {
    id: ORDER_ID,
    type: 'purchase',
    status: 'fulfilled',
    total: 50,
    total_minor: 5_000,
    refunded: 0,
    refunded_minor: 0,
    currency: 'BRL',
    created_at: '2026-01-01T00:00:00.000Z',
    paid_at: '2026-01-01T00:00:01.000Z',
  },
  products: [
    {
      line_id: 'l1',
      order_id: ORDER_ID,
      product_id: 1,
      name: 'Steam 50',
      category: 'steam',
      cover_path: null,
      cover_text: null,
      country_icon: null,
      quantity: 1,
      delivered: 1,
      unit_price: 50,
      unit_price_minor: 5_000,
      currency: 'BRL',
      activation_instructions: 'Redeem it.',
      codes: [{ id: 'c1', code: 'AAAA-BBBB' }],
      purchased_at: '2026-01-01T00:00:01.000Z',
    },
  ],
};

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

beforeEach(async () => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  server = fakeBasketServer([steam]);
  answers = [];
  statuses = ['init', 'success'];
  paymentCalls = [];
  orderCalls = [];
  statusCalls = 0;
  submitted = [];
  // The orders this browser reported are forgotten: each test's order is new to it.
  localStorage.removeItem(REPORTED_ORDERS_STORAGE_KEY);
  window.dataLayer = [];
  setSession('tok', userFixture({ id: 'u1', balance: 0, balance_minor: 0 }));
  // A real form submission would leave the page: record what would have been sent instead.
  vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(function (this: HTMLFormElement) {
    const fields = Object.fromEntries([...new FormData(this)].map(([name, value]) => [name, String(value)]));
    submitted.push({ action: this.action, method: this.method, fields });
  });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://localhost');
      const body = typeof init.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : {};
      switch (url.pathname) {
        case '/api/card-type':
          return json(200, { type: 'Visa' });
        case '/api/orders/create':
          orderCalls.push(body);
          return json(201, {
            order_id: ORDER_ID,
            total_price: 50,
            total_minor: 5_000,
            currency: 'BRL',
            type: 'purchase',
            status: 'created',
            expires_at: new Date(Date.now() + 1_800_000).toISOString(),
          });
        case '/api/payment': {
          paymentCalls.push(body);
          const answer = (answers.length > 1 ? answers.shift() : answers[0]) ?? { status: 500, body: {} };
          return json(answer.status, answer.body);
        }
        case '/api/payment/status': {
          statusCalls += 1;
          const status = (statuses.length > 1 ? statuses.shift() : statuses[0]) ?? 'init';
          return json(200, {
            status,
            order_id: String(body.orderId),
            order_status: status === 'init' ? 'pending' : status === 'error' ? 'failed' : 'fulfilled',
            type: body.orderId === TOPUP_ID ? 'balance' : 'purchase',
            refunded_minor: 0,
          });
        }
        case '/api/user':
          return json(200, { user: userFixture({ id: 'u1' }) });
        case `/api/payment-confirm/${ORDER_ID}`:
          return json(200, delivery);
        default:
          return server.fetchMock(input, init);
      }
    }),
  );
  addToBasket(steam);
  expect(await flushBasket()).toBe(true);
});

afterEach(() => {
  act(() => closePaymentDialog());
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

async function fillCard(user: ReturnType<typeof userEvent.setup>, number = '4242424242424242') {
  const modal = await screen.findByTestId('card-modal');
  await user.type(within(modal).getByLabelText('Card number'), number);
  await user.type(within(modal).getByLabelText('Expiry date'), '1230');
  await user.type(within(modal).getByLabelText('CVV'), '123');
  await user.click(within(modal).getByRole('checkbox', { name: /privacy policy/ }));
  await user.click(within(modal).getByRole('checkbox', { name: /cannot be refunded/ }));
  return modal;
}

function setup(mode: 'purchase' | 'balance' = 'purchase', amount?: number) {
  const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
  renderWithApp(<PaymentDialogs />);
  act(() => openPaymentDialog({ kind: 'card', mode, amount }));
  return user;
}

describe('paying with the store’s own card form', () => {
  it('makes the order, charges the card, then polls the status every second behind the processing modal until success', async () => {
    answers = [{ status: 200, body: { status: 'success', order_id: ORDER_ID, payment_id: 'p1', card } }];
    const user = setup();
    const modal = await fillCard(user);
    await user.click(within(modal).getByRole('button', { name: /^Pay BRL/ }));

    const processing = await screen.findByTestId('payment-processing-modal');
    expect(within(processing).queryByRole('button', { name: 'Close' })).toBeNull();
    expect(orderCalls).toEqual([{ type: 'purchase' }]);
    expect(paymentCalls).toHaveLength(1);
    expect(paymentCalls[0]).toMatchObject({
      type: 'purchase',
      orderId: ORDER_ID,
      card_number: '4242424242424242',
      month: 12,
      year: 30,
      cvc: '123',
    });
    expect(paymentCalls[0]?.token).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    await waitFor(() => expect(statusCalls).toBe(1));
    // `init`: still waiting; a second later it is asked again.
    expect(screen.getByTestId('payment-processing-modal')).toBeVisible();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(PAYMENT_POLL_MS);
    });
    const success = await screen.findByTestId('payment-success-modal');
    expect(statusCalls).toBe(2);
    expect(within(success).getByRole('link', { name: 'Show my codes' })).toHaveAttribute(
      'href',
      `/payment-confirm/${ORDER_ID}`,
    );
    // The sale is reported once, with what was delivered and shipping 0; the same order again is not.
    const purchases = () => (window.dataLayer ?? []).filter((event) => event.event === 'purchase');
    await waitFor(() => expect(purchases()).toHaveLength(1));
    expect(purchases()[0]).toMatchObject({
      ecommerce: { transaction_id: ORDER_ID, value: 50, currency: 'BRL', shipping: 0, items: [{ item_id: '1' }] },
    });
    statuses = ['success'];
    act(() => openPaymentDialog({ kind: 'processing', orderId: ORDER_ID }));
    await screen.findByTestId('payment-success-modal');
    await waitFor(() => expect(statusCalls).toBe(3));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(100);
    });
    expect(purchases()).toHaveLength(1);
  });

  it('shows the error screen on a declined card, saying why, and Try again starts a clean form', async () => {
    answers = [
      { status: 200, body: { status: 'failed', order_id: ORDER_ID, payment_id: 'p1', reason: 'card_declined', card } },
    ];
    const user = setup();
    const modal = await fillCard(user, '4000000000000002');
    await user.click(within(modal).getByRole('button', { name: /^Pay BRL/ }));

    const failed = await within(modal).findByTestId('card-failed');
    expect(within(failed).getByRole('heading', { name: 'The payment did not go through' })).toBeVisible();
    expect(failed).toHaveTextContent('Card declined by the bank. Nothing was charged.');
    expect(screen.queryByTestId('payment-processing-modal')).toBeNull();
    await user.click(within(failed).getByRole('button', { name: 'Try again' }));

    const number = within(modal).getByLabelText('Card number');
    expect(number).toHaveValue('');
    expect(number).toHaveFocus();
    expect(within(modal).getByLabelText('Expiry date')).toHaveValue('');
    expect(within(modal).getByLabelText('CVV')).toHaveValue('');
    expect(within(modal).getByRole('checkbox', { name: /privacy policy/ })).not.toBeChecked();
    expect(within(modal).getByRole('button', { name: /^Pay BRL/ })).toBeDisabled();
  });

  it('starts with both consents ticked when they were given with the method, and keeps them on Try again', async () => {
    answers = [
      { status: 200, body: { status: 'failed', order_id: ORDER_ID, payment_id: 'p1', reason: 'card_declined', card } },
    ];
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderWithApp(<PaymentDialogs />);
    act(() => openPaymentDialog({ kind: 'card', mode: 'purchase', consented: true }));
    const modal = await screen.findByTestId('card-modal');
    const consents = () => [
      within(modal).getByRole('checkbox', { name: /privacy policy/ }),
      within(modal).getByRole('checkbox', { name: /cannot be refunded/ }),
    ];
    for (const box of consents()) expect(box).toBeChecked();
    await user.type(within(modal).getByLabelText('Card number'), '4000000000000002');
    await user.type(within(modal).getByLabelText('Expiry date'), '1230');
    await user.type(within(modal).getByLabelText('CVV'), '123');
    await user.click(within(modal).getByRole('button', { name: /^Pay BRL/ }));
    await user.click(
      within(await within(modal).findByTestId('card-failed')).getByRole('button', { name: 'Try again' }),
    );
    for (const box of consents()) expect(box).toBeChecked();
    // Unticked, the form cannot be sent.
    await user.click(consents()[1] as HTMLElement);
    await user.type(within(modal).getByLabelText('Card number'), '4242424242424242');
    await user.type(within(modal).getByLabelText('Expiry date'), '1230');
    await user.type(within(modal).getByLabelText('CVV'), '123');
    expect(within(modal).getByRole('button', { name: /^Pay BRL/ })).toBeDisabled();
  });

  it('posts PaReq, MD and TermUrl to the issuer for 3DS', async () => {
    answers = [
      {
        status: 200,
        body: {
          status: '3DS',
          order_id: ORDER_ID,
          payment_id: 'p1',
          card,
          redirectUrl: 'https://bank.example/acs',
          PaReq: 'pa-req',
          MD: 'md-1',
          TermUrl: 'https://bank.example/term',
        },
      },
    ];
    const user = setup();
    const modal = await fillCard(user, '4000000000003220');
    await user.click(within(modal).getByRole('button', { name: /^Pay BRL/ }));
    await waitFor(() => expect(submitted).toHaveLength(1));
    expect(submitted[0]).toEqual({
      action: 'https://bank.example/acs',
      method: 'post',
      fields: { PaReq: 'pa-req', MD: 'md-1', TermUrl: 'https://bank.example/term' },
    });
    // The page is leaving: the form stays busy and cannot be sent twice.
    expect(within(modal).getByRole('button', { name: 'Processing…' })).toHaveAttribute('aria-disabled', 'true');
  });

  it('follows 3DS_REDIRECT by its method, URL and parameters', async () => {
    answers = [
      {
        status: 200,
        body: {
          status: '3DS_REDIRECT',
          order_id: ORDER_ID,
          payment_id: 'p1',
          card,
          redirectMethod: 'GET',
          redirectUrl: 'https://bank.example/challenge?lang=en',
          redirectParams: { payment_id: 'pay_1', token: 'tk' },
        },
      },
    ];
    const user = setup();
    const modal = await fillCard(user, '4000002760003184');
    await user.click(within(modal).getByRole('button', { name: /^Pay BRL/ }));
    await waitFor(() => expect(submitted).toHaveLength(1));
    expect(submitted[0]).toEqual({
      action: 'https://bank.example/challenge',
      method: 'get',
      fields: { lang: 'en', payment_id: 'pay_1', token: 'tk' },
    });
  });

  it('tops up by the value, without a purchase order, and ends in the top-up success', async () => {
    answers = [{ status: 200, body: { status: 'success', order_id: TOPUP_ID, payment_id: 'p1', card } }];
    statuses = ['success'];
    const user = setup('balance', 250);
    const modal = await fillCard(user);
    expect(within(modal).getByLabelText('Top-up amount')).toHaveValue('250');
    await user.click(within(modal).getByRole('button', { name: 'Top up' }));
    await screen.findByTestId('topup-success-modal');
    expect(orderCalls).toEqual([]);
    expect(paymentCalls[0]).toMatchObject({ type: 'balance', value: 250, card_number: '4242424242424242' });
    expect(paymentCalls[0]?.orderId).toBeUndefined();
  });

  it('names the card number when the provider refuses it, and keeps the form', async () => {
    answers = [
      { status: 422, body: { message: 'Invalid', errors: { card_number: ['validation.invalidCardNumber'] } } },
    ];
    const user = setup();
    const modal = await fillCard(user);
    await user.click(within(modal).getByRole('button', { name: /^Pay BRL/ }));
    expect(await within(modal).findByRole('alert')).toHaveTextContent('Enter all 16 digits of the card number.');
    expect(within(modal).getByLabelText('Card number')).toHaveAttribute('aria-invalid', 'true');
    expect(within(modal).getByLabelText('Expiry date')).toHaveValue('12/30');
  });
});

describe('a card payment refused because the order is paid or being paid (409 payment.underWay)', () => {
  it('shows the calm under-way dialog, not an error, and follows the order to its codes', async () => {
    answers = [{ status: 409, body: { message: 'Under way', code: 'payment.underWay' } }];
    statuses = ['init', 'success'];
    const user = setup();
    const modal = await fillCard(user);
    await user.click(within(modal).getByRole('button', { name: /^Pay BRL/ }));

    const underWay = await screen.findByTestId('payment-under-way-modal');
    expect(within(underWay).getByRole('heading', { name: 'Your payment is already being processed' })).toBeVisible();
    // Announced as a dialog with its text; its one control (Close) holds the focus, so Escape or
    // Enter leave it from the keyboard.
    expect(screen.getByRole('dialog')).toHaveAccessibleDescription(
      'This order is paid, or its payment is being confirmed, so there is nothing more to pay. We will show the result here as soon as it is confirmed.',
    );
    await waitFor(() => expect(within(underWay).getByRole('button', { name: 'Close' })).toHaveFocus());
    // Nothing offers to pay again: no error, no card form, no Try again.
    expect(screen.queryByTestId('card-failed')).toBeNull();
    expect(screen.queryByTestId('card-modal')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(paymentCalls).toHaveLength(1);

    // The order's status, every second, as after a payment page; then what success shows today.
    await waitFor(() => expect(statusCalls).toBe(1));
    expect(screen.getByTestId('payment-under-way-modal')).toBeVisible();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(PAYMENT_POLL_MS);
    });
    const success = await screen.findByTestId('payment-success-modal');
    expect(within(success).getByRole('link', { name: 'Show my codes' })).toHaveAttribute(
      'href',
      `/payment-confirm/${ORDER_ID}`,
    );
    expect(screen.queryByTestId('payment-under-way-modal')).toBeNull();
  });

  it('ends in the usual failure when the payment it follows fails', async () => {
    answers = [{ status: 409, body: { message: 'Under way', code: 'payment.underWay' } }];
    statuses = ['init', 'error'];
    const user = setup();
    const modal = await fillCard(user);
    await user.click(within(modal).getByRole('button', { name: /^Pay BRL/ }));
    await screen.findByTestId('payment-under-way-modal');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(PAYMENT_POLL_MS);
    });
    expect(await screen.findByTestId('payment-error-modal')).toBeVisible();
  });

  it('shows today’s error screen for a 409 without that code', async () => {
    answers = [{ status: 409, body: { message: 'A card payment of this order is already under way.' } }];
    const user = setup();
    const modal = await fillCard(user);
    await user.click(within(modal).getByRole('button', { name: /^Pay BRL/ }));
    const failed = await within(modal).findByTestId('card-failed');
    // The call failed, not the card: nothing says the bank declined it.
    expect(failed).toHaveTextContent('Your card was not charged. Check the details and try again.');
    expect(screen.queryByTestId('payment-under-way-modal')).toBeNull();
    expect(statusCalls).toBe(0);
  });
});
