import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setSession } from '../../../lib/session-store.ts';
import { mockApi, userFixture } from '../../../test/fixtures.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { closeAccountUi, getAccountUi } from '../../auth/account-ui-store.ts';
import { ReviewComposer } from './review-composer.tsx';

afterEach(() => {
  act(() => closeAccountUi());
});

const review = {
  id: 'r1',
  rating: 4,
  text: 'Code worked at once.',
  author: 'Ana2026',
  created_at: '2026-11-20T10:00:00Z',
};

describe('review form', () => {
  it('asks a guest to log in, which opens the auth modal and keeps the page', async () => {
    const user = userEvent.setup();
    renderWithApp(<ReviewComposer productId={7} />);
    const prompt = screen.getByTestId('review-login-prompt');
    await user.click(within(prompt).getByRole('button', { name: 'Log in' }));
    expect(getAccountUi().auth).toEqual({ tab: 'login', stay: true });
  });

  it('validates rating and text after the first submit, then posts the review', async () => {
    setSession('tok', userFixture());
    const api = mockApi({ 'POST /api/products/feedbacks': { status: 201, body: review } });
    vi.stubGlobal('fetch', vi.fn(api.fetchMock));
    const user = userEvent.setup();
    renderWithApp(<ReviewComposer productId={7} />);
    const form = await screen.findByRole('form', { name: 'Leave a review' });
    const text = within(form).getByLabelText('Your review');
    await user.type(text, 'ok');
    expect(within(form).queryAllByRole('alert')).toEqual([]);

    await user.click(within(form).getByRole('button', { name: 'Publish review' }));
    expect(await within(form).findByText('Choose a rating from 1 to 5 stars.')).toBeVisible();
    expect(within(form).getByText('Write at least 3 characters.')).toBeVisible();

    const stars = within(form).getAllByRole('radio');
    expect(stars).toHaveLength(5);
    await user.click(within(form).getByRole('radio', { name: '4 stars' }));
    await user.type(text, ' fine, the code worked.');
    expect(within(form).queryAllByRole('alert')).toEqual([]);
    await user.click(within(form).getByRole('button', { name: 'Publish review' }));

    expect(await screen.findByTestId('review-posted')).toHaveTextContent('Thank you! Your review is published.');
    expect(api.calls[0]?.body).toEqual({ productId: 7, rating: 4, text: 'ok fine, the code worked.' });
    expect(api.calls[0]?.headers.Authorization).toBe('Bearer tok');
  });

  it('says so when the product was already reviewed', async () => {
    setSession('tok', userFixture());
    const api = mockApi({
      'POST /api/products/feedbacks': {
        status: 422,
        body: { message: 'Exists', errors: { productId: ['validation.reviewExists'] } },
      },
    });
    vi.stubGlobal('fetch', vi.fn(api.fetchMock));
    const user = userEvent.setup();
    renderWithApp(<ReviewComposer productId={7} />);
    const form = await screen.findByRole('form', { name: 'Leave a review' });
    await user.click(within(form).getByRole('radio', { name: '5 stars' }));
    await user.type(within(form).getByLabelText('Your review'), 'Great card, fast code.');
    await user.click(within(form).getByRole('button', { name: 'Publish review' }));
    expect(await screen.findByTestId('review-exists')).toHaveTextContent('You have already reviewed this product.');
  });
});
