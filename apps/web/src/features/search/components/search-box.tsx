import { SEARCH_DEBOUNCE_MS, SEARCH_MAX } from '@store/contract';
import {
  type FormEvent,
  type KeyboardEvent,
  lazy,
  type RefObject,
  Suspense,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { CloseIcon, SearchIcon } from '../../../components/ui/icons.tsx';
import { cut } from '../../../lib/text.ts';
import { useDebouncedValue } from '../../../lib/use-debounced-value.ts';
import { useLocale } from '../../../lib/use-locale.ts';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { useSearchHints } from '../api/get-search-hints.ts';
import type { Hint } from './hint.ts';
import styles from './search-box.module.css';
import { queryOfPath, searchPath } from './search-path.ts';

// What an option shows beyond its name (cover, region, price) loads once the box is first used:
// the box is on every page, the list only on the pages where somebody types.
const loadHintOptionContent = () => import('./hint-option-content.tsx');
const HintOptionContent = lazy(loadHintOptionContent);

export interface SearchBoxProps {
  autoFocus?: boolean;
  /** Called after the box navigated somewhere (the mobile header closes its search row). */
  onNavigated?: () => void;
  /** The plain field shown while this module loaded: its text and focus carry over. */
  handoff?: RefObject<HTMLInputElement | null>;
}

/**
 * The search box: 68 characters at most, hints after 400 ms of quiet, Enter searches, a clear button. A
 * hint with an article opens the product; a hint by name searches for its text; an empty search goes
 * home.
 */
export function SearchBox({ autoFocus, onNavigated, handoff }: SearchBoxProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const listId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  // Read while rendering, before the commit that replaces the plain field.
  const [field] = useState(() => {
    const input = handoff?.current;
    return input ? { text: input.value.slice(0, SEARCH_MAX), focused: document.activeElement === input } : null;
  });
  const [value, setValue] = useState(() => field?.text ?? queryOfPath(pathname));
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const debounced = useDebouncedValue(value, SEARCH_DEBOUNCE_MS);
  const hints = useSearchHints(open ? debounced : '', useLocale());

  // A new page shows its own search text (none outside /search); the first render already has it.
  const shownPath = useRef(pathname);
  useEffect(() => {
    if (shownPath.current === pathname) return;
    shownPath.current = pathname;
    setValue(queryOfPath(pathname));
    setOpen(false);
  }, [pathname]);

  const options = useMemo<Hint[]>(() => {
    if (!hints.data || !debounced.trim()) return [];
    return [
      ...hints.data.hintsByName.map((hint) => ({ kind: 'name' as const, ...hint })),
      ...hints.data.hintsByArt.map((hint) => ({ kind: 'article' as const, ...hint })),
    ];
  }, [hints.data, debounced]);

  // A new list starts with nothing chosen.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the hints change, not on every render
  useEffect(() => {
    setActive(-1);
  }, [hints.data]);

  // The highlighted option stays in sight when the arrows move past the visible part of the list.
  useEffect(() => {
    if (active >= 0) document.getElementById(`${listId}-option-${active}`)?.scrollIntoView?.({ block: 'nearest' });
  }, [active, listId]);

  const finish = (to: string) => {
    setOpen(false);
    setActive(-1);
    inputRef.current?.blur();
    navigate(to);
    onNavigated?.();
  };

  const search = (text: string) => {
    const trimmed = text.trim();
    finish(trimmed ? searchPath(trimmed) : '/');
  };

  const choose = (hint: Hint) => {
    if (hint.kind === 'article') {
      finish(`/product/${hint.id}`);
    } else {
      setValue(hint.name.slice(0, SEARCH_MAX));
      search(hint.name);
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const hint = options[active];
    // Hints still showing for older text must not swallow the Enter meant for the new text.
    const fresh = value === debounced && !hints.isPlaceholderData;
    if (open && hint && fresh) choose(hint);
    else search(value);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (options.length === 0) return;
      event.preventDefault();
      setOpen(true);
      const step = event.key === 'ArrowDown' ? 1 : -1;
      // The caret cycles through the options and back to the text itself (-1).
      setActive((current) => {
        const next = current + step;
        if (next >= options.length) return -1;
        if (next < -1) return options.length - 1;
        return next;
      });
    } else if (event.key === 'Escape') {
      if (open) {
        event.preventDefault();
        setOpen(false);
        setActive(-1);
      }
    }
  };

  const clear = () => {
    setValue('');
    setActive(-1);
    setOpen(false);
    inputRef.current?.focus();
  };

  const showList = open && debounced.trim().length > 0 && (options.length > 0 || hints.isSuccess);
  const byName = options.filter((option) => option.kind === 'name');
  const byArticle = options.filter((option) => option.kind === 'article');
  const optionId = (index: number) => `${listId}-option-${index}`;

  const renderOption = (hint: Hint) => {
    const index = options.indexOf(hint);
    return (
      <div
        key={hint.kind === 'article' ? `a${hint.id}` : `n${hint.name}`}
        id={optionId(index)}
        role="option"
        tabIndex={-1}
        aria-selected={index === active}
        className={`${styles.option} ${index === active ? styles.active : ''}`}
        // The pointer only shows where it is (CSS :hover): Enter in the field runs what the keyboard
        // chose, never whatever option a new list happened to draw under a resting pointer.
        onMouseDown={(event) => event.preventDefault()}
        onClick={() => choose(hint)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') choose(hint);
        }}
      >
        <Suspense fallback={<span className={styles.optionText}>{cut(hint.name)}</span>}>
          <HintOptionContent hint={hint} />
        </Suspense>
      </div>
    );
  };

  return (
    <search
      className={styles.box}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
    >
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
          autoFocus={autoFocus || field?.focused}
          value={value}
          maxLength={SEARCH_MAX}
          placeholder={t('search.placeholder')}
          aria-label={t('search.label')}
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={showList}
          aria-controls={listId}
          aria-activedescendant={active >= 0 ? optionId(active) : undefined}
          onFocus={() => {
            setOpen(true);
            void loadHintOptionContent();
          }}
          onChange={(event) => {
            setValue(event.target.value.slice(0, SEARCH_MAX));
            setOpen(true);
            setActive(-1);
          }}
          onKeyDown={onKeyDown}
        />
        {value && (
          <button type="button" className={styles.clear} onClick={clear} aria-label={t('search.clear')}>
            <CloseIcon size={16} />
          </button>
        )}
        <button type="submit" className={styles.submit} aria-label={t('search.submit')}>
          <SearchIcon size={18} />
        </button>
      </form>
      <div role="status" className="visually-hidden">
        {showList && options.length > 0 ? t('search.hintsCount', { count: options.length }) : ''}
      </div>
      <div className={styles.popover} hidden={!showList}>
        <div id={listId} role="listbox" aria-label={t('search.hints')} className={styles.list}>
          {byName.length > 0 && (
            <div role="presentation" className={styles.group}>
              {t('search.byName')}
            </div>
          )}
          {byName.map(renderOption)}
          {byArticle.length > 0 && (
            <div role="presentation" className={styles.group}>
              {t('search.byArticle')}
            </div>
          )}
          {byArticle.map(renderOption)}
          {options.length === 0 && (
            <div role="presentation" className={styles.none}>
              {t('search.noHints')}
            </div>
          )}
        </div>
      </div>
    </search>
  );
}
