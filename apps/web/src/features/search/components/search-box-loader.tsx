import { SEARCH_MAX } from '@store/contract';
import { type FormEvent, lazy, type RefObject, Suspense, useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { SearchIcon } from '../../../components/ui/icons.tsx';
import { useTranslation } from '../../../lib/use-translation.tsx';
import styles from './search-box.module.css';
import type { SearchBoxProps } from './search-box.tsx';
import { queryOfPath, searchPath } from './search-path.ts';

// The box with its hints is a module of its own: it is on every page, but the first paint only needs
// a field to type in. It loads right after the first render; until then the field below takes the
// text (Enter searches), and hands text and focus over when the box arrives.
const loadSearchBox = () => import('./search-box.tsx');
const SearchBox = lazy(() => loadSearchBox().then((module) => ({ default: module.SearchBox })));

function SearchField({ inputRef, autoFocus }: { inputRef: RefObject<HTMLInputElement | null>; autoFocus?: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const text = inputRef.current?.value.trim() ?? '';
    navigate(text ? searchPath(text) : '/');
  };
  return (
    <search className={styles.box}>
      <form className={styles.form} onSubmit={onSubmit}>
        <SearchIcon size={18} className={styles.icon} />
        <input
          ref={inputRef}
          className={styles.input}
          type="search"
          enterKeyHint="search"
          autoComplete="off"
          spellCheck={false}
          // biome-ignore lint/a11y/noAutofocus: the mobile search row opens on request and wants the caret
          autoFocus={autoFocus}
          defaultValue={queryOfPath(pathname)}
          maxLength={SEARCH_MAX}
          placeholder={t('search.placeholder')}
          aria-label={t('search.label')}
        />
        <button type="submit" className={styles.submit} aria-label={t('search.submit')}>
          <SearchIcon size={18} />
        </button>
      </form>
    </search>
  );
}

export function SearchBoxLoader(props: SearchBoxProps) {
  const fieldRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    void loadSearchBox();
  }, []);
  return (
    <Suspense fallback={<SearchField inputRef={fieldRef} autoFocus={props.autoFocus} />}>
      <SearchBox {...props} handoff={fieldRef} />
    </Suspense>
  );
}
