import * as Tabs from '@radix-ui/react-tabs';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from '../../../lib/use-translation.tsx';
import {
  type AuthTab,
  closeAccountUi,
  closeAuth,
  openAuth,
  openResetRequest,
  showNotice,
} from '../account-ui-store.ts';
import { LoginForm } from './login-form.tsx';
import styles from './modal.module.css';
import { Modal } from './modal.tsx';
import { RegisterForm } from './register-form.tsx';

/** Tab 1 logs in (then the profile), tab 2 registers (then a success modal). */
export function AuthModal({ tab, stay }: { tab: AuthTab; stay: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Modal
      open
      onOpenChange={(open) => {
        if (!open) closeAccountUi();
      }}
      title={tab === 'login' ? t('auth.loginTitle') : t('auth.registerTitle')}
      description={t('auth.description')}
      testId="auth-modal"
    >
      <Tabs.Root value={tab} onValueChange={(value) => openAuth(value as AuthTab, { stay })}>
        <Tabs.List className={styles.tabList} aria-label={t('auth.tabs')}>
          <Tabs.Trigger className={styles.tab} value="login">
            {t('auth.login')}
          </Tabs.Trigger>
          <Tabs.Trigger className={styles.tab} value="register">
            {t('auth.register')}
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="login">
          <LoginForm
            onSuccess={() => {
              closeAuth();
              if (!stay) navigate('/profile');
            }}
            onForgotPassword={openResetRequest}
          />
        </Tabs.Content>
        <Tabs.Content value="register">
          <RegisterForm onSuccess={() => showNotice('registered')} onOpenLink={closeAccountUi} />
        </Tabs.Content>
      </Tabs.Root>
    </Modal>
  );
}
