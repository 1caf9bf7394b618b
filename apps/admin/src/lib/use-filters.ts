import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';

/**
 * A list's filters and page live in the address: a reload, a shared link and the back button keep
 * them. Changing a filter goes back to the first page.
 */
export function useFilters<K extends string>(keys: readonly K[]) {
  const [params, setParams] = useSearchParams();
  const filters = useMemo(
    () => Object.fromEntries(keys.map((key) => [key, params.get(key) ?? ''])) as Record<K, string>,
    [params, keys],
  );
  const page = Math.max(1, Number(params.get('page')) || 1);

  const setFilters = useCallback(
    (next: Partial<Record<K, string>>) => {
      setParams((current) => {
        const updated = new URLSearchParams(current);
        for (const [key, value] of Object.entries(next) as [K, string | undefined][]) {
          if (value) updated.set(key, value);
          else updated.delete(key);
        }
        updated.delete('page');
        return updated;
      });
    },
    [setParams],
  );
  const setPage = useCallback(
    (next: number) =>
      setParams((current) => {
        const updated = new URLSearchParams(current);
        if (next > 1) updated.set('page', String(next));
        else updated.delete('page');
        return updated;
      }),
    [setParams],
  );
  return { filters, page, setFilters, setPage };
}

/** The values of a filter form, as the list's filters. */
export function formFilters<K extends string>(form: HTMLFormElement, keys: readonly K[]): Record<K, string> {
  const data = new FormData(form);
  return Object.fromEntries(keys.map((key) => [key, String(data.get(key) ?? '').trim()])) as Record<K, string>;
}
