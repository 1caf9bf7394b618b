import { useTranslation } from 'react-i18next';
import { NotFoundView } from '../../components/ui/not-found-view.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

export function Component() {
  const { t } = useTranslation();
  useDocumentTitle(t('notFound.title'));
  return <NotFoundView />;
}
