import { type Category, COUNTRY_LABEL_CUT, type Country, type SortMode, USER_SORTS } from '@store/contract';
import { useState } from 'react';
import { Select, type SelectOption } from '../../../components/ui/select.tsx';
import { cut } from '../../../lib/text.ts';
import { useTranslation } from '../../../lib/use-translation.tsx';
import type { ListingFilters } from '../api/listing-filters.ts';
import { useCountryName } from './country-label.tsx';
import { PriceRangeFilter } from './price-range-filter.tsx';
import styles from './product-filters.module.css';

const ALL = 'all';
const DEFAULT_SORT: SortMode = USER_SORTS.popular;

export interface ProductFiltersProps {
  value: ListingFilters;
  onChange: (next: ListingFilters) => void;
  priceRange: { min: number; max: number };
  currency: string;
  countries: readonly Country[];
  /** With these, a category select is shown; choosing one moves to that category. */
  categories?: readonly Category[];
  category?: string;
  onCategoryChange?: (slug: string) => void;
}

/** A new filter starts again from the first page. */
const withoutPage = ({ page: _page, ...rest }: ListingFilters): ListingFilters => rest;

/**
 * Price range, country, category and sort of a listing. The component only reports changes; the page
 * keeps them in its URL.
 */
export function ProductFilters({
  value,
  onChange,
  priceRange,
  currency,
  countries,
  categories,
  category,
  onCategoryChange,
}: ProductFiltersProps) {
  const { t } = useTranslation();
  const countryName = useCountryName();
  const [open, setOpen] = useState(false);
  const update = (patch: Partial<ListingFilters>) => onChange(withoutPage({ ...value, ...patch }));

  const countryOptions: SelectOption[] = [
    { value: ALL, label: t('filters.allCountries') },
    ...countries.map((country) => ({
      value: country.code,
      label: cut(countryName(country.code, country.name), COUNTRY_LABEL_CUT),
      icon: country.icon ? <img src={country.icon} alt="" width={20} height={16} /> : undefined,
    })),
  ];
  const sortOptions: SelectOption[] = Object.entries(USER_SORTS).map(([key, mode]) => ({
    value: mode,
    label: t(`filters.sorts.${key}`),
  }));
  const activeCount =
    (value.minPrice !== undefined || value.maxPrice !== undefined ? 1 : 0) + (value.country?.length ? 1 : 0);
  const hasFilters = activeCount > 0 || (value.sort !== undefined && value.sort !== DEFAULT_SORT);

  return (
    <section className={styles.filters} aria-label={t('filters.title')} data-testid="filters">
      <div className={styles.topRow}>
        <button
          type="button"
          className={styles.toggle}
          aria-expanded={open}
          onClick={() => setOpen((current) => !current)}
          data-testid="filters-toggle"
        >
          {t('filters.title')}
          {activeCount > 0 && <span className={styles.toggleCount}>{activeCount}</span>}
        </button>
        <div className={styles.sort}>
          <Select
            label={t('filters.sort')}
            value={value.sort ?? DEFAULT_SORT}
            options={sortOptions}
            onValueChange={(sort) => update({ sort: sort === DEFAULT_SORT ? undefined : (sort as SortMode) })}
            testId="filter-sort"
          />
        </div>
      </div>
      <div className={`${styles.panel} ${open ? styles.panelOpen : ''}`}>
        <PriceRangeFilter
          minPrice={value.minPrice}
          maxPrice={value.maxPrice}
          baseMax={priceRange.max}
          currency={currency}
          onCommit={(bounds) => update(bounds)}
        />
        <Select
          label={t('filters.country')}
          value={value.country?.[0] ?? ALL}
          options={countryOptions}
          onValueChange={(code) => update({ country: code === ALL ? undefined : [code] })}
          testId="filter-country"
        />
        {categories && onCategoryChange && (
          <Select
            label={t('filters.category')}
            value={category ?? ''}
            options={categories.map((item) => ({
              value: item.id,
              label: item.formatted_name,
              icon: item.svg_path ? <img src={item.svg_path} alt="" width={20} height={20} /> : undefined,
            }))}
            onValueChange={onCategoryChange}
            testId="filter-category"
          />
        )}
        {hasFilters && (
          <button type="button" className={styles.reset} onClick={() => onChange({})} data-testid="filters-reset">
            {t('filters.reset')}
          </button>
        )}
      </div>
    </section>
  );
}
