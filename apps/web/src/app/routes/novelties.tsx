import { SparkleIcon } from '../../components/ui/icons.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { productListQueryOptions } from '../../features/catalogue/api/get-product-list.ts';
import { ProductListSection } from '../../features/catalogue/components/product-list-section.tsx';
import { currentLanguage } from '../../lib/i18n.ts';
import { queryClient } from '../../lib/query-client.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useTranslation } from '../../lib/use-translation.tsx';

export async function loader() {
  await queryClient.ensureInfiniteQueryData(productListQueryOptions('novelties', currentLanguage()));
  return null;
}

export function Component() {
  const { t } = useTranslation();
  useDocumentTitle(t('nav.new'));
  return (
    <>
      <PageHeader title={t('novelties.title')} subtitle={t('novelties.subtitle')} icon={<SparkleIcon size={26} />} />
      <ProductListSection list="novelties" />
    </>
  );
}
