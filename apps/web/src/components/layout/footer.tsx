import { Link, NavLink } from 'react-router-dom';
import { useTranslation } from '../../lib/use-translation.tsx';
import { ArrowUpIcon, MailIcon } from '../ui/more-icons.tsx';
import styles from './footer.module.css';
import { Logo } from './logo.tsx';
import { PaymentMarks } from './payment-marks.tsx';

export const SUPPORT_EMAIL = 'support@giftstore.example';

const linkClass = ({ isActive }: { isActive: boolean }) => `${styles.link}${isActive ? ' active' : ''}`;

export function Footer() {
  const { t } = useTranslation();
  const year = new Date().getFullYear();
  return (
    <footer className={styles.footer}>
      <div className={styles.inner}>
        <div className={styles.brand}>
          <Link to="/" aria-label={`${t('app.name')} – ${t('nav.home')}`}>
            <Logo label={t('app.name')} />
          </Link>
          <p className={styles.tagline}>{t('app.tagline')}</p>
          <PaymentMarks label={t('footer.payments')} />
        </div>
        <nav className={styles.column} aria-labelledby="footer-documents">
          <h2 id="footer-documents" className={styles.heading}>
            {t('footer.documents')}
          </h2>
          <NavLink to="/privacy" className={linkClass}>
            {t('info.privacy.title')}
          </NavLink>
          <NavLink to="/contract-offer" className={linkClass}>
            {t('info.contractOffer.title')}
          </NavLink>
          <NavLink to="/requisites" className={linkClass}>
            {t('info.requisites.title')}
          </NavLink>
        </nav>
        <nav className={styles.column} aria-labelledby="footer-about">
          <h2 id="footer-about" className={styles.heading}>
            {t('footer.about')}
          </h2>
          <NavLink to="/guarantees" className={linkClass}>
            {t('info.guarantees.title')}
          </NavLink>
          <NavLink to="/faq" className={linkClass}>
            {t('info.faq.title')}
          </NavLink>
          <NavLink to="/holiday" className={linkClass}>
            {t('nav.holiday')}
          </NavLink>
        </nav>
        <div className={styles.column}>
          <h2 className={styles.heading}>{t('footer.support')}</h2>
          <a href={`mailto:${SUPPORT_EMAIL}`} className={`${styles.link} ${styles.mail}`}>
            <MailIcon size={16} />
            {SUPPORT_EMAIL}
          </a>
          <p className={styles.muted}>{t('footer.supportHours')}</p>
        </div>
      </div>
      <div className={styles.bottom}>
        <p className={styles.muted}>{t('footer.rights', { year, name: t('app.name') })}</p>
        <button
          type="button"
          className={styles.top}
          onClick={() => window.scrollTo({ top: 0, behavior: 'smooth' })}
          data-testid="go-top"
        >
          <ArrowUpIcon size={16} />
          {t('footer.goTop')}
        </button>
      </div>
    </footer>
  );
}
