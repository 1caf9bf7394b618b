import { NotFoundView } from '../../components/ui/not-found-view.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useTranslation } from '../../lib/use-translation.tsx';

export function Component() {
  const { t } = useTranslation();
  useDocumentTitle(t('notFound.title'));
  return <NotFoundView />;
}
