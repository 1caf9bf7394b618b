import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { mockApi } from '../../../test/fixtures.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { Reviews } from './reviews.tsx';

const heard = {
  id: 'r2',
  rating: 2,
  text: 'Heard it is slow.',
  author: 'Bruno',
  created_at: '2026-11-21T10:00:00Z',
  verified_buyer: false,
  edited_at: '2026-11-22T10:00:00Z',
};
const bought = {
  id: 'r1',
  rating: 5,
  text: 'Bought it, works.',
  author: 'Ana',
  created_at: '2026-11-20T10:00:00Z',
  verified_buyer: true,
  edited_at: null,
};
const page = (feedbacks: unknown[]) => ({ total: 2, page: 1, pages: 1, offset: 0, limit: 10, average: 3.5, feedbacks });

describe('a product’s reviews', () => {
  it('badges verified buyers, says which were edited, and lists verified buyers first on request', async () => {
    const urls: string[] = [];
    const api = mockApi({ 'GET /api/products/feedbacks/7': { body: page([heard, bought]) } });
    vi.stubGlobal(
      'fetch',
      vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
        urls.push(String(input));
        // The sorted page answers in the order asked for.
        if (String(input).includes('sort=verified')) {
          return Promise.resolve(new Response(JSON.stringify(page([bought, heard]))));
        }
        return api.fetchMock(input, init);
      }),
    );
    const user = userEvent.setup();
    renderWithApp(<Reviews productId={7} />);

    const items = await screen.findAllByRole('listitem');
    expect(items.map((item) => within(item).queryByText('Verified buyer') !== null)).toEqual([false, true]);
    expect(within(items[0] as HTMLElement).getByText(/edited/)).toBeVisible();
    expect(within(items[1] as HTMLElement).queryByText(/edited/)).toBeNull();
    expect(urls[0]).toBe('/api/products/feedbacks/7?offset=0');

    await user.selectOptions(screen.getByLabelText('Order'), 'Verified buyers first');
    await vi.waitFor(() => expect(screen.getAllByRole('listitem')[0]).toHaveTextContent('Bought it, works.'));
    expect(urls.at(-1)).toBe('/api/products/feedbacks/7?offset=0&sort=verified');
  });
});
