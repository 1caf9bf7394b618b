import { STOCK_NOTIFICATION_LINK_EXPIRED, STOCK_NOTIFICATION_LINK_USED } from '@store/contract';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { ApiError } from '../../../lib/api-client.ts';
import { changeLanguage, currentLanguage, LANGUAGE_STORAGE_KEY, type Language } from '../../../lib/i18n.ts';
import { isRateLimited, rateLimitText } from '../../../lib/rate-limit-text.ts';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { useConfirmStockNotification } from '../api/request-stock-notification.ts';
import styles from './purchase-box.module.css';

/** The product page's query parameter that carries the token of a confirmation email's link. */
export const CONFIRM_PARAM = 'backInStockToken';

/** Tokens already sent in this page view; StrictMode and re-renders must not spend a token twice. */
const handled = new Set<string>();

type Outcome = 'pending' | 'confirmed' | 'used' | 'expired' | 'invalid' | 'failed';

const TEXTS: Record<Exclude<Outcome, 'failed'>, string> = {
  pending: 'shop.confirmPending',
  confirmed: 'shop.confirmDone',
  used: 'shop.confirmUsed',
  expired: 'shop.confirmExpired',
  invalid: 'shop.confirmInvalid',
};

function outcomeOf(failure: unknown): Outcome {
  if (!(failure instanceof ApiError)) return 'failed';
  const code = (failure.body as { code?: unknown } | null)?.code;
  if (code === STOCK_NOTIFICATION_LINK_USED) return 'used';
  if (code === STOCK_NOTIFICATION_LINK_EXPIRED) return 'expired';
  return failure.status === 422 ? 'invalid' : 'failed';
}

/**
 * A link opened where no language was ever chosen (another device, say) speaks the one the request
 * was made in; a choice made here stands.
 */
function speak(language: Language) {
  let chosen: string | null = null;
  try {
    chosen = localStorage.getItem(LANGUAGE_STORAGE_KEY);
  } catch {
    // Storage can be blocked: nothing was chosen that could be kept.
  }
  if (!chosen && language !== currentLanguage()) void changeLanguage(language);
}

/**
 * What a confirmation email's link opens: the product's page with `?backInStockToken=…`. The token
 * leaves the address at once, so a reload or a shared address does not carry it, is sent once, and
 * the page says what came of it: the request confirmed, or a link used already, expired, or unknown.
 */
export function BackInStockConfirmation() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const token = params.get(CONFIRM_PARAM);
  const confirm = useConfirmStockNotification().mutateAsync;
  const [result, setResult] = useState<{ outcome: Outcome; failure?: unknown } | null>(null);

  useEffect(() => {
    if (!token || handled.has(token)) return;
    handled.add(token);
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(CONFIRM_PARAM);
        return next;
      },
      { replace: true },
    );
    setResult({ outcome: 'pending' });
    confirm(token).then(
      ({ lang }) => {
        setResult({ outcome: 'confirmed' });
        speak(lang);
      },
      (failure: unknown) => setResult({ outcome: outcomeOf(failure), failure }),
    );
  }, [token, setParams, confirm]);

  if (!result) return null;
  const { outcome, failure } = result;
  const text =
    outcome !== 'failed'
      ? t(TEXTS[outcome])
      : isRateLimited(failure)
        ? rateLimitText(failure, t, 'auth')
        : t('errors.generic');
  return (
    <p
      className={outcome === 'expired' || outcome === 'invalid' || outcome === 'failed' ? styles.error : styles.stock}
      role="status"
      data-testid="notify-confirmation"
    >
      {text}
    </p>
  );
}
