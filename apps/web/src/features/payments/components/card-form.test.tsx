import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '../../../test/render.tsx';
import { CardForm } from './card-form.tsx';

let lookups: string[];

beforeEach(() => {
  lookups = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_input: RequestInfo | URL, init: RequestInit = {}) => {
      const { number } = JSON.parse(String(init.body)) as { number: string };
      lookups.push(number);
      return new Response(JSON.stringify({ type: number.startsWith('4') ? 'Visa' : null }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
});

describe('the card form', () => {
  it('masks the number, looks its brand up once per prefix and shows the logo', async () => {
    const user = userEvent.setup();
    renderWithApp(<CardForm mode="purchase" payMinor={5_000} />);
    const number = screen.getByLabelText('Card number');
    expect(number).toHaveAttribute('autocomplete', 'cc-number');
    expect(number).toHaveAttribute('inputmode', 'numeric');
    await user.type(number, '4242424');
    expect(lookups).toEqual([]);
    await user.type(number, '242424242');
    expect(number).toHaveValue('4242 4242 4242 4242');
    expect(await screen.findByRole('img', { name: 'Visa' })).toBeInTheDocument();
    await user.type(number, '{Backspace}{Backspace}42');
    expect(lookups).toEqual(['42424242']);
  });

  it('clears a half expiry and a CVV under 100 on leaving them, and hides the CVV until asked', async () => {
    const user = userEvent.setup();
    renderWithApp(<CardForm mode="purchase" payMinor={5_000} />);
    const expiry = screen.getByLabelText('Expiry date');
    expect(expiry).toHaveAttribute('autocomplete', 'cc-exp');
    await user.type(expiry, '123');
    expect(expiry).toHaveValue('12/3');
    await user.tab();
    expect(expiry).toHaveValue('');
    await user.type(expiry, '13/30');
    await user.tab();
    expect(expiry).toHaveValue('');

    const cvv = screen.getByLabelText('CVV');
    expect(cvv).toHaveAttribute('autocomplete', 'cc-csc');
    expect(cvv).toHaveAttribute('type', 'password');
    await user.type(cvv, '099');
    await user.tab();
    expect(cvv).toHaveValue('');
    await user.click(screen.getByRole('button', { name: 'Show CVV' }));
    expect(cvv).toHaveAttribute('type', 'text');
  });

  it('enables submit only with every field, both consents, the brand answer and a top-up amount', async () => {
    const user = userEvent.setup();
    renderWithApp(<CardForm mode="balance" payMinor={0} />);
    const submit = screen.getByRole('button', { name: 'Top up' });
    await user.type(screen.getByLabelText('Card number'), '4242424242424242');
    await user.type(screen.getByLabelText('Expiry date'), '1230');
    await user.type(screen.getByLabelText('CVV'), '123');
    await user.click(screen.getByRole('checkbox', { name: /privacy policy/ }));
    expect(submit).toBeDisabled();
    await user.click(screen.getByRole('checkbox', { name: /cannot be refunded/ }));
    // A top-up still needs its amount, of at least 100.
    expect(submit).toBeDisabled();
    await user.type(screen.getByLabelText('Top-up amount'), '99');
    expect(screen.getByText(/^Enter an amount of at least BRL\s100\.00\.$/)).toBeVisible();
    expect(submit).toBeDisabled();
    await user.type(screen.getByLabelText('Top-up amount'), '0');
    await waitFor(() => expect(submit).toBeEnabled());
    await user.clear(screen.getByLabelText('CVV'));
    expect(submit).toBeDisabled();
  });
});
