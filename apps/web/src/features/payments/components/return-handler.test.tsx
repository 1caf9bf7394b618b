import { PAYMENT_POLL_MS, type PaymentStatusValue } from '@store/contract';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setSession } from '../../../lib/session-store.ts';
import { fakeBasketServer } from '../../../test/basket-server.ts';
import { productFixture, userFixture } from '../../../test/fixtures.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { addToBasket, getBasket } from '../../basket/basket-store.ts';
import { flushBasket } from '../../basket/basket-sync.ts';
import { CHECKOUT_PATH } from '../../checkout/paths.ts';
import { closePaymentDialog, openPaymentDialog } from '../payment-ui-store.ts';
import { rememberTopUpReturn, topUpReturn } from '../topup-return.ts';
import PaymentDialogs from './payment-dialogs.tsx';

const ORDER_ID = '7d1e2c3b-4a5f-4e6d-8c7b-9a0f1e2d3c4b';
const steam = productFixture({ id: 1, name: 'Steam 50', price: 50, price_minor: 5_000 });

let server: ReturnType<typeof fakeBasketServer>;
/** The statuses POST /payment/status answers, one per call; the last one repeats. */
let statuses: PaymentStatusValue[];
let statusCalls: unknown[];
/** The reason an `error` status names, if any. */
let failReason: string | undefined;
/** Whether the order polled is a top-up. */
let topUpOrder = false;

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

beforeEach(async () => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  server = fakeBasketServer([steam]);
  statuses = ['init'];
  statusCalls = [];
  failReason = undefined;
  topUpOrder = false;
  sessionStorage.clear();
  setSession('tok', userFixture({ id: 'u1', balance: 0, balance_minor: 0 }));
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://localhost');
      if (url.pathname === '/api/payment/status') {
        statusCalls.push(JSON.parse(String(init.body)));
        const status = (statuses.length > 1 ? statuses.shift() : statuses[0]) ?? 'init';
        // The paid line leaves the server's basket, as delivery does: the reloaded basket is empty.
        if (status === 'success') server.lines.clear();
        return json(200, {
          status,
          order_id: ORDER_ID,
          order_status: status === 'init' ? 'pending' : status === 'error' ? 'failed' : 'fulfilled',
          type: topUpOrder ? 'balance' : 'purchase',
          refunded_minor: 0,
          ...(status === 'error' && failReason ? { reason: failReason } : {}),
        });
      }
      if (url.pathname === '/api/user') return json(200, { user: userFixture({ id: 'u1' }) });
      return server.fetchMock(input, init);
    }),
  );
  // The basket being paid for, already on the server (nothing waits to be sent).
  addToBasket(steam);
  expect(await flushBasket()).toBe(true);
});

afterEach(() => {
  act(() => closePaymentDialog());
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const renderIndex = (search: string) => renderWithApp(<PaymentDialogs />, { route: `/${search}` });

const basketCalls = () => server.calls.filter((call) => call.path === '/api/basket').length;

const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

describe('the return from a payment page on Index', () => {
  it('keeps the processing modal while the status is init, polling every PAYMENT_POLL_MS, then shows success and reloads the basket', async () => {
    statuses = ['init', 'init', 'success'];
    renderIndex(`?paymentConfirmOrder=${ORDER_ID}`);

    const processing = await screen.findByTestId('payment-processing-modal');
    expect(within(processing).getByRole('heading', { name: 'Processing your payment' })).toBeVisible();
    // The parameter is dropped at once, so a reload does not poll again.
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
    await waitFor(() => expect(statusCalls).toEqual([{ orderId: ORDER_ID }]));

    // Nothing more before a poll interval has passed.
    await advance(PAYMENT_POLL_MS - 100);
    expect(statusCalls).toHaveLength(1);
    expect(screen.getByTestId('payment-processing-modal')).toBeVisible();

    await advance(100);
    await waitFor(() => expect(statusCalls).toHaveLength(2));
    expect(screen.getByTestId('payment-processing-modal')).toBeVisible();
    expect(screen.queryByTestId('payment-success-modal')).toBeNull();
    expect(getBasket()).toHaveLength(1);
    const basketCallsBefore = basketCalls();

    await advance(PAYMENT_POLL_MS);
    const success = await screen.findByTestId('payment-success-modal');
    expect(within(success).getByRole('heading', { name: 'Payment successful' })).toBeVisible();
    expect(within(success).getByRole('link', { name: 'Show my codes' })).toHaveAttribute(
      'href',
      `/payment-confirm/${ORDER_ID}`,
    );
    expect(screen.queryByTestId('payment-processing-modal')).toBeNull();
    expect(statusCalls).toHaveLength(3);
    await waitFor(() => expect(basketCalls()).toBeGreaterThan(basketCallsBefore));
    await waitFor(() => expect(getBasket()).toEqual([]));

    // A finished payment is not asked about again.
    await advance(PAYMENT_POLL_MS * 3);
    expect(statusCalls).toHaveLength(3);
  });

  it('opens the error modal when the status becomes error, saying why and that nothing was charged', async () => {
    statuses = ['init', 'error'];
    failReason = '3ds_failed';
    renderIndex(`?paymentConfirmOrder=${ORDER_ID}`);
    expect(await screen.findByTestId('payment-processing-modal')).toBeVisible();
    await waitFor(() => expect(statusCalls).toHaveLength(1));

    await advance(PAYMENT_POLL_MS);
    const error = await screen.findByTestId('payment-error-modal');
    expect(within(error).getByRole('heading', { name: 'The payment did not go through' })).toBeVisible();
    expect(error).toHaveTextContent('The 3-D Secure check with your bank failed. Nothing was charged.');
    expect(error).not.toHaveTextContent('Something went wrong');
    expect(within(error).getByRole('button', { name: 'Try again' })).toBeVisible();
    expect(screen.queryByTestId('payment-processing-modal')).toBeNull();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
    expect(getBasket()).toHaveLength(1);

    await advance(PAYMENT_POLL_MS * 3);
    expect(statusCalls).toHaveLength(2);
  });

  it('ends a top-up (paymentConfirmBalance) in the balance top-up success modal', async () => {
    statuses = ['init', 'success'];
    renderIndex(`?paymentConfirmBalance=${ORDER_ID}`);
    expect(await screen.findByTestId('payment-processing-modal')).toBeVisible();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));

    await advance(PAYMENT_POLL_MS);
    const success = await screen.findByTestId('topup-success-modal');
    expect(within(success).getByRole('heading', { name: 'Balance topped up' })).toBeVisible();
    expect(screen.queryByTestId('payment-success-modal')).toBeNull();
    expect(statusCalls).toEqual([{ orderId: ORDER_ID }, { orderId: ORDER_ID }]);
  });

  it.each([
    ['success', 'payment-success-modal', 'Payment successful'],
    ['error', 'payment-error-modal', 'Something went wrong!'],
  ])('opens the %s modal for showModal and drops the parameter', async (value, testId, title) => {
    renderIndex(`?showModal=${value}`);
    const modal = await screen.findByTestId(testId);
    expect(within(modal).getByRole('heading', { name: title })).toBeVisible();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
    expect(statusCalls).toEqual([]);
  });

  it('drops an unknown showModal value without opening anything', async () => {
    renderIndex('?showModal=nonsense');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('a failed order’s reason', () => {
  it.each([
    ['card_declined', 'Card declined by the bank. Nothing was charged.'],
    ['expired', 'The time to pay ran out. Nothing was charged.'],
    [undefined, 'The payment did not go through. Nothing was charged.'],
    ['a_reason_of_tomorrow', 'The payment did not go through. Nothing was charged.'],
  ])('%s says: %s', async (reason, text) => {
    statuses = ['error'];
    failReason = reason;
    renderIndex(`?paymentConfirmOrder=${ORDER_ID}`);
    const error = await screen.findByTestId('payment-error-modal');
    expect(error).toHaveTextContent(text);
  });
});

describe('a top-up’s success', () => {
  it('returns to the checkout with the balance chosen when it was started for an order', async () => {
    rememberTopUpReturn(CHECKOUT_PATH);
    statuses = ['success'];
    topUpOrder = true;
    renderIndex(`?paymentConfirmOrder=${ORDER_ID}`);
    const success = await screen.findByTestId('topup-success-modal');
    expect(success).toHaveTextContent('Your order is waiting: pay for it from the balance now.');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/checkout$/));
    expect(screen.getByTestId('location-state')).toHaveTextContent('{"method":"balance"}');
    // Once: a later top-up from elsewhere does not come back here.
    expect(topUpReturn()).toBeNull();
    fireEvent.click(within(success).getByRole('button', { name: 'Pay for the order' }));
    await waitFor(() => expect(screen.queryByTestId('topup-success-modal')).toBeNull());
  });

  it('is noted for the checkout by the insufficient-funds dialog’s Top up, and kept by a top-up without a place', async () => {
    renderIndex('');
    act(() => openPaymentDialog({ kind: 'insufficient', shortMinor: 1_000 }));
    fireEvent.click(await screen.findByRole('button', { name: 'Top up balance' }));
    await screen.findByTestId('payment-methods-modal');
    expect(topUpReturn()).toBe(CHECKOUT_PATH);
    // Try again after a failed top-up reopens the choice without a place: the checkout still waits.
    act(() => openPaymentDialog({ kind: 'methods', mode: 'balance' }));
    expect(topUpReturn()).toBe(CHECKOUT_PATH);
    act(() => openPaymentDialog({ kind: 'methods', mode: 'balance', returnTo: '/profile' }));
    await waitFor(() => expect(topUpReturn()).toBe('/profile'));
  });

  it('stays on the profile when it was started there', async () => {
    rememberTopUpReturn('/profile');
    statuses = ['success'];
    topUpOrder = true;
    renderIndex(`?paymentConfirmOrder=${ORDER_ID}`);
    const success = await screen.findByTestId('topup-success-modal');
    expect(within(success).getByRole('link', { name: 'Go to profile' })).toBeVisible();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/profile$/));
  });

  it('ends on Index without a noted return', async () => {
    statuses = ['success'];
    topUpOrder = true;
    renderIndex(`?paymentConfirmOrder=${ORDER_ID}`);
    await screen.findByTestId('topup-success-modal');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
  });
});

describe('the processing modal', () => {
  it('has no close button and ignores Escape and a click outside', async () => {
    renderIndex(`?paymentConfirmOrder=${ORDER_ID}`);
    const processing = await screen.findByTestId('payment-processing-modal');
    expect(within(processing).queryByRole('button')).toBeNull();

    fireEvent.keyDown(processing, { key: 'Escape' });
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });
    // Radix reads an outside click from pointerdown on the document, then focus leaving.
    fireEvent.pointerDown(document.body);
    fireEvent.mouseDown(document.body);
    fireEvent.click(document.body);
    await advance(50);

    expect(screen.getByTestId('payment-processing-modal')).toBeVisible();
    expect(screen.getByRole('dialog')).toBe(processing);
  });
});
