import { useCallback, useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useConfirmEmailUpdate } from '../../profile/api/confirm-email-update.ts';
import { useConfirmPasswordUpdate } from '../../profile/api/confirm-password-update.ts';
import { showNotice } from '../account-ui-store.ts';
import { useActivateAccount } from '../api/activate-account.ts';
import { EMAIL_LINK_PARAMS } from '../email-links.ts';
import { useLoginFirst } from '../hooks/use-login-first.ts';

/** Tokens already sent in this page view; StrictMode and re-renders must not spend a token twice. */
const handled = new Set<string>();

/**
 * The emailed links' parameters on Index: accountToken activates the account, emailToken confirms an
 * email change, passwordToken a password change. The last two act on the signed-in customer, so a
 * signed-out visitor logs in first. The parameter leaves the URL once handled (or given up), so a
 * reload does not spend it again.
 */
export function EmailLinkHandler() {
  const [params, setParams] = useSearchParams();
  const activate = useActivateAccount().mutateAsync;
  const confirmEmail = useConfirmEmailUpdate().mutateAsync;
  const confirmPassword = useConfirmPasswordUpdate().mutateAsync;

  const name = EMAIL_LINK_PARAMS.find((param) => params.get(param));
  const token = name ? params.get(name) : null;

  const drop = useCallback(() => {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const param of EMAIL_LINK_PARAMS) next.delete(param);
        return next;
      },
      { replace: true },
    );
  }, [setParams]);

  const needsLogin = name === 'emailToken' || name === 'passwordToken';
  const signedIn = useLoginFirst(needsLogin, drop);

  useEffect(() => {
    if (!name || !token || (needsLogin && !signedIn)) return;
    const key = `${name}:${token}`;
    if (handled.has(key)) return;
    handled.add(key);
    drop();
    const run =
      name === 'accountToken'
        ? activate(token).then(() => 'accountActivated' as const)
        : name === 'emailToken'
          ? confirmEmail(token).then(() => 'emailChanged' as const)
          : confirmPassword(token).then(() => 'passwordChanged' as const);
    run.then(showNotice, () => showNotice('linkInvalid'));
  }, [name, token, needsLogin, signedIn, drop, activate, confirmEmail, confirmPassword]);

  return null;
}
