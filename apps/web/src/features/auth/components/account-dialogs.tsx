import { matchPath, useLocation } from 'react-router-dom';
import { closeAccountUi, showNotice, useAccountUi } from '../account-ui-store.ts';
import { EMAIL_CHANGE_UNDO_PATH, PASSWORD_RESET_PATH, VERIFY_EMAIL_PATH } from '../email-links.ts';
import { AuthModal } from './auth-modal.tsx';
import { EmailChangeUndoDialog } from './email-change-undo-dialog.tsx';
import { EmailLinkHandler } from './email-link-handler.tsx';
import { NoticeModal } from './notice-modal.tsx';
import { PasswordResetDialog } from './password-reset-dialog.tsx';
import { ResetRequestModal } from './reset-request-modal.tsx';
import { VerifyEmailOverlay } from './verify-email-overlay.tsx';

/**
 * Every account dialog, in one chunk that loads the first time one is asked for (the Log in button, a
 * review prompt, an emailed link), so the first page load carries none of the forms.
 */
export default function AccountDialogs() {
  const ui = useAccountUi();
  const { pathname } = useLocation();
  const resetToken = matchPath(PASSWORD_RESET_PATH, pathname)?.params.token;
  const verifyToken = matchPath(VERIFY_EMAIL_PATH, pathname)?.params.hashToken;
  const undoToken = matchPath(EMAIL_CHANGE_UNDO_PATH, pathname)?.params.token;
  return (
    <>
      {pathname === '/' && <EmailLinkHandler />}
      {resetToken !== undefined && !ui.notice && <PasswordResetDialog key={resetToken} token={resetToken} />}
      {verifyToken !== undefined && <VerifyEmailOverlay key={verifyToken} token={verifyToken} />}
      {undoToken !== undefined && !ui.notice && <EmailChangeUndoDialog key={undoToken} token={undoToken} />}
      {ui.auth && <AuthModal tab={ui.auth.tab} stay={ui.auth.stay} />}
      {ui.resetRequest && <ResetRequestModal onClose={closeAccountUi} onSent={() => showNotice('resetSent')} />}
      {ui.notice && <NoticeModal notice={ui.notice} onClose={closeAccountUi} />}
    </>
  );
}
