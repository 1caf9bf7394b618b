import { EmailTokenSchema } from '@store/contract';
import { useCallback, useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { useVerifyEmail } from '../../profile/api/verify-email.ts';
import { showNotice } from '../account-ui-store.ts';
import { useLoginFirst } from '../hooks/use-login-first.ts';

/** Tokens already sent in this page view; StrictMode and re-renders must not spend a token twice. */
const handled = new Set<string>();

/**
 * /verify-email/{hashToken}: confirms the email of the signed-in customer. A signed-out visitor logs
 * in first (the auth modal opens by itself); closing it without logging in gives the link up.
 */
export function VerifyEmailOverlay({ token }: { token: string }) {
  const navigate = useNavigate();
  const verify = useVerifyEmail().mutateAsync;
  const wellFormed = EmailTokenSchema.safeParse(token).success;
  const leave = useCallback(() => navigate('/', { replace: true }), [navigate]);
  const signedIn = useLoginFirst(wellFormed, leave);

  useEffect(() => {
    if (!wellFormed) {
      leave();
      showNotice('linkInvalid');
      return;
    }
    if (!signedIn || handled.has(token)) return;
    handled.add(token);
    verify(token).then(
      () => {
        leave();
        showNotice('emailVerified');
      },
      () => {
        leave();
        showNotice('linkInvalid');
      },
    );
  }, [token, wellFormed, signedIn, leave, verify]);

  return null;
}
