import { PAYMENT_POLL_MS, type PaymentStatusValue } from '@store/contract';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setSession } from '../../../lib/session-store.ts';
import { fakeBasketServer } from '../../../test/basket-server.ts';
import { giveConsents, productFixture, userFixture } from '../../../test/fixtures.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { addToBasket } from '../../basket/basket-store.ts';
import { flushBasket } from '../../basket/basket-sync.ts';
import { closePaymentDialog, openPaymentDialog } from '../payment-ui-store.ts';
import PaymentDialogs from './payment-dialogs.tsx';

const ORDER_ID = '7d1e2c3b-4a5f-4e6d-8c7b-9a0f1e2d3c4b';
const steam = productFixture({ id: 1, name: 'Steam 50', price: 50, price_minor: 5_000 });
const SCRIPT = 'http://localhost/sandbox/widget.js';

let server: ReturnType<typeof fakeBasketServer>;
let statuses: PaymentStatusValue[];
let statusCalls: number;
let bodies: Record<string, Record<string, unknown>[]>;
/** An answer other than ANSWERS' for a path (a refusal), by path. */
let refusals: Record<string, { status: number; body: unknown }>;

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const ANSWERS: Record<string, unknown> = {
  '/api/orders/create': {
    order_id: ORDER_ID,
    total_price: 50,
    total_minor: 5_000,
    currency: 'BRL',
    type: 'purchase',
    status: 'created',
    expires_at: '2030-01-01T00:00:00.000Z',
  },
  '/api/orders/create-qr': {
    order_id: ORDER_ID,
    payment_id: 'p1',
    QrImage: 'data:image/png;base64,iVBORw0KGgo=',
    PayLink: 'http://localhost/sandbox/qr/pay_1',
    payload: '00020126580014br.gov.bcb.pix',
    expires_at: '2030-01-01T00:00:00.000Z',
  },
  '/api/payment-sbp': {
    order_id: ORDER_ID,
    payment_id: 'p1',
    charge: {
      amount_minor: 87_719,
      currency: 'RUB',
      store_amount_minor: 5_000,
      store_currency: 'BRL',
      rate: '0.057',
      rate_set_at: '2026-11-23T10:00:00.000Z',
      locked_at: '2026-11-27T10:00:00.000Z',
    },
    sbp: {
      image: { content: 'iVBORw0KGgo=', media_type: 'image/png' },
      payload: 'http://localhost/sandbox/qr/pay_2',
      pay_link: 'http://localhost/sandbox/qr/pay_2',
      expires_at: '2030-01-01T00:00:00.000Z',
    },
  },
  '/api/orders/create-upi': {
    order_id: ORDER_ID,
    payment_id: 'p1',
    redirect_url: 'http://localhost/sandbox/upi/pay_1',
    intent: 'upi://pay?pa=store@bank',
  },
  '/api/payment': {
    status: 'widget',
    order_id: ORDER_ID,
    payment_id: 'p1',
    total_price: 50,
    total_minor: 5_000,
    currency: 'BRL',
    widget: {
      script_url: SCRIPT,
      request: {
        order_id: ORDER_ID,
        amount: '50.00',
        currency: 'BRL',
        description: 'Digital goods',
        receipt: {
          email: 'a@example.com',
          items: [
            {
              name: 'Steam 50',
              price: '50.00',
              quantity: 1,
              sum: '50.00',
              payment_method: 'full_prepayment',
              payment_object: 'service',
              vat: 'none',
            },
          ],
          payments: [{ type: 'electronic', sum: '50.00' }],
        },
      },
    },
  },
};

beforeEach(async () => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  server = fakeBasketServer([steam]);
  statuses = ['init'];
  statusCalls = 0;
  bodies = {};
  refusals = {};
  setSession('tok', userFixture({ id: 'u1', email: 'asha@example.com' }));
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://localhost');
      const body = typeof init.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : {};
      if (url.pathname === '/api/payment/status') {
        statusCalls += 1;
        const status = (statuses.length > 1 ? statuses.shift() : statuses[0]) ?? 'init';
        return json(200, {
          status,
          order_id: ORDER_ID,
          order_status: status === 'init' ? 'pending' : status === 'error' ? 'failed' : 'fulfilled',
          type: 'purchase',
          refunded_minor: 0,
        });
      }
      const refusal = refusals[url.pathname];
      if (refusal) {
        bodies[url.pathname] = [...(bodies[url.pathname] ?? []), body];
        return json(refusal.status, refusal.body);
      }
      if (url.pathname in ANSWERS) {
        bodies[url.pathname] = [...(bodies[url.pathname] ?? []), body];
        return json(url.pathname === '/api/orders/create' ? 201 : 200, ANSWERS[url.pathname]);
      }
      if (url.pathname === '/api/user') return json(200, { user: userFixture({ id: 'u1' }) });
      return server.fetchMock(input, init);
    }),
  );
  addToBasket(steam);
  expect(await flushBasket()).toBe(true);
});

afterEach(() => {
  act(() => closePaymentDialog());
  delete window.SandboxPay;
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function setup() {
  const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
  renderWithApp(<PaymentDialogs />);
  return user;
}

describe('instant bank transfer', () => {
  it('asks an 11-digit CPF, shows the QR, the pay link and the code to copy, and waits for the bank', async () => {
    const user = setup();
    act(() => openPaymentDialog({ kind: 'qr', mode: 'purchase' }));
    const modal = await screen.findByTestId('qr-modal');
    // What the transfer will charge shows before the order is made: the basket's price.
    expect(within(modal).getByTestId('amount-due')).toHaveTextContent(/^To pay: BRL\s\d/);
    await user.type(within(modal).getByLabelText('CPF'), '123.456.789');
    expect(within(modal).getByLabelText('CPF')).toHaveValue('123456789');
    await user.click(within(modal).getByRole('button', { name: 'Show the QR code' }));
    expect(within(modal).getByText('The CPF must be exactly 11 digits.')).toBeVisible();
    expect(bodies['/api/orders/create']).toBeUndefined();

    await user.type(within(modal).getByLabelText('CPF'), '-0999');
    expect(within(modal).getByLabelText('CPF')).toHaveValue('12345678909');
    await user.click(within(modal).getByRole('button', { name: 'Show the QR code' }));
    expect(await within(modal).findByRole('img', { name: 'QR code of the payment' })).toHaveAttribute(
      'src',
      'data:image/png;base64,iVBORw0KGgo=',
    );
    expect(bodies['/api/orders/create-qr']).toEqual([
      { amount: '50.00', currency: 'BRL', orderId: ORDER_ID, type: 'purchase', personalId: '12345678909' },
    ]);
    // The order's total beside the code, and until when the code is good.
    expect(within(modal).getByTestId('amount-due')).toHaveTextContent(/^To pay: BRL\s50\.00$/);
    expect(within(modal).getByTestId('qr-valid-until')).toHaveTextContent(/^The code is valid until \d{2}:\d{2}/);
    expect(within(modal).getByRole('link', { name: 'Open in the bank app' })).toHaveAttribute(
      'href',
      'http://localhost/sandbox/qr/pay_1',
    );
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await user.click(within(modal).getByRole('button', { name: 'Copy code' }));
    expect(writeText).toHaveBeenCalledWith('00020126580014br.gov.bcb.pix');
    expect(within(modal).getByText('Code copied')).toBeVisible();

    // The wait: asked every second while `init`, then the success modal.
    expect(within(modal).getByTestId('qr-waiting')).toBeVisible();
    await waitFor(() => expect(statusCalls).toBe(1));
    statuses = ['success'];
    await act(async () => {
      await vi.advanceTimersByTimeAsync(PAYMENT_POLL_MS);
    });
    expect(await screen.findByTestId('payment-success-modal')).toBeVisible();
    expect(statusCalls).toBe(2);
  });

  it('by SBP asks no CPF, and shows the exact charge in roubles the store locked', async () => {
    const user = setup();
    act(() => openPaymentDialog({ kind: 'qr', mode: 'purchase', scheme: 'sbp' }));
    const modal = await screen.findByTestId('qr-modal');
    expect(within(modal).getByRole('heading', { name: 'Pay by SBP' })).toBeVisible();
    expect(within(modal).queryByLabelText('CPF')).toBeNull();
    await user.click(within(modal).getByRole('button', { name: 'Show the QR code' }));
    await within(modal).findByTestId('qr-step');
    expect(bodies['/api/payment-sbp']).toEqual([{ type: 'purchase', orderId: ORDER_ID }]);
    expect(bodies['/api/orders/create-qr']).toBeUndefined();
    expect(within(modal).getByTestId('charge-line')).toHaveTextContent(
      /^You pay ₽877\.19: BRL\s50\.00 at the store’s rate of Nov 23\.$/,
    );
    expect(within(modal).getByRole('link', { name: 'Open in the bank app' })).toHaveAttribute(
      'href',
      'http://localhost/sandbox/qr/pay_2',
    );
  });

  it('by SBP says so when the store has no current rate, and opens no error modal', async () => {
    refusals['/api/payment-sbp'] = {
      status: 422,
      body: { message: 'No rate.', errors: { currency: ['validation.chargeRateUnavailable'] } },
    };
    const user = setup();
    act(() => openPaymentDialog({ kind: 'qr', mode: 'purchase', scheme: 'sbp' }));
    const modal = await screen.findByTestId('qr-modal');
    await user.click(within(modal).getByRole('button', { name: 'Show the QR code' }));
    expect(await within(modal).findByTestId('charge-refused')).toHaveTextContent(/not available now/);
    expect(screen.queryByTestId('payment-error-modal')).toBeNull();
  });

  it('opens the error modal when the bank refuses', async () => {
    statuses = ['init', 'error'];
    const user = setup();
    act(() => openPaymentDialog({ kind: 'qr', mode: 'purchase' }));
    const modal = await screen.findByTestId('qr-modal');
    await user.type(within(modal).getByLabelText('CPF'), '12345678909');
    await user.click(within(modal).getByRole('button', { name: 'Show the QR code' }));
    await within(modal).findByTestId('qr-step');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(PAYMENT_POLL_MS);
    });
    expect(await screen.findByTestId('payment-error-modal')).toBeVisible();
  });
});

describe('UPI', () => {
  it('shows the first message and focuses its field, then sends the payer and the store’s own return addresses', async () => {
    const user = setup();
    act(() => openPaymentDialog({ kind: 'upi', mode: 'purchase' }));
    const modal = await screen.findByTestId('upi-modal');
    expect(within(modal).getByLabelText('Email')).toHaveValue('asha@example.com');
    await user.click(within(modal).getByRole('button', { name: 'Continue to UPI' }));
    expect(within(modal).getByTestId('upi-first-error')).toHaveTextContent(
      'Some details are missing or wrong: see the fields marked below.',
    );
    // Each message once, beneath its field; the first field with one has the focus.
    expect(within(modal).getAllByText('Enter your first name.')).toHaveLength(1);
    expect(within(modal).getByLabelText('First name')).toHaveFocus();
    expect(within(modal).getByLabelText('First name')).toHaveAccessibleDescription('Enter your first name.');
    expect(within(modal).getByText('Enter your ZIP code.')).toBeVisible();
    await user.clear(within(modal).getByLabelText('Email'));
    await user.type(within(modal).getByLabelText('Email'), 'asha@');
    expect(within(modal).getByText('Incorrect email format.')).toBeVisible();
    expect(bodies['/api/orders/create']).toBeUndefined();

    await user.type(within(modal).getByLabelText('Email'), 'example.com');
    await user.type(within(modal).getByLabelText('First name'), 'Asha');
    await user.type(within(modal).getByLabelText('Last name'), 'Rao');
    // A UPI ID is a handle at a payment app, not a bare name.
    await user.type(within(modal).getByLabelText('UPI ID'), 'asha');
    expect(within(modal).getByText('Enter a UPI ID such as name@bank.')).toBeVisible();
    await user.type(within(modal).getByLabelText('UPI ID'), '@okbank');
    await user.type(within(modal).getByLabelText('Phone'), '+91 98765 43210');
    await user.type(within(modal).getByLabelText('Address'), '1 MG Road');
    await user.type(within(modal).getByLabelText('ZIP code'), '560001');
    expect(within(modal).queryByTestId('upi-first-error')).toBeNull();
    await user.click(within(modal).getByRole('button', { name: 'Continue to UPI' }));
    await waitFor(() => expect(bodies['/api/orders/create-upi']).toHaveLength(1));
    expect(bodies['/api/orders/create-upi']?.[0]).toEqual({
      currency: 'INR',
      description: 'Payment for digital goods',
      FirstName: 'Asha Rao',
      AccountNumber: 'asha@okbank',
      email: 'asha@example.com',
      phone: '+91 98765 43210',
      zip: '560001',
      address: '1 MG Road',
      orderId: ORDER_ID,
      type: 'purchase',
      success_url: `http://localhost:3000/?paymentConfirmOrder=${ORDER_ID}`,
      decline_url: `http://localhost:3000/payment-error/${ORDER_ID}`,
      cancel_url: 'http://localhost:3000/checkout?paymentCancelled=1',
    });
  });
});

describe('the card widget', () => {
  type Callbacks = Record<'onSuccess' | 'onError' | 'onClose', (event: { code: string; reason?: string }) => void>;

  /**
   * Starts the widget path with a fake widget; the script the page adds is "loaded" the first time
   * (the page loads it once, later payments reuse it).
   */
  async function openWidget() {
    const user = setup();
    const pay = vi.fn<(request: unknown, callbacks: Callbacks) => void>();
    window.SandboxPay = { pay };
    act(() => openPaymentDialog({ kind: 'methods', mode: 'purchase' }));
    const modal = await screen.findByTestId('payment-methods-modal');
    await user.click(within(modal).getByRole('radio', { name: /^Bank card Visa/ }));
    await giveConsents(user, modal);
    await user.click(within(modal).getByRole('button', { name: /^Pay BRL/ }));
    const script = await waitFor(() => {
      const found = document.head.querySelector<HTMLScriptElement>(`script[src="${SCRIPT}"]`);
      if (!found) throw new Error('no widget script yet');
      return found;
    });
    if (!script.dataset.loaded) {
      script.dataset.loaded = 'true';
      act(() => {
        script.dispatchEvent(new Event('load'));
      });
    }
    await waitFor(() => expect(pay).toHaveBeenCalledTimes(1));
    // Our dialogs are closed, so the widget's own dialog has the focus.
    expect(screen.queryByTestId('payment-processing-modal')).toBeNull();
    expect(screen.queryByTestId('payment-methods-modal')).toBeNull();
    const [request, callbacks] = pay.mock.calls[0] ?? [];
    return { request, callbacks: callbacks as Callbacks };
  }

  it('makes the order, opens the widget with its request, and on success awaits the order', async () => {
    statuses = ['success'];
    const { request, callbacks } = await openWidget();
    expect(bodies['/api/orders/create']).toEqual([{ type: 'purchase' }]);
    expect(bodies['/api/payment']?.[0]).toMatchObject({ type: 'purchase', orderId: ORDER_ID });
    expect(bodies['/api/payment']?.[0]?.card_number).toBeUndefined();
    expect(request).toMatchObject({ order_id: ORDER_ID, amount: '50.00' });
    act(() => callbacks.onSuccess({ code: 'PAY_WIDGET:TRANSACTION_SUCCESS' }));
    expect(await screen.findByTestId('payment-success-modal')).toBeVisible();
  });

  it('runs the error path on a close after a failure, and only then, saying why the last attempt failed', async () => {
    const { callbacks } = await openWidget();
    act(() => callbacks.onError({ code: 'PAY_WIDGET:TRANSACTION_FAIL', reason: 'card_declined' }));
    act(() => callbacks.onError({ code: 'PAY_WIDGET:TRANSACTION_FAIL', reason: 'insufficient_funds' }));
    expect(screen.queryByTestId('payment-error-modal')).toBeNull();
    act(() => callbacks.onClose({ code: 'PAY_WIDGET:CLOSE_AFTER_FAIL' }));
    const error = await screen.findByTestId('payment-error-modal');
    expect(within(error).getByRole('heading', { name: 'The payment did not go through' })).toBeVisible();
    expect(error).toHaveTextContent('The card does not have enough money. Nothing was charged.');
  });

  it('says that nothing was charged on a close before paying, as no error', async () => {
    const { callbacks } = await openWidget();
    act(() => callbacks.onClose({ code: 'PAY_WIDGET:CLOSE_BEFORE_PAY' }));
    expect(screen.queryByTestId('payment-error-modal')).toBeNull();
    const cancelled = await screen.findByTestId('payment-cancelled-modal');
    expect(within(cancelled).getByRole('heading', { name: 'Payment cancelled' })).toBeVisible();
    expect(cancelled).toHaveTextContent('You closed the payment window before paying. Nothing was charged.');
    fireEvent.click(within(cancelled).getByRole('button', { name: 'Choose how to pay' }));
    expect(await screen.findByTestId('payment-methods-modal')).toBeVisible();
  });
});

describe('a payment call refused because the order is paid or being paid (409 payment.underWay)', () => {
  const UNDER_WAY = { status: 409, body: { message: 'Under way', code: 'payment.underWay' } };

  /** The under-way dialog while the status is `init`; then, once the order is paid, the success with its codes. */
  async function expectFollowedToSuccess() {
    const underWay = await screen.findByTestId('payment-under-way-modal');
    expect(within(underWay).getByRole('heading', { name: 'Your payment is already being processed' })).toBeVisible();
    expect(screen.queryByTestId('payment-error-modal')).toBeNull();
    await waitFor(() => expect(statusCalls).toBe(1));
    expect(screen.getByTestId('payment-under-way-modal')).toBeVisible();
    statuses = ['success'];
    await act(async () => {
      await vi.advanceTimersByTimeAsync(PAYMENT_POLL_MS);
    });
    const success = await screen.findByTestId('payment-success-modal');
    expect(within(success).getByRole('link', { name: 'Show my codes' })).toHaveAttribute(
      'href',
      `/payment-confirm/${ORDER_ID}`,
    );
  }

  async function payBy(method: RegExp) {
    const user = setup();
    act(() => openPaymentDialog({ kind: 'methods', mode: 'purchase' }));
    const modal = await screen.findByTestId('payment-methods-modal');
    await user.click(within(modal).getByRole('radio', { name: method }));
    await giveConsents(user, modal);
    await user.click(within(modal).getByRole('button', { name: /^Pay BRL/ }));
  }

  it('from the widget’s request: no widget, the order followed to its codes', async () => {
    refusals['/api/payment'] = UNDER_WAY;
    const pay = vi.fn();
    window.SandboxPay = { pay };
    await payBy(/^Bank card Visa/);
    await expectFollowedToSuccess();
    expect(pay).not.toHaveBeenCalled();
    expect(bodies['/api/payment']).toHaveLength(1);
  });

  it('from the hosted page’s form: the browser stays, the order followed to its codes', async () => {
    refusals['/api/payment/initialize'] = UNDER_WAY;
    const submit = vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(() => {});
    await payBy(/^Bank card on the payment page/);
    await expectFollowedToSuccess();
    expect(submit).not.toHaveBeenCalled();
  });

  it('from the QR code: no QR, the order followed to its codes', async () => {
    refusals['/api/orders/create-qr'] = UNDER_WAY;
    const user = setup();
    act(() => openPaymentDialog({ kind: 'qr', mode: 'purchase' }));
    const modal = await screen.findByTestId('qr-modal');
    await user.type(within(modal).getByLabelText('CPF'), '12345678909');
    await user.click(within(modal).getByRole('button', { name: 'Show the QR code' }));
    await expectFollowedToSuccess();
    expect(screen.queryByTestId('qr-modal')).toBeNull();
  });

  it('closes on Escape, and then stops following the order', async () => {
    refusals['/api/orders/create-qr'] = UNDER_WAY;
    const user = setup();
    act(() => openPaymentDialog({ kind: 'qr', mode: 'purchase' }));
    const modal = await screen.findByTestId('qr-modal');
    await user.type(within(modal).getByLabelText('CPF'), '12345678909');
    await user.click(within(modal).getByRole('button', { name: 'Show the QR code' }));
    await screen.findByTestId('payment-under-way-modal');
    await waitFor(() => expect(statusCalls).toBe(1));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(PAYMENT_POLL_MS * 3);
    });
    expect(statusCalls).toBe(1);
  });

  it.each([
    ['the QR code', '/api/orders/create-qr'],
    ['the widget', '/api/payment'],
  ])('shows today’s error for a 409 without that code from %s', async (_name, path) => {
    refusals[path] = { status: 409, body: { message: 'Conflict' } };
    if (path === '/api/payment') {
      await payBy(/^Bank card Visa/);
    } else {
      const user = setup();
      act(() => openPaymentDialog({ kind: 'qr', mode: 'purchase' }));
      const modal = await screen.findByTestId('qr-modal');
      await user.type(within(modal).getByLabelText('CPF'), '12345678909');
      await user.click(within(modal).getByRole('button', { name: 'Show the QR code' }));
    }
    const error = await screen.findByTestId('payment-error-modal');
    expect(within(error).getByRole('heading', { name: 'Something went wrong!' })).toBeVisible();
    expect(screen.queryByTestId('payment-under-way-modal')).toBeNull();
    expect(statusCalls).toBe(0);
  });
});
