import { useEffect } from 'react';
import { useTranslation } from './use-translation.tsx';

/** "Steam · Giftstore"; the store name alone when there is no page title yet. */
export function useDocumentTitle(title: string | undefined) {
  const { t } = useTranslation();
  const name = t('app.name');
  useEffect(() => {
    document.title = title ? `${title} · ${name}` : name;
  }, [title, name]);
}
