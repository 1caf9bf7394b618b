import { useTranslation } from 'react-i18next';
import { changeLanguage, isLanguage, LANGUAGES } from '../../lib/i18n.ts';
import { GlobeIcon } from '../ui/icons.tsx';
import styles from './language-switcher.module.css';

/**
 * A native select: it is tiny, works with every screen reader and opens the phone's own picker, which
 * suits a control in the always-loaded top bar. Each language names itself.
 */
export function LanguageSwitcher() {
  const { t, i18n } = useTranslation();
  const current = i18n.resolvedLanguage ?? i18n.language;
  return (
    <label className={styles.switcher}>
      <GlobeIcon size={18} className={styles.icon} />
      <span className="visually-hidden">{t('header.language')}</span>
      <select
        className={styles.select}
        value={current}
        data-testid="language-switcher"
        onChange={(event) => {
          const next = event.target.value;
          if (isLanguage(next)) void changeLanguage(next);
        }}
      >
        {LANGUAGES.map((language) => (
          <option key={language} value={language}>
            {t(`languages.${language}`)}
          </option>
        ))}
      </select>
      <span className={styles.code} aria-hidden="true">
        {current.slice(0, 2).toUpperCase()}
      </span>
    </label>
  );
}
