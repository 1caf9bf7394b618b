import type { Review } from '@store/contract';
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

const review: Review = {
  id: 'r1',
  rating: 4,
  text: 'Code worked at once.',
  author: 'Ana2026',
  created_at: '2026-11-20T10:00:00Z',
  verified_buyer: false,
  edited_at: null,
};

const MY_REVIEW = 'GET /api/products/7/my-review';
const noReviewYet = { [MY_REVIEW]: { body: { review: null } } };
const posts = (api: ReturnType<typeof mockApi>) => api.calls.filter((call) => call.method !== 'GET');

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
    const api = mockApi({ ...noReviewYet, 'POST /api/products/feedbacks': { status: 201, body: review } });
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
    expect(posts(api)[0]?.body).toEqual({ productId: 7, rating: 4, text: 'ok fine, the code worked.' });
    expect(posts(api)[0]?.headers.Authorization).toBe('Bearer tok');
  });

  it('says so when the product was already reviewed', async () => {
    setSession('tok', userFixture());
    const api = mockApi({
      ...noReviewYet,
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

  it('shows the author their own review, saves a change with PATCH and deletes it after asking', async () => {
    setSession('tok', userFixture());
    let mine: Review | null = review;
    const changed = { ...review, rating: 2, text: 'Code worked, but late.', edited_at: '2026-11-21T10:00:00Z' };
    const api = mockApi({
      [MY_REVIEW]: () => ({ body: { review: mine } }),
      'PATCH /api/reviews/r1': () => {
        mine = changed;
        return { body: changed };
      },
      'DELETE /api/reviews/r1': () => {
        mine = null;
        return { body: { ok: true, message: 'Deleted.' } };
      },
    });
    vi.stubGlobal('fetch', vi.fn(api.fetchMock));
    const user = userEvent.setup();
    renderWithApp(<ReviewComposer productId={7} />);

    const own = await screen.findByTestId('own-review');
    expect(within(own).getByText('Code worked at once.')).toBeVisible();
    expect(within(own).getByRole('img', { name: '4 stars' })).toBeVisible();
    expect(screen.queryByRole('form', { name: 'Leave a review' })).toBeNull();

    await user.click(within(own).getByRole('button', { name: 'Edit' }));
    const form = await screen.findByRole('form', { name: 'Edit your review' });
    expect(within(form).getByRole('radio', { name: '4 stars' })).toBeChecked();
    const text = within(form).getByLabelText('Your review');
    expect(text).toHaveValue('Code worked at once.');
    await user.click(within(form).getByRole('radio', { name: '2 stars' }));
    await user.clear(text);
    await user.type(text, 'Code worked, but late.');
    await user.click(within(form).getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByTestId('review-saved')).toHaveTextContent('Your review is updated.');
    expect(within(screen.getByTestId('own-review')).getByText('Code worked, but late.')).toBeVisible();
    expect(posts(api)[0]).toMatchObject({ method: 'PATCH', body: { rating: 2, text: 'Code worked, but late.' } });

    await user.click(within(screen.getByTestId('own-review')).getByRole('button', { name: 'Delete' }));
    const question = screen.getByRole('group', { name: 'Delete your review? This cannot be undone.' });
    await user.click(within(question).getByRole('button', { name: 'Yes, delete' }));
    expect(await screen.findByTestId('review-deleted')).toHaveTextContent('Your review is deleted.');
    expect(await screen.findByRole('form', { name: 'Leave a review' })).toBeVisible();
    expect(posts(api).map((call) => call.method)).toEqual(['PATCH', 'DELETE']);
  });

  it('keeps the review when the author cancels the deletion or the edit', async () => {
    setSession('tok', userFixture());
    const api = mockApi({ [MY_REVIEW]: { body: { review } } });
    vi.stubGlobal('fetch', vi.fn(api.fetchMock));
    const user = userEvent.setup();
    renderWithApp(<ReviewComposer productId={7} />);
    const own = await screen.findByTestId('own-review');
    await user.click(within(own).getByRole('button', { name: 'Delete' }));
    await user.click(within(own).getByRole('button', { name: 'Cancel' }));
    expect(within(own).getByRole('button', { name: 'Edit' })).toBeVisible();
    await user.click(within(own).getByRole('button', { name: 'Edit' }));
    const form = await screen.findByRole('form', { name: 'Edit your review' });
    await user.click(within(form).getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByTestId('own-review')).toBeVisible();
    expect(posts(api)).toEqual([]);
  });
});
