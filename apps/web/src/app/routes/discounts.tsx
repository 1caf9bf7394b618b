import { TagIcon } from '../../components/ui/icons.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { productListQueryOptions } from '../../features/catalogue/api/get-product-list.ts';
import { ProductListSection } from '../../features/catalogue/components/product-list-section.tsx';
import { currentLanguage } from '../../lib/i18n.ts';
import { queryClient } from '../../lib/query-client.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useTranslation } from '../../lib/use-translation.tsx';

export async function loader() {
  await queryClient.ensureInfiniteQueryData(productListQueryOptions('discounts', currentLanguage()));
  return null;
}

export function Component() {
  const { t } = useTranslation();
  useDocumentTitle(t('nav.discounts'));
  return (
    <>
      <PageHeader title={t('discounts.title')} subtitle={t('discounts.subtitle')} icon={<TagIcon size={26} />} />
      <ProductListSection list="discounts" />
    </>
  );
}
