import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { toSearch } from '../../../lib/api-client.ts';
import { filtersToParams, type ListingFilters, parseListingFilters } from '../api/listing-filters.ts';

/** Listing filters live in the page URL: a filtered page can be shared and survives a reload. */
export function useListingFilters() {
  const [searchParams, setSearchParams] = useSearchParams();
  const filters = useMemo(() => parseListingFilters(searchParams), [searchParams]);
  const setFilters = useCallback(
    (next: ListingFilters) => {
      setSearchParams(new URLSearchParams(toSearch(filtersToParams(next))));
    },
    [setSearchParams],
  );
  return [filters, setFilters] as const;
}
