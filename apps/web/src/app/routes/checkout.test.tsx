import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { closeAccountUi, getAccountUi } from '../../features/auth/account-ui-store.ts';
import { readQueue } from '../../features/basket/basket-queue.ts';
import { addToBasket } from '../../features/basket/basket-store.ts';
import PaymentDialogs from '../../features/payments/components/payment-dialogs.tsx';
import { closePaymentDialog } from '../../features/payments/payment-ui-store.ts';
import { CHECKOUT_WITH_BALANCE } from '../../features/payments/topup-return.ts';
import { setSession } from '../../lib/session-store.ts';
import { fakeBasketServer } from '../../test/basket-server.ts';
import { productFixture, userFixture } from '../../test/fixtures.ts';
import { renderWithApp } from '../../test/render.tsx';
import { Component as CheckoutPage, loader } from './checkout.tsx';

const steam = productFixture({ id: 1, name: 'Steam 50', price: 50, price_minor: 5_000 });
const psn = productFixture({ id: 2, name: 'PSN 20', price: 20, price_minor: 2_000 });

let server: ReturnType<typeof fakeBasketServer>;

beforeEach(() => {
  server = fakeBasketServer([steam, psn]);
  vi.stubGlobal('fetch', vi.fn(server.fetchMock));
});

afterEach(() => {
  act(() => {
    closeAccountUi();
    closePaymentDialog();
  });
});

describe('checkout page', () => {
  it("sends the customer's queued changes and shows the server basket, before the page renders", async () => {
    setSession('tok', userFixture({ id: 'u1', balance: 12.5 }));
    server.lines.set(2, 1);
    addToBasket(steam);
    addToBasket(steam);
    await loader();
    expect(server.callsTo('PATCH /api/basket')).toHaveLength(1);
    expect(readQueue().pending).toEqual([]);

    renderWithApp(<CheckoutPage />, { route: '/checkout' });
    const lines = screen.getAllByTestId('checkout-line');
    expect(lines.map((line) => line.textContent)).toEqual([
      expect.stringContaining('PSN 20'),
      expect.stringContaining('Steam 50'),
    ]);
    expect(within(lines[1] as HTMLElement).getByText('BRL 100.00')).toBeVisible();
    // The region each code activates in (the fixtures' products are for the United States).
    expect(within(lines[1] as HTMLElement).getByTestId('line-region')).toHaveTextContent(
      'Region: United States. Activates only on accounts of this region.',
    );
    expect(screen.getByTestId('basket-total')).toHaveTextContent('BRL 120.00');
    expect(screen.getByRole('form', { name: 'Promo code' })).toBeVisible();
  });

  it('offers every payment method, each with its note, the widget first', async () => {
    setSession('tok', userFixture({ id: 'u1', balance: 12.5 }));
    addToBasket(steam);
    const user = userEvent.setup();
    renderWithApp(<CheckoutPage />, { route: '/checkout' });

    const methods = screen.getAllByRole('radio');
    expect(methods.map((radio) => radio.closest('label')?.querySelector('span span')?.textContent)).toEqual([
      'Bank card',
      'Bank card, details here',
      'Bank card on the payment page',
      'Pix',
      'SBP',
      'UPI',
      'Account balance',
    ]);
    expect(screen.getByTestId('payment-balance')).toHaveTextContent('Your balance: BRL 12.50');
    const pay = screen.getByRole('button', { name: /^Pay BRL\s50\.00$/ });
    expect(pay).toBeDisabled();
    expect(screen.getByTestId('payment-note')).toHaveTextContent('Choose how you want to pay.');

    await user.click(screen.getByRole('radio', { name: /^Pix/ }));
    // Paying by any method waits for both consents.
    expect(screen.getByTestId('payment-note')).toHaveTextContent('Tick both boxes below to pay.');
    expect(pay).toBeDisabled();
    await user.click(screen.getByRole('checkbox', { name: /privacy policy/ }));
    expect(pay).toBeDisabled();
    await user.click(screen.getByRole('checkbox', { name: /cannot be refunded/ }));
    expect(screen.getByTestId('payment-note')).toHaveTextContent('Scan the QR code or copy the code');
    expect(pay).toBeEnabled();
    expect(pay).toHaveAccessibleDescription(/Scan the QR code/);
    expect(screen.queryByLabelText('Top-up amount')).toBeNull();

    await user.click(screen.getByRole('radio', { name: /Account balance/ }));
    expect(pay).toBeEnabled();
  });

  it('opens with the balance chosen when back from a top-up for this order', async () => {
    setSession('tok', userFixture({ id: 'u1', balance: 60 }));
    addToBasket(steam);
    renderWithApp(<CheckoutPage />, { route: '/checkout', state: CHECKOUT_WITH_BALANCE });
    expect(screen.getByRole('radio', { name: /Account balance/ })).toBeChecked();
    expect(screen.getAllByTestId('checkout-line')).toHaveLength(1);
  });

  it('says a payment cancelled at the provider charged nothing, once', async () => {
    setSession('tok', userFixture({ id: 'u1' }));
    addToBasket(steam);
    renderWithApp(
      <>
        <CheckoutPage />
        <PaymentDialogs />
      </>,
      { route: '/checkout?paymentCancelled=1' },
    );
    const cancelled = await screen.findByTestId('payment-cancelled-modal');
    expect(cancelled).toHaveTextContent('You cancelled the payment. Nothing was charged.');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/checkout$/));
  });

  it('asks a guest to log in and stays on the page', async () => {
    addToBasket(steam);
    const user = userEvent.setup();
    renderWithApp(<CheckoutPage />, { route: '/checkout' });
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(getAccountUi().auth).toEqual({ tab: 'login', stay: true });
    expect(screen.queryByTestId('checkout-line')).toBeNull();
  });

  it('has a way back to the shop when the basket is empty', () => {
    setSession('tok', userFixture({ id: 'u1' }));
    renderWithApp(<CheckoutPage />, { route: '/checkout' });
    expect(screen.getByRole('heading', { name: 'Your basket is empty' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Go shopping' })).toBeVisible();
  });
});
