import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CartButton } from '../../../components/layout/cart-button.tsx';
import { setSession } from '../../../lib/session-store.ts';
import { fakeBasketServer } from '../../../test/basket-server.ts';
import { productFixture, userFixture } from '../../../test/fixtures.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { closeAccountUi, getAccountUi } from '../../auth/account-ui-store.ts';
import { readQueue } from '../basket-queue.ts';
import { addToBasket, getBasket } from '../basket-store.ts';
import { useBasketUi } from '../basket-ui-context.ts';
import { BasketUiProvider } from './basket-ui-provider.tsx';

const steam = productFixture({ id: 1, name: 'Steam 50', price: 50, price_minor: 5_000 });
const psn = productFixture({ id: 2, name: 'PSN 20', price: 20, price_minor: 2_000 });

let wide = true;
let server: ReturnType<typeof fakeBasketServer>;

beforeEach(() => {
  wide = true;
  vi.stubGlobal('matchMedia', () => ({ matches: wide }));
  server = fakeBasketServer([steam, psn]);
  vi.stubGlobal('fetch', vi.fn(server.fetchMock));
});

afterEach(() => {
  act(() => closeAccountUi());
  delete window.dataLayer;
});

/** A product page's Buy: adds and shows the notification. */
function BuyButton() {
  const { notifyAdded } = useBasketUi();
  return (
    <button
      type="button"
      onClick={() => {
        addToBasket(steam);
        notifyAdded(steam);
      }}
    >
      Buy
    </button>
  );
}

function renderShop() {
  return renderWithApp(
    <BasketUiProvider>
      <CartButton />
      <BuyButton />
    </BasketUiProvider>,
  );
}

async function openPanel(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByTestId('cart-button'));
  return screen.findByTestId('basket-panel');
}

const lineOf = (name: string) => screen.getByText(name).closest('li') as HTMLElement;

describe('basket panel', () => {
  it('takes the focus when it opens and gives it back to the basket button when it closes', async () => {
    addToBasket(steam);
    const user = userEvent.setup();
    renderShop();
    const panel = await openPanel(user);
    await waitFor(() => expect(panel).toContainElement(document.activeElement as HTMLElement));
    // The page behind does not scroll while the panel is open.
    expect(document.body).toHaveAttribute('data-scroll-locked');

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('basket-panel')).toBeNull());
    expect(screen.getByTestId('cart-button')).toHaveFocus();
  });

  it('opens from the notification, which closes so it cannot cover checkout; focus then goes to the basket button', async () => {
    const user = userEvent.setup();
    renderShop();
    await user.click(screen.getByRole('button', { name: 'Buy' }));
    const notification = await screen.findByTestId('added-notification');
    await user.click(within(notification).getByRole('button', { name: 'Open basket' }));
    const panel = await screen.findByTestId('basket-panel');
    expect(screen.queryByTestId('added-notification')).toBeNull();
    expect(within(panel).getByTestId('checkout-button')).toBeVisible();

    await user.click(within(panel).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.getByTestId('cart-button')).toHaveFocus());
  });

  it('changes quantities, removes lines and deletes all, with count and total updated at once', async () => {
    addToBasket(steam);
    addToBasket(psn);
    const user = userEvent.setup();
    renderShop();
    const panel = await openPanel(user);

    await user.click(within(lineOf('Steam 50')).getByRole('button', { name: 'One more Steam 50' }));
    expect(within(panel).getByTestId('basket-count')).toHaveTextContent('3');
    expect(within(panel).getByTestId('basket-total')).toHaveTextContent('BRL 120.00');
    expect(screen.getByTestId('cart-count')).toHaveTextContent('3');

    await user.click(within(lineOf('PSN 20')).getByRole('button', { name: 'Remove PSN 20 from the basket' }));
    expect(within(panel).getByTestId('basket-total')).toHaveTextContent('BRL 100.00');
    await user.click(within(lineOf('Steam 50')).getByRole('button', { name: 'One less Steam 50' }));
    await user.click(within(lineOf('Steam 50')).getByRole('button', { name: 'One less Steam 50' }));
    expect(getBasket()).toEqual([]);
    expect(within(panel).getByText('Your basket is empty')).toBeVisible();

    addToBasket(steam);
    addToBasket(psn);
    await user.click(await within(panel).findByRole('button', { name: 'Delete all' }));
    expect(getBasket()).toEqual([]);
  });

  it('shows each name whole and reminds of the region its code activates in, but for a code of anywhere', async () => {
    const brazil = productFixture({
      id: 3,
      name: 'PlayStation Store Gift Card 250 BRL (Brazil)',
      country: { code: 'BR', name: 'Brazil' },
    });
    const anywhere = productFixture({ id: 4, name: 'Valorant 475 VP', country: { code: 'GLOBAL', name: null } });
    addToBasket(brazil);
    addToBasket(anywhere);
    const user = userEvent.setup();
    renderShop();
    await openPanel(user);
    const line = lineOf('PlayStation Store Gift Card 250 BRL (Brazil)');
    expect(within(line).getByRole('link', { name: 'PlayStation Store Gift Card 250 BRL (Brazil)' })).toBeVisible();
    expect(within(line).getByTestId('line-region')).toHaveTextContent(
      'Region: Brazil. Activates only on accounts of this region.',
    );
    expect(within(lineOf('Valorant 475 VP')).queryByTestId('line-region')).toBeNull();
  });

  it('shows category links and a way back when empty', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) =>
        String(input).endsWith('/api/categories')
          ? new Response(
              JSON.stringify([
                { id: 'steam', name: 'steam', formatted_name: 'Steam', svg_path: null, products_count: 3 },
              ]),
            )
          : server.fetchMock(input, init),
      ),
    );
    const user = userEvent.setup();
    renderShop();
    const panel = await openPanel(user);
    expect(await within(panel).findByRole('link', { name: 'Steam' })).toHaveAttribute('href', '/category/steam');
    await user.click(within(panel).getByRole('button', { name: 'Go back' }));
    await waitFor(() => expect(screen.queryByTestId('basket-panel')).toBeNull());
  });

  it('closes on an outside click only at 769 px and wider', async () => {
    addToBasket(steam);
    wide = false;
    const user = userEvent.setup();
    renderShop();
    await openPanel(user);
    const outside = document.body;
    fireEvent.pointerDown(outside);
    expect(screen.getByTestId('basket-panel')).toBeVisible();
    wide = true;
    fireEvent.pointerDown(outside);
    await waitFor(() => expect(screen.queryByTestId('basket-panel')).toBeNull());
  });
});

describe('checkout from the basket', () => {
  it('gives a guest the auth modal, then goes to /checkout once they have logged in', async () => {
    addToBasket(steam);
    const user = userEvent.setup();
    renderShop();
    const panel = await openPanel(user);
    await user.click(within(panel).getByTestId('checkout-button'));
    await waitFor(() => expect(screen.queryByTestId('basket-panel')).toBeNull());
    expect(getAccountUi().auth).toEqual({ tab: 'login', stay: true });

    act(() => {
      setSession('tok', userFixture({ id: 'u1' }));
      closeAccountUi();
    });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/checkout'));
  });

  it('leaves a guest who gives up where they were', async () => {
    addToBasket(steam);
    const user = userEvent.setup();
    renderShop();
    await user.click(within(await openPanel(user)).getByTestId('checkout-button'));
    act(() => closeAccountUi());
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
  });

  it("sends a customer's queued changes first, reports begin_checkout, then goes to /checkout", async () => {
    setSession('tok', userFixture({ id: 'u1' }));
    addToBasket(steam);
    addToBasket(steam);
    addToBasket(psn);
    const user = userEvent.setup();
    renderShop();
    const panel = await openPanel(user);
    await user.click(within(panel).getByTestId('checkout-button'));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/checkout'));

    expect(server.callsTo('PATCH /api/basket')[0]?.body).toMatchObject({
      products: [
        { id: 1, type: 'increase', count: 2 },
        { id: 2, type: 'increase', count: 1 },
      ],
    });
    expect(readQueue().pending).toEqual([]);
    expect(window.dataLayer).toContainEqual({
      event: 'begin_checkout',
      ecommerce: {
        currency: 'BRL',
        value: 120,
        items: [
          { item_id: '1', item_name: 'Steam 50', item_category: 'steam', price: 50, quantity: 2 },
          { item_id: '2', item_name: 'PSN 20', item_category: 'steam', price: 20, quantity: 1 },
        ],
      },
    });
  });

  it('stays in the panel and says so when the basket cannot be sent', async () => {
    setSession('tok', userFixture({ id: 'u1' }));
    addToBasket(steam);
    // The sync that starts with the session tries too, and its retries: every one fails.
    const down = { status: 503, body: { message: 'Down' } };
    server.fail('PATCH /api/basket', down, down, down, down);
    const user = userEvent.setup();
    renderShop();
    const panel = await openPanel(user);
    await user.click(within(panel).getByTestId('checkout-button'));
    expect(await within(panel).findByRole('alert')).toHaveTextContent('Your basket could not be saved.');
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
    expect(window.dataLayer).toBeUndefined();
  });
});
