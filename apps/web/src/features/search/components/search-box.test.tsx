import { SEARCH_DEBOUNCE_MS, SEARCH_MAX, STORE_DISPLAY_RATE } from '@store/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderWithApp } from '../../../test/render.tsx';
import { SearchBox } from './search-box.tsx';

const hints = {
  hintsByName: [
    {
      name: 'Steam Gift Card 10 USD',
      thumbnail: '/static/covers/steam.svg',
      price: 59.9,
      currency: 'BRL',
      region: { code: 'US', name: 'United States' },
    },
    { name: 'Steam Gift Card 20 USD' },
  ],
  hintsByArt: [{ id: 12, name: 'Steam Gift Card 50 BRL', article: '12' }],
  display: STORE_DISPLAY_RATE,
};

let calls: string[];

beforeEach(() => {
  const mock = mockFetch({ '/api/search/hints/stea': hints, '/api/search/hints/12': hints });
  calls = mock.calls;
  vi.stubGlobal('fetch', vi.fn(mock.fetchMock));
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const input = () => screen.getByRole('combobox', { name: 'Search products' });
const location = () => screen.getByTestId('location').textContent;

describe('SearchBox', () => {
  it('takes over the text and the focus of the plain field shown while it loaded', async () => {
    const field = document.createElement('input');
    document.body.append(field);
    field.value = 'stea';
    field.focus();
    const handoff = { current: field };
    renderWithApp(<SearchBox handoff={handoff} />);
    field.remove();
    expect(input()).toHaveValue('stea');
    expect(input()).toHaveFocus();
    await waitFor(() => expect(calls).toEqual(['/api/search/hints/stea?lang=en']), { timeout: SEARCH_DEBOUNCE_MS * 4 });
  });

  it('starts empty outside /search when the plain field was left alone', () => {
    const field = document.createElement('input');
    renderWithApp(<SearchBox handoff={{ current: field }} />);
    expect(input()).toHaveValue('');
    expect(input()).not.toHaveFocus();
  });

  it(`keeps at most ${SEARCH_MAX} characters, typed or pasted`, () => {
    renderWithApp(<SearchBox />);
    expect(input()).toHaveAttribute('maxLength', String(SEARCH_MAX));
    fireEvent.change(input(), { target: { value: 'x'.repeat(SEARCH_MAX + 20) } });
    expect(input()).toHaveValue('x'.repeat(SEARCH_MAX));
  });

  it(`asks for hints once, ${SEARCH_DEBOUNCE_MS} ms after typing stops`, async () => {
    renderWithApp(<SearchBox />);
    await userEvent.type(input(), 'stea');
    expect(calls).toEqual([]);
    await waitFor(() => expect(calls).toEqual(['/api/search/hints/stea?lang=en']), { timeout: SEARCH_DEBOUNCE_MS * 4 });
    expect(await screen.findByRole('option', { name: /Steam Gift Card 10 USD/ })).toBeInTheDocument();
    expect(screen.getByText('By name')).toBeInTheDocument();
    expect(screen.getByText('By article')).toBeInTheDocument();
  });

  it('sends the X-Requested-With header', async () => {
    renderWithApp(<SearchBox />);
    await userEvent.type(input(), 'stea');
    await waitFor(() => expect(fetch).toHaveBeenCalled(), { timeout: SEARCH_DEBOUNCE_MS * 4 });
    const [, init] = vi.mocked(fetch).mock.calls[0] ?? [];
    expect(new Headers(init?.headers).get('X-Requested-With')).toBe('XMLHttpRequest');
  });

  it('opens the product page for a hint with an article', async () => {
    renderWithApp(<SearchBox />);
    await userEvent.type(input(), '12');
    await userEvent.click(await screen.findByRole('option', { name: /Steam Gift Card 50 BRL/ }));
    expect(location()).toBe('/product/12');
  });

  it('searches for the text of a hint by name', async () => {
    renderWithApp(<SearchBox />);
    await userEvent.type(input(), 'stea');
    await userEvent.click(await screen.findByRole('option', { name: /Steam Gift Card 20 USD/ }));
    expect(location()).toBe(`/search/${encodeURIComponent('Steam Gift Card 20 USD')}`);
  });

  it('chooses a hint with the arrow keys and Enter', async () => {
    renderWithApp(<SearchBox />);
    await userEvent.type(input(), 'stea');
    await screen.findByRole('option', { name: /Steam Gift Card 10 USD/ });
    await userEvent.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}{Enter}');
    expect(location()).toBe('/product/12');
  });

  it('shows the cover, price and region of each hint, and tells screen readers how many there are', async () => {
    renderWithApp(<SearchBox />);
    await userEvent.type(input(), 'stea');
    const option = await screen.findByRole('option', { name: /Steam Gift Card 10 USD/ });
    expect(option.querySelector('img')).toHaveAttribute('src', '/static/covers/steam.svg');
    expect(option).toHaveTextContent(/59\.90/);
    expect(option).toHaveTextContent('United States');
    expect(screen.getByText(/^3 suggestions\./)).toHaveAttribute('role', 'status');
    expect(input()).toHaveAttribute('aria-expanded', 'true');
  });

  it("shows a Russian shopper each hint's price in roubles at the store's rate, marked as approximate", async () => {
    const rub = { currency: 'RUB', rate: '0.057', set_at: '2026-11-23T10:00:00.000Z' };
    const mock = mockFetch({ '/api/search/hints/stea': { ...hints, display: rub } });
    vi.stubGlobal('fetch', vi.fn(mock.fetchMock));
    renderWithApp(<SearchBox />, { language: 'ru' });
    await userEvent.type(input(), 'stea');
    const option = await screen.findByRole('option', { name: /Steam Gift Card 10 USD/ });
    expect(mock.calls).toEqual(['/api/search/hints/stea?lang=ru']);
    // BRL 59.90 at 0.057 BRL per rouble is 1050.88 roubles, rounded up.
    expect(within(option).getByTestId('hint-price')).toHaveTextContent(/^≈\s1\s051\s₽$/);
  });

  it('marks the option the arrows reach as the active one', async () => {
    renderWithApp(<SearchBox />);
    await userEvent.type(input(), 'stea');
    await screen.findByRole('option', { name: /Steam Gift Card 10 USD/ });
    await userEvent.keyboard('{ArrowDown}{ArrowDown}');
    const second = screen.getByRole('option', { name: /Steam Gift Card 20 USD/ });
    expect(second).toHaveAttribute('aria-selected', 'true');
    expect(input()).toHaveAttribute('aria-activedescendant', second.id);
    await userEvent.keyboard('{ArrowUp}{ArrowUp}');
    expect(input()).not.toHaveAttribute('aria-activedescendant');
    await userEvent.keyboard('{ArrowUp}{Enter}');
    expect(location()).toBe('/product/12');
  });

  it('runs the typed search on Enter with the pointer resting on a hint', async () => {
    renderWithApp(<SearchBox />);
    await userEvent.type(input(), 'stea');
    const option = await screen.findByRole('option', { name: /Steam Gift Card 20 USD/ });
    await userEvent.hover(option);
    expect(option).toHaveAttribute('aria-selected', 'false');
    expect(input()).not.toHaveAttribute('aria-activedescendant');
    await userEvent.type(input(), '{Enter}');
    expect(location()).toBe('/search/stea');
  });

  it('runs the search on Enter', async () => {
    renderWithApp(<SearchBox />);
    await userEvent.type(input(), '  stem card {Enter}');
    expect(location()).toBe('/search/stem%20card');
  });

  it('goes home on an empty search', async () => {
    renderWithApp(<SearchBox />, { route: '/category/steam' });
    await userEvent.type(input(), '   {Enter}');
    expect(location()).toBe('/');
  });

  it('clears the text with the clear button', async () => {
    renderWithApp(<SearchBox />);
    await userEvent.type(input(), 'steam');
    await userEvent.click(screen.getByRole('button', { name: 'Clear search' }));
    expect(input()).toHaveValue('');
    expect(input()).toHaveFocus();
    expect(screen.queryByRole('button', { name: 'Clear search' })).not.toBeInTheDocument();
  });

  it('shows the query of the search page it is on', () => {
    renderWithApp(<SearchBox />, { route: '/search/gift%20card' });
    expect(input()).toHaveValue('gift card');
  });
});
