import { NavLink, Outlet } from 'react-router-dom';
import { LANGUAGES, type Language, useI18n } from '../lib/i18n.tsx';
import { sectionsFor } from '../lib/roles.ts';
import { signOut } from '../lib/session.ts';
import { useSession } from './use-session.ts';

const LANGUAGE_NAMES: Record<Language, string> = { 'pt-BR': 'Português', en: 'English', ru: 'Русский', hi: 'हिन्दी' };

export function LanguageSwitch() {
  const { t, language, setLanguage } = useI18n();
  return (
    <label className="language">
      <span className="visually-hidden">{t('common.language')}</span>
      <select value={language} onChange={(event) => void setLanguage(event.target.value as Language)}>
        {LANGUAGES.map((code) => (
          <option key={code} value={code} lang={code}>
            {LANGUAGE_NAMES[code]}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The frame of every page: the sections the role may open, who is signed in, sign-out. */
export function Shell() {
  const { t } = useI18n();
  const { session } = useSession();
  if (!session) return null;
  const { staff } = session;
  return (
    <div className="shell">
      <aside className="sidebar">
        <p className="brand">{t('common.brand')}</p>
        <nav aria-label={t('nav.label')}>
          <ul>
            {sectionsFor(staff.role).map((section) => (
              <li key={section.id}>
                <NavLink to={`/${section.path}`}>{t(`nav.${section.id}`)}</NavLink>
              </li>
            ))}
          </ul>
        </nav>
      </aside>
      <div className="main">
        <header className="topbar">
          <p className="who" data-testid="signed-in-as">
            <span>{staff.email}</span>
            <span className="badge">{t(`roles.${staff.role}`)}</span>
          </p>
          <LanguageSwitch />
          <button type="button" className="button secondary" onClick={signOut}>
            {t('auth.signOut')}
          </button>
        </header>
        <main className="content">
          <Outlet />
        </main>
      </div>
    </div>
  );
}
