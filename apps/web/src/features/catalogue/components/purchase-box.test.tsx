import { type ProductDetail, STORE_DISPLAY_RATE } from '@store/contract';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { mockApi, productFixture } from '../../../test/fixtures.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { PurchaseBox } from './purchase-box.tsx';

const detail = (overrides: Partial<ProductDetail> = {}): ProductDetail => ({
  ...productFixture(),
  description: 'Adds funds.',
  activation_instructions: '1. Redeem',
  stock: 12,
  category_name: 'Steam',
  rating: { average: 4.5, count: 2 },
  display: STORE_DISPLAY_RATE,
  ...overrides,
});

function setup(product: ProductDetail) {
  const onBuy = vi.fn();
  renderWithApp(
    <PurchaseBox product={product} onBuy={onBuy}>
      {(buy) => (
        <button type="button" onClick={buy}>
          Buy
        </button>
      )}
    </PurchaseBox>,
  );
  return { onBuy };
}

describe('the product page purchase box', () => {
  it('says where the card activates, how many are left and how to pay', () => {
    setup(detail({ stock: 1234 }));
    expect(screen.getByTestId('activates-on')).toHaveTextContent('Activates only on accounts from United States');
    expect(screen.getByTestId('stock-count').textContent).toBe('1\u00a0234 codes in stock');
    expect(screen.getByTestId('payment-methods')).toHaveTextContent(/Bank card.*UPI.*Account balance/);
  });

  it('buys the chosen quantity, at most a basket line and never more than the stock', async () => {
    const { onBuy } = setup(detail({ stock: 12 }));
    const more = screen.getByRole('button', { name: 'One more' });
    for (let click = 0; click < 15; click += 1) await userEvent.click(more);
    expect(screen.getByLabelText('Quantity')).toHaveValue('10');
    expect(more).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'One less' }));
    await userEvent.click(screen.getByRole('button', { name: 'Buy' }));
    expect(onBuy).toHaveBeenCalledWith(9);
  });

  it('stops at the stock when fewer than a line are left', async () => {
    const { onBuy } = setup(detail({ stock: 2 }));
    const quantity = screen.getByLabelText('Quantity');
    await userEvent.clear(quantity);
    await userEvent.type(quantity, '7');
    expect(quantity).toHaveValue('2');
    await userEvent.click(screen.getByRole('button', { name: 'Buy' }));
    expect(onBuy).toHaveBeenCalledWith(2);
  });

  it('offers no quantity for a sold-out product', () => {
    setup(detail({ stock: 0, in_stock: false }));
    expect(screen.queryByLabelText('Quantity')).toBeNull();
    expect(screen.getByTestId('activates-on')).toBeVisible();
  });
});

describe('tell me when it is back', () => {
  it('on a sold-out product keeps an address, in the interface language, and asks a guest to confirm it', async () => {
    const api = mockApi({
      'POST /api/products/12/stock-notifications': { body: { ok: true, message: 'Kept.', confirm_by_email: true } },
    });
    vi.stubGlobal('fetch', vi.fn(api.fetchMock));
    setup(detail({ stock: 0, in_stock: false }));
    const email = screen.getByLabelText('Tell me when it is back: your email');
    await userEvent.type(email, 'not-an-address');
    await userEvent.click(screen.getByRole('button', { name: 'Notify me' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Enter a valid email address.');
    expect(api.calls).toHaveLength(0);

    await userEvent.clear(email);
    await userEvent.type(email, 'ana@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Notify me' }));
    expect(await screen.findByTestId('notify-done')).toHaveTextContent(
      'Check your email: we sent a link to ana@example.com. Follow it to confirm',
    );
    expect(api.calls[0]?.body).toEqual({ email: 'ana@example.com', lang: 'en' });
    vi.unstubAllGlobals();
  });

  it('tells a customer whose own verified address needs no link that it is kept', async () => {
    const api = mockApi({
      'POST /api/products/12/stock-notifications': { body: { ok: true, message: 'Kept.', confirm_by_email: false } },
    });
    vi.stubGlobal('fetch', vi.fn(api.fetchMock));
    setup(detail({ stock: 0, in_stock: false }));
    await userEvent.type(screen.getByLabelText('Tell me when it is back: your email'), 'owner@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Notify me' }));
    expect(await screen.findByTestId('notify-done')).toHaveTextContent(
      'We will write to owner@example.com once, when it is back in stock.',
    );
    vi.unstubAllGlobals();
  });

  it('is not offered while the product is in stock', () => {
    setup(detail());
    expect(screen.queryByTestId('notify-form')).toBeNull();
  });
});
