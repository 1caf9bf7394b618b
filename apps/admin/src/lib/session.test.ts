import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, adminGet } from './api.ts';
import { getSessionState, getToken, SESSION_STORAGE_KEY, signIn, signOut } from './session.ts';

const staff = {
  id: '6f1c0b6e-4c39-4a5e-9b1e-0d6c3f1b2a90',
  email: 'owner@example.com',
  role: 'owner' as const,
  totp_confirmed: true,
  disabled_at: null,
  created_at: '2026-11-01T00:00:00.000Z',
  last_sign_in_at: null,
};
const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

afterEach(() => {
  signOut();
  vi.useRealTimers();
});

describe('the staff session', () => {
  it('lives in this tab’s sessionStorage under its own key, never the shop’s', () => {
    signIn({ token: 'staff-token', expiresAt: inMinutes(30), staff });
    expect(JSON.parse(sessionStorage.getItem(SESSION_STORAGE_KEY) ?? '{}').token).toBe('staff-token');
    expect(localStorage.getItem('auth-token')).toBeNull();
    expect(getToken()).toBe('staff-token');
  });

  it('ends when its time runs out, saying it expired', () => {
    vi.useFakeTimers();
    signIn({ token: 'staff-token', expiresAt: inMinutes(30), staff });
    vi.advanceTimersByTime(30 * 60_000 + 1);
    expect(getSessionState()).toEqual({ session: null, reason: 'expired' });
    expect(sessionStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
  });

  it('ends when the API refuses the token, and the call still fails', async () => {
    signIn({ token: 'staff-token', expiresAt: inMinutes(30), staff });
    const fetchMock = vi.fn(async (_url: string, _init: RequestInit) =>
      Response.json({ message: 'Sign in again.', code: 'admin.unauthorized' }, { status: 401 }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const call = adminGet('/orders', { parse: () => ({}) } as never);
    await expect(call).rejects.toBeInstanceOf(ApiError);
    expect(new Headers(fetchMock.mock.calls[0]?.[1]?.headers).get('authorization')).toBe('Bearer staff-token');
    expect(getSessionState().reason).toBe('expired');
    vi.unstubAllGlobals();
  });

  it('reads a 429 with the seconds to wait', async () => {
    vi.stubGlobal('fetch', async () =>
      Response.json({ message: 'Too many requests.' }, { status: 429, headers: { 'retry-after': '42' } }),
    );
    const error = await adminGet('/session', { parse: () => ({}) } as never).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).retryAfter).toBe(42);
    vi.unstubAllGlobals();
  });
});
