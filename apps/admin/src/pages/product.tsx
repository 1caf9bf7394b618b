import {
  type AdminProductDetail,
  AdminProductDetailSchema,
  LOCALES,
  PRODUCT_COVER_MAX,
  PRODUCT_COVER_TEXT_MAX,
  PRODUCT_NAME_MAX,
  PRODUCT_TEXT_MAX,
  STORE_CURRENCY,
} from '@store/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { ErrorState, Loading } from '../components/states.tsx';
import { adminGet, adminSend, segment } from '../lib/api.ts';
import { errorText, fieldError, keyText } from '../lib/errors.ts';
import { useI18n } from '../lib/i18n.tsx';
import { productOptionsQuery } from './products.tsx';

type Product = AdminProductDetail['product'];
type Locale = (typeof LOCALES)[number];
type Texts = Record<Locale, string>;

interface Draft {
  name: string;
  category: string;
  country: string;
  nominal_currency: string;
  price: string;
  old_price: string;
  nominal: string;
  cover_path: string;
  cover_text: string;
  is_active: boolean;
  low_stock_threshold: string;
  descriptions: Texts;
  activation_instructions: Texts;
}

const noTexts = (): Texts => ({ 'pt-BR': '', en: '', ru: '', hi: '' });

/** Minor units as the form shows them: 1234 as `12.34` for a currency of two decimals. */
function minorToText(minor: number | null, digits: number): string {
  if (minor === null) return '';
  return digits === 0 ? String(minor) : (minor / 10 ** digits).toFixed(digits);
}

/** The form's amount in minor units; null when blank, NaN when not an amount of that many decimals. */
function textToMinor(text: string, digits: number): number | null {
  const normalized = text.trim().replace(/\s/g, '').replace(',', '.');
  if (normalized === '') return null;
  const pattern = digits > 0 ? new RegExp(`^\\d{1,10}(\\.\\d{1,${digits}})?$`) : /^\d{1,10}$/;
  if (!pattern.test(normalized)) return Number.NaN;
  const [whole = '0', fraction = ''] = normalized.split('.');
  return Number(whole) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0');
}

const STORE_DIGITS = 2;

function draftOf(product: Product | undefined, nominalDigits: (code: string) => number): Draft {
  if (!product) {
    return {
      name: '',
      category: '',
      country: '',
      nominal_currency: '',
      price: '',
      old_price: '',
      nominal: '',
      cover_path: '',
      cover_text: '',
      is_active: true,
      low_stock_threshold: '5',
      descriptions: noTexts(),
      activation_instructions: noTexts(),
    };
  }
  return {
    name: product.name,
    category: product.category,
    country: product.country,
    nominal_currency: product.nominal_currency,
    price: minorToText(product.price_minor, STORE_DIGITS),
    old_price: minorToText(product.old_price_minor, STORE_DIGITS),
    nominal: minorToText(product.nominal_minor, nominalDigits(product.nominal_currency)),
    cover_path: product.cover_path ?? '',
    cover_text: product.cover_text ?? '',
    is_active: product.is_active,
    low_stock_threshold: String(product.low_stock_threshold),
    descriptions: { ...product.descriptions },
    activation_instructions: { ...product.activation_instructions },
  };
}

/** A product's form: `/products/new` adds one, `/products/{id}` changes it. */
export default function ProductPage() {
  const { id } = useParams();
  const { t } = useI18n();
  const isNew = id === 'new';
  const options = useQuery(productOptionsQuery);
  const product = useQuery({
    queryKey: ['product', id],
    queryFn: ({ signal }) => adminGet(`/products/${segment(id ?? '')}`, AdminProductDetailSchema, { signal }),
    enabled: !isNew,
  });
  const title = isNew ? t('products.new') : (product.data?.product.name ?? t('products.edit'));
  return (
    <section className="stack">
      <div className="page-head">
        <h1 className="ellipsis">{title}</h1>
        <Link className="button secondary" to="/products">
          {t('common.back')}
        </Link>
      </div>
      {options.isError ? (
        <ErrorState error={options.error} onRetry={() => void options.refetch()} />
      ) : !isNew && product.isError ? (
        <ErrorState error={product.error} onRetry={() => void product.refetch()} />
      ) : options.isPending || (!isNew && product.isPending) ? (
        <Loading />
      ) : (
        <ProductForm
          key={product.data?.product.id ?? 'new'}
          product={product.data?.product}
          currencies={options.data.currencies}
          categories={options.data.categories}
          countries={options.data.countries}
        />
      )}
    </section>
  );
}

function FieldError({ text }: { text: string | undefined }) {
  return text ? <small className="field-error">{text}</small> : null;
}

function ProductForm({
  product,
  categories,
  countries,
  currencies,
}: {
  product: Product | undefined;
  categories: Array<{ slug: string; name: string }>;
  countries: Array<{ code: string; name: string | null }>;
  currencies: Array<{ code: string; minor_units: number }>;
}) {
  const { t } = useI18n();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const digitsOf = (code: string) => currencies.find((currency) => currency.code === code)?.minor_units ?? 2;
  const [draft, setDraft] = useState<Draft>(() => draftOf(product, digitsOf));
  const [local, setLocal] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState(false);
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => {
    setSaved(false);
    setDraft((current) => ({ ...current, [key]: value }));
  };
  const setText = (field: 'descriptions' | 'activation_instructions', locale: Locale, value: string) =>
    set(field, { ...draft[field], [locale]: value });

  const mutation = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      product
        ? adminSend('PATCH', `/products/${product.id}`, body, AdminProductDetailSchema)
        : adminSend('POST', '/products', body, AdminProductDetailSchema),
    onSuccess: async (answer) => {
      queryClient.setQueryData(['product', String(answer.product.id)], answer);
      await queryClient.invalidateQueries({ queryKey: ['products'] });
      setSaved(true);
      if (!product) navigate(`/products/${answer.product.id}`, { replace: true });
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const price = textToMinor(draft.price, STORE_DIGITS);
    const oldPrice = textToMinor(draft.old_price, STORE_DIGITS);
    const nominal = textToMinor(draft.nominal, digitsOf(draft.nominal_currency));
    const threshold = draft.low_stock_threshold.trim() === '' ? Number.NaN : Number(draft.low_stock_threshold);
    const errors: Record<string, string> = {};
    if (price === null) errors.price_minor = 'validation.requiredField';
    else if (Number.isNaN(price)) errors.price_minor = 'validation.notANumber';
    if (oldPrice !== null && Number.isNaN(oldPrice)) errors.old_price_minor = 'validation.notANumber';
    if (nominal === null) errors.nominal_minor = 'validation.requiredField';
    else if (Number.isNaN(nominal)) errors.nominal_minor = 'validation.notANumber';
    if (!Number.isInteger(threshold)) errors.low_stock_threshold = 'validation.notANumber';
    setLocal(errors);
    if (Object.keys(errors).length > 0) return;
    mutation.mutate({
      name: draft.name,
      category: draft.category,
      country: draft.country,
      nominal_currency: draft.nominal_currency,
      price_minor: price,
      old_price_minor: oldPrice,
      nominal_minor: nominal,
      cover_path: draft.cover_path.trim() || null,
      cover_text: draft.cover_text.trim() || null,
      is_active: draft.is_active,
      low_stock_threshold: threshold,
      descriptions: draft.descriptions,
      activation_instructions: draft.activation_instructions,
    });
  };

  const error = mutation.error;
  const errorOf = (field: string) => (local[field] ? keyText(t, local[field]) : fieldError(t, error, field));

  return (
    <form className="stack" onSubmit={submit} noValidate aria-label={t('products.form')}>
      <fieldset className="panel stack">
        <legend>{t('products.main')}</legend>
        <div className="row">
          <label className="field grow">
            <span>{t('products.name')}</span>
            <input value={draft.name} maxLength={PRODUCT_NAME_MAX} onChange={(e) => set('name', e.target.value)} />
            <FieldError text={errorOf('name')} />
          </label>
          <label className="field">
            <span>{t('products.category')}</span>
            <select value={draft.category} onChange={(e) => set('category', e.target.value)}>
              <option value="">{t('products.choose')}</option>
              {categories.map((category) => (
                <option key={category.slug} value={category.slug}>
                  {category.name}
                </option>
              ))}
            </select>
            <FieldError text={errorOf('category')} />
          </label>
          <label className="field">
            <span>{t('products.country')}</span>
            <select value={draft.country} onChange={(e) => set('country', e.target.value)}>
              <option value="">{t('products.choose')}</option>
              {countries.map((country) => (
                <option key={country.code} value={country.code}>
                  {country.name ? `${country.name} (${country.code})` : country.code}
                </option>
              ))}
            </select>
            <FieldError text={errorOf('country')} />
          </label>
        </div>
        <div className="row">
          <label className="field">
            <span>{t('products.priceIn', { currency: STORE_CURRENCY })}</span>
            <input inputMode="decimal" value={draft.price} onChange={(e) => set('price', e.target.value)} />
            <FieldError text={errorOf('price_minor')} />
          </label>
          <label className="field">
            <span>{t('products.oldPriceIn', { currency: STORE_CURRENCY })}</span>
            <input inputMode="decimal" value={draft.old_price} onChange={(e) => set('old_price', e.target.value)} />
            <FieldError text={errorOf('old_price_minor')} />
          </label>
          <label className="field">
            <span>{t('products.nominal')}</span>
            <input inputMode="decimal" value={draft.nominal} onChange={(e) => set('nominal', e.target.value)} />
            <FieldError text={errorOf('nominal_minor')} />
          </label>
          <label className="field">
            <span>{t('products.nominalCurrency')}</span>
            <select value={draft.nominal_currency} onChange={(e) => set('nominal_currency', e.target.value)}>
              <option value="">{t('products.choose')}</option>
              {currencies.map((currency) => (
                <option key={currency.code} value={currency.code}>
                  {currency.code}
                </option>
              ))}
            </select>
            <FieldError text={errorOf('nominal_currency')} />
          </label>
        </div>
        <div className="row">
          <label className="field grow">
            <span>{t('products.cover')}</span>
            <input
              value={draft.cover_path}
              maxLength={PRODUCT_COVER_MAX}
              onChange={(e) => set('cover_path', e.target.value)}
            />
            <FieldError text={errorOf('cover_path')} />
          </label>
          <label className="field">
            <span>{t('products.coverText')}</span>
            <input
              value={draft.cover_text}
              maxLength={PRODUCT_COVER_TEXT_MAX}
              onChange={(e) => set('cover_text', e.target.value)}
            />
            <FieldError text={errorOf('cover_text')} />
          </label>
          <label className="field">
            <span>{t('products.lowStock')}</span>
            <input
              inputMode="numeric"
              value={draft.low_stock_threshold}
              onChange={(e) => set('low_stock_threshold', e.target.value)}
            />
            <FieldError text={errorOf('low_stock_threshold')} />
          </label>
          <label className="field">
            <span>{t('products.state')}</span>
            <span>
              <input type="checkbox" checked={draft.is_active} onChange={(e) => set('is_active', e.target.checked)} />{' '}
              {t('products.onSale')}
            </span>
          </label>
        </div>
      </fieldset>
      {LOCALES.map((locale) => (
        <fieldset key={locale} className="panel stack" lang={locale}>
          <legend>{t(`products.texts.${locale}`)}</legend>
          <div className="row">
            <label className="field grow">
              <span>{t('products.description')}</span>
              <textarea
                rows={4}
                maxLength={PRODUCT_TEXT_MAX}
                value={draft.descriptions[locale]}
                onChange={(e) => setText('descriptions', locale, e.target.value)}
              />
              <FieldError text={errorOf(`descriptions.${locale}`)} />
            </label>
            <label className="field grow">
              <span>{t('products.instructions')}</span>
              <textarea
                rows={4}
                maxLength={PRODUCT_TEXT_MAX}
                value={draft.activation_instructions[locale]}
                onChange={(e) => setText('activation_instructions', locale, e.target.value)}
              />
              <FieldError text={errorOf(`activation_instructions.${locale}`)} />
            </label>
          </div>
        </fieldset>
      ))}
      <p className="muted">{t('products.fallback')}</p>
      <div className="actions">
        <button type="submit" className="button primary" disabled={mutation.isPending}>
          {product ? t('products.save') : t('products.create')}
        </button>
        {mutation.isError && (
          <p className="error" role="alert">
            {errorText(t, error)}
          </p>
        )}
        {saved && !mutation.isPending && (
          <p className="notice" role="status">
            {t('products.saved')}
          </p>
        )}
      </div>
    </form>
  );
}
