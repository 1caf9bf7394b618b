import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { matchPath, useLocation, useNavigate } from 'react-router-dom';
import { ensureTexts } from '../../../lib/i18n.ts';
import { getToken } from '../../../lib/session-store.ts';
import { openAuth, useAccountUi } from '../account-ui-store.ts';
import { EMAIL_CHANGE_UNDO_PATH, hasEmailLink, PASSWORD_RESET_PATH, VERIFY_EMAIL_PATH } from '../email-links.ts';
import { useSession } from '../hooks/use-session.ts';
import { isPrivatePath } from '../private-paths.ts';

// The dialogs' code and their texts, which the first download leaves out, load together.
const AccountDialogs = lazy(() =>
  Promise.all([import('./account-dialogs.tsx'), ensureTexts('account')]).then(([module]) => module),
);

const refreshSession = () => import('../api/get-user.ts').then((module) => module.refreshSession());

/**
 * Part of the first page load, so it only decides when the account code is needed:
 * - on load and on window focus a stored token is checked against GET /user, and a session that is gone
 *   (here, after logout, or in another tab) leaves a private route for Index;
 * - a visitor who arrives at a private route signed out (a link from an email, a bookmark) is taken to
 *   Index with the login dialog open, whose login brings them to the profile;
 * - the dialogs chunk loads when a dialog is asked for, or an emailed link (a parameter on Index, or
 *   one of the overlay paths on home) is open.
 */
export function AccountHost() {
  const ui = useAccountUi();
  const { pathname, search } = useLocation();
  const { token } = useSession();
  const navigate = useNavigate();
  const onPrivateRoute = isPrivatePath(pathname);
  const wanted =
    Boolean(ui.auth || ui.resetRequest || ui.notice) ||
    (pathname === '/' && hasEmailLink(search)) ||
    [PASSWORD_RESET_PATH, VERIFY_EMAIL_PATH, EMAIL_CHANGE_UNDO_PATH].some((path) => matchPath(path, pathname));
  const [loaded, setLoaded] = useState(false);
  if (wanted && !loaded) setLoaded(true);

  useEffect(() => {
    const check = () => {
      if (getToken()) void refreshSession();
    };
    check();
    window.addEventListener('focus', check);
    return () => window.removeEventListener('focus', check);
  }, []);

  // Whether this visit to the private route had a session: one ending there (a logout) only leaves it,
  // an arrival without one is asked to log in.
  const hadSession = useRef(false);
  useEffect(() => {
    if (!onPrivateRoute || token) {
      hadSession.current = onPrivateRoute;
      return;
    }
    navigate('/', { replace: true });
    if (!hadSession.current) openAuth('login');
  }, [onPrivateRoute, token, navigate]);

  if (!loaded) return null;
  return (
    <Suspense fallback={null}>
      <AccountDialogs />
    </Suspense>
  );
}
