import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi } from '../../../test/fixtures.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { VerificationStatus } from './verification-status.tsx';

afterEach(() => vi.unstubAllGlobals());

describe('the account status in the profile', () => {
  it('offers to send the activation email again while the account is not activated', async () => {
    const api = mockApi({ 'POST /api/profile/activation-request': { body: { ok: true, message: 'On its way.' } } });
    vi.stubGlobal('fetch', vi.fn(api.fetchMock));
    renderWithApp(<VerificationStatus verified activated={false} />);
    await userEvent.click(screen.getByRole('button', { name: 'Send the activation email again' }));
    expect(await screen.findByText(/^Activation email sent\./)).toHaveAttribute('role', 'status');
    expect(api.calls.map((call) => `${call.method} ${call.path}`)).toEqual(['POST /api/profile/activation-request']);
  });

  it('says when to try again after too many requests, in the interface language', async () => {
    const api = mockApi({
      'POST /api/profile/activation-request': {
        status: 429,
        body: { message: 'Too many requests, retry in 1 hour' },
        headers: { 'retry-after': '20' },
      },
    });
    vi.stubGlobal('fetch', vi.fn(api.fetchMock));
    renderWithApp(<VerificationStatus verified activated={false} />);
    await userEvent.click(screen.getByRole('button', { name: 'Send the activation email again' }));
    expect(await screen.findByTestId('form-banner')).toHaveTextContent('Too many requests. Try again in 20 s.');
  });

  it('offers nothing once the account is activated', () => {
    renderWithApp(<VerificationStatus verified activated />);
    expect(screen.queryByRole('button', { name: 'Send the activation email again' })).toBeNull();
  });
});
