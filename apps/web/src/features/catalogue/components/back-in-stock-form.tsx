import { EmailSchema, type StockNotificationRequest } from '@store/contract';
import { type FormEvent, useId, useState } from 'react';
import { ApiError } from '../../../lib/api-client.ts';
import { isRateLimited, rateLimitText } from '../../../lib/rate-limit-text.ts';
import { useLocale } from '../../../lib/use-locale.ts';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { useRequestStockNotification } from '../api/request-stock-notification.ts';
import styles from './purchase-box.module.css';

/**
 * On a sold-out product: an address to write to once, when it is back in stock. A guest (or a
 * customer giving another address than the account's verified one) is asked to confirm it by email.
 */
export function BackInStockForm({ productId }: { productId: number }) {
  const { t } = useTranslation();
  const lang = useLocale();
  const id = useId();
  const request = useRequestStockNotification();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (!EmailSchema.safeParse(email).success) {
      setError(t('shop.notifyInvalidEmail'));
      return;
    }
    request.mutate(
      { productId, email, lang: lang as StockNotificationRequest['lang'] },
      {
        onError: (failure) =>
          setError(
            isRateLimited(failure)
              ? rateLimitText(failure, t, 'auth')
              : failure instanceof ApiError && failure.status === 409
                ? t('shop.notifyInStock')
                : failure instanceof ApiError && failure.status === 422
                  ? t('shop.notifyInvalidEmail')
                  : t('errors.generic'),
          ),
      },
    );
  };

  if (request.isSuccess) {
    return (
      <p className={styles.stock} role="status" data-testid="notify-done">
        {t(request.data.confirm_by_email ? 'shop.notifyCheckEmail' : 'shop.notifyDone', { email })}
      </p>
    );
  }
  return (
    <form className={styles.box} onSubmit={submit} noValidate data-testid="notify-form">
      <label htmlFor={id}>{t('shop.notifyLabel')}</label>
      <div className={styles.row}>
        <input
          id={id}
          type="email"
          autoComplete="email"
          maxLength={128}
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          className={styles.email}
        />
        <button type="submit" className={styles.notify} disabled={request.isPending}>
          {t('shop.notifySubmit')}
        </button>
      </div>
      {error && (
        <p id={`${id}-error`} className={styles.error} role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
