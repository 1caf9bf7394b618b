import { useState } from 'react';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from '../../../lib/api-client.ts';
import { rateLimitText } from '../../../lib/rate-limit-text.ts';
import { useTranslation } from '../../../lib/use-translation.tsx';

/**
 * The API's errors (docs/api.md, "Errors") in forms: a 422 puts each field's first message key under
 * that field; a 429 shows a dismissible banner in the interface language with how long to wait, and any
 * other failure the server's text (or a generic text).
 */
export function useServerErrors<T extends FieldValues>(setError: UseFormSetError<T>, fields: readonly Path<T>[]) {
  const { t, i18n } = useTranslation();
  const [banner, setBanner] = useState<string | null>(null);
  const text = (key: string) => (i18n.exists(key) ? t(key) : key);

  const handle = (error: unknown) => {
    if (!(error instanceof ApiError)) {
      setBanner(t('errors.generic'));
      return;
    }
    if (error.status === 429) {
      setBanner(rateLimitText(error, t, 'auth'));
      return;
    }
    const others: string[] = [];
    for (const [field, keys] of Object.entries(error.fieldErrors)) {
      const key = keys[0];
      if (!key) continue;
      if ((fields as readonly string[]).includes(field)) {
        setError(field as Path<T>, { type: 'server', message: key }, { shouldFocus: true });
      } else {
        others.push(text(key));
      }
    }
    if (others.length > 0) setBanner(others.join(' '));
    else if (Object.keys(error.fieldErrors).length === 0) setBanner(error.message || t('errors.generic'));
  };

  return {
    banner,
    dismissBanner: () => setBanner(null),
    handleServerError: handle,
    clearBanner: () => setBanner(null),
  };
}
