import { ProductIdParamsSchema } from '@store/contract';
import { Link, useParams } from 'react-router-dom';
import { BoltIcon, CartIcon, ShieldIcon } from '../../components/ui/icons.tsx';
import { useBuy } from '../../features/basket/hooks/use-buy.ts';
import { productQueryOptions, useProduct } from '../../features/catalogue/api/get-product.ts';
import { reviewsQueryOptions } from '../../features/catalogue/api/get-reviews.ts';
import { similarProductsQueryOptions, useSimilarProducts } from '../../features/catalogue/api/get-similar-products.ts';
import { useCountryName } from '../../features/catalogue/components/country-label.tsx';
import { Price } from '../../features/catalogue/components/price.tsx';
import { ProductCover } from '../../features/catalogue/components/product-cover.tsx';
import { ProductGrid } from '../../features/catalogue/components/product-grid.tsx';
import { ProductRating } from '../../features/catalogue/components/product-rating.tsx';
import { PurchaseBox } from '../../features/catalogue/components/purchase-box.tsx';
import { Reviews } from '../../features/catalogue/components/reviews.tsx';
import { ReviewComposer } from '../../features/reviews/components/review-composer.tsx';
import { notFound } from '../../lib/api-client.ts';
import { displayRate } from '../../lib/display-rate.ts';
import { currencyName, formatNumber, formatPrice } from '../../lib/format.ts';
import { currentLanguage, ensureTexts } from '../../lib/i18n.ts';
import { queryClient } from '../../lib/query-client.ts';
import { formatRateDate } from '../../lib/rate-date.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useLocale } from '../../lib/use-locale.ts';
import { useTranslation } from '../../lib/use-translation.tsx';
import type { LoaderArgs } from '../route-page.tsx';
import { INSTRUCTIONS_HASH } from '../scroll-manager.tsx';
import styles from './product.module.css';

function idOf(params: { id?: string }): number {
  const parsed = ProductIdParamsSchema.safeParse({ id: params.id ?? '' });
  if (!parsed.success) throw notFound();
  return parsed.data.id;
}

export async function loader({ params }: LoaderArgs) {
  const id = idOf(params);
  void queryClient.prefetchQuery(similarProductsQueryOptions(id));
  void queryClient.prefetchQuery(reviewsQueryOptions(id, 1));
  // The review form's texts live with the account screens' part of the catalogue.
  await Promise.all([
    queryClient.ensureQueryData(productQueryOptions(id, currentLanguage())),
    ensureTexts('account'),
    ensureTexts('shop'),
  ]);
}

/** Numbered steps of the instructions as a list; "1. Open..." loses its own number. */
const steps = (text: string) =>
  text
    .split('\n')
    .map((line) => line.replace(/^\s*\d+[.)]\s*/, '').trim())
    .filter(Boolean);

export function Component() {
  const { t } = useTranslation();
  const locale = useLocale();
  const id = idOf(useParams());
  const product = useProduct(id, locale);
  const similar = useSimilarProducts(id);
  const buy = useBuy();
  const countryName = useCountryName();
  useDocumentTitle(product.data?.name);

  if (!product.data) {
    if (product.isError) throw product.error;
    return null;
  }
  const item = product.data;
  const nominalCurrency = item.nominal.currency;
  const rate = displayRate(locale);

  return (
    <article className={styles.product} data-testid="product-page">
      <nav className={styles.crumbs} aria-label={t('product.breadcrumbs')}>
        <Link to="/">{t('nav.home')}</Link>
        <span aria-hidden="true">/</span>
        <Link to={`/category/${item.category}`}>{item.category_name}</Link>
        <span aria-hidden="true">/</span>
        <span aria-current="page">{item.name}</span>
      </nav>

      <div className={styles.top}>
        <div className={styles.coverWrap}>
          <ProductCover coverPath={item.cover_path} coverText={item.cover_text} eager size="page" />
          {item.discount > 0 && <span className={styles.badge}>−{item.discount}%</span>}
        </div>
        <div className={styles.info}>
          <h1 className={styles.name}>{item.name}</h1>
          <p className={styles.article}>
            {t('product.articleLabel', { article: item.article })}
            <ProductRating rating={item.rating} />
          </p>
          <dl className={styles.facts}>
            <div>
              <dt>{t('product.region')}</dt>
              <dd className={styles.country}>
                {item.country_icon && <img src={item.country_icon} alt="" width={24} height={20} />}
                <span data-testid="product-country">{countryName(item.country.code, item.country.name)}</span>
              </dd>
            </div>
            <div>
              <dt>{t('product.cardValue')}</dt>
              <dd>
                {formatNumber(item.nominal.amount, locale)} {nominalCurrency}
                <span className={styles.muted}> · {currencyName(nominalCurrency, locale)}</span>
              </dd>
            </div>
            <div>
              <dt>{t('product.availability')}</dt>
              <dd>
                {item.in_stock ? (
                  <span className={styles.inStock} data-testid="stock-state">
                    {t('product.inStock')}
                  </span>
                ) : (
                  <span className={styles.outOfStock} data-testid="stock-state">
                    {t('product.outOfStock')}
                  </span>
                )}
              </dd>
            </div>
          </dl>
          <PurchaseBox product={item} onBuy={(quantity) => buy(item, quantity)}>
            {(buyChosen) => (
              <div className={styles.buyBox}>
                <div>
                  <Price minor={item.price_minor} oldMinor={item.old_price_minor} currency={item.currency} size="lg" />
                  {rate && (
                    <p className={styles.charged} data-testid="price-charged">
                      {t('shop.chargedNote', {
                        price: formatPrice(item.price, item.currency, locale),
                        date: formatRateDate(rate.set_at, locale),
                      })}
                    </p>
                  )}
                </div>
                <button type="button" className={styles.buy} onClick={buyChosen} disabled={!item.in_stock}>
                  <CartIcon size={18} />
                  {item.in_stock ? t('product.buy') : t('product.outOfStock')}
                </button>
                <Link to={{ hash: INSTRUCTIONS_HASH }} className={styles.howTo}>
                  {t('product.howToActivate')}
                </Link>
              </div>
            )}
          </PurchaseBox>
          <ul className={styles.perks}>
            <li>
              <BoltIcon size={16} />
              {t('product.perkInstant')}
            </li>
            <li>
              <ShieldIcon size={16} />
              {t('product.perkGuarantee')}
            </li>
          </ul>
        </div>
      </div>

      <section className={styles.section} aria-labelledby="description-title">
        <h2 id="description-title" className={styles.sectionTitle}>
          {t('product.description')}
        </h2>
        <p className={styles.description}>{item.description}</p>
      </section>

      <section
        className={styles.section}
        id={INSTRUCTIONS_HASH.slice(1)}
        aria-labelledby="instructions-title"
        data-testid="instructions"
      >
        <h2 id="instructions-title" className={styles.sectionTitle}>
          {t('product.instructions')}
        </h2>
        <ol className={styles.steps}>
          {steps(item.activation_instructions).map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
      </section>

      <section className={styles.section} aria-labelledby="reviews-title">
        <h2 id="reviews-title" className={styles.sectionTitle}>
          {t('product.reviews')}
        </h2>
        <div className={styles.reviewsBody}>
          <ReviewComposer productId={item.id} />
          <Reviews productId={item.id} />
        </div>
      </section>

      {similar.data && similar.data.products.length > 0 && (
        <section className={styles.similar} aria-labelledby="similar-title">
          <h2 id="similar-title" className={styles.sectionTitle}>
            {t('product.similar')}
          </h2>
          <ProductGrid products={similar.data.products} headingLevel={3} />
        </section>
      )}
    </article>
  );
}
