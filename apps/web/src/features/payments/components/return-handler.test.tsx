import { PAYMENT_POLL_MS, type PaymentStatusValue } from '@store/contract';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setSession } from '../../../lib/session-store.ts';
import { fakeBasketServer } from '../../../test/basket-server.ts';
import { productFixture, userFixture } from '../../../test/fixtures.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { addToBasket, getBasket } from '../../basket/basket-store.ts';
import { flushBasket } from '../../basket/basket-sync.ts';
import { closePaymentDialog } from '../payment-ui-store.ts';
import PaymentDialogs from './payment-dialogs.tsx';

const ORDER_ID = '7d1e2c3b-4a5f-4e6d-8c7b-9a0f1e2d3c4b';
const steam = productFixture({ id: 1, name: 'Steam 50', price: 50, price_minor: 5_000 });

let server: ReturnType<typeof fakeBasketServer>;
/** The statuses POST /payment/status answers, one per call; the last one repeats. */
let statuses: PaymentStatusValue[];
let statusCalls: unknown[];

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

beforeEach(async () => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  server = fakeBasketServer([steam]);
  statuses = ['init'];
  statusCalls = [];
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
          type: 'purchase',
          refunded_minor: 0,
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

  it('opens the error modal when the status becomes error', async () => {
    statuses = ['init', 'error'];
    renderIndex(`?paymentConfirmOrder=${ORDER_ID}`);
    expect(await screen.findByTestId('payment-processing-modal')).toBeVisible();
    await waitFor(() => expect(statusCalls).toHaveLength(1));

    await advance(PAYMENT_POLL_MS);
    const error = await screen.findByTestId('payment-error-modal');
    expect(within(error).getByRole('heading', { name: 'Something went wrong!' })).toBeVisible();
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
