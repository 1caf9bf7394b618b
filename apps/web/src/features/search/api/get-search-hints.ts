import { SearchHintsResponseSchema } from '@store/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet, segment } from '../../../lib/api-client.ts';

export const getSearchHints = (query: string, lang: string, signal?: AbortSignal) =>
  apiGet(`/search/hints/${segment(query)}`, SearchHintsResponseSchema, { params: { lang }, signal });

export const searchHintsQueryOptions = (query: string, lang: string) =>
  queryOptions({
    queryKey: ['search-hints', query, lang],
    queryFn: ({ signal }) => getSearchHints(query, lang, signal),
    staleTime: 5 * 60_000,
  });

/** Hints for the (already debounced) text; nothing is asked for blank text. */
export const useSearchHints = (query: string, lang: string) => {
  const trimmed = query.trim();
  return useQuery({
    ...searchHintsQueryOptions(trimmed, lang),
    enabled: trimmed.length > 0,
    placeholderData: keepPreviousData,
  });
};
