import * as Slider from '@radix-ui/react-slider';
import { PRICE_FILTER_MAX_DIGITS, PRICE_SLIDER_STEP, PRICE_THRESHOLD_MIN } from '@store/contract';
import { type KeyboardEvent, useEffect, useState } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import styles from './product-filters.module.css';

export interface PriceBounds {
  minPrice?: number;
  maxPrice?: number;
}

interface PriceRangeFilterProps {
  /** The applied bounds; undefined means open on that side. */
  minPrice?: number;
  maxPrice?: number;
  /** The listing's price ceiling: the range's base maximum. */
  baseMax: number;
  currency: string;
  onCommit: (bounds: PriceBounds) => void;
}

/** Slider's top: the base maximum rounded up to a whole step, at least one step. */
export const sliderMax = (baseMax: number) =>
  Math.max(PRICE_SLIDER_STEP, Math.ceil(baseMax / PRICE_SLIDER_STEP) * PRICE_SLIDER_STEP);

/** Digits only, at most six of them. */
export const priceDigits = (text: string) => text.replace(/\D/g, '').slice(0, PRICE_FILTER_MAX_DIGITS);

/**
 * Bounds as the listing wants them: the threshold minimum and the slider top mean "no bound", and a
 * reversed pair is put in order.
 */
export function normaliseBounds(min: number | undefined, max: number | undefined, top: number): PriceBounds {
  let low = min !== undefined && min > PRICE_THRESHOLD_MIN ? min : undefined;
  let high = max !== undefined && max < top ? max : undefined;
  if (low !== undefined && high !== undefined && low > high) [low, high] = [high, low];
  return { minPrice: low, maxPrice: high };
}

/** One bound's text box: digits only, six at most, applied on blur or Enter. */
function PriceInput(props: {
  label: string;
  ariaLabel: string;
  placeholder: string;
  value: string;
  onChange: (text: string) => void;
  onCommit: () => void;
  onKeyDown: (event: KeyboardEvent<HTMLInputElement>) => void;
}) {
  return (
    <label className={styles.inputField}>
      <span className={styles.inputLabel}>{props.label}</span>
      <input
        className={styles.input}
        inputMode="numeric"
        pattern="[0-9]*"
        autoComplete="off"
        maxLength={PRICE_FILTER_MAX_DIGITS}
        placeholder={props.placeholder}
        value={props.value}
        aria-label={props.ariaLabel}
        onChange={(event) => props.onChange(priceDigits(event.target.value))}
        onBlur={props.onCommit}
        onKeyDown={props.onKeyDown}
      />
    </label>
  );
}

export function PriceRangeFilter({ minPrice, maxPrice, baseMax, currency, onCommit }: PriceRangeFilterProps) {
  const { t } = useTranslation();
  const top = sliderMax(baseMax);
  const [minText, setMinText] = useState(minPrice === undefined ? '' : String(minPrice));
  const [maxText, setMaxText] = useState(maxPrice === undefined ? '' : String(maxPrice));
  const [range, setRange] = useState<[number, number]>([minPrice ?? PRICE_THRESHOLD_MIN, maxPrice ?? top]);

  useEffect(() => {
    setMinText(minPrice === undefined ? '' : String(minPrice));
    setMaxText(maxPrice === undefined ? '' : String(maxPrice));
    setRange([Math.min(minPrice ?? PRICE_THRESHOLD_MIN, top), Math.min(maxPrice ?? top, top)]);
  }, [minPrice, maxPrice, top]);

  const commitBounds = (bounds: PriceBounds) => {
    if (bounds.minPrice !== minPrice || bounds.maxPrice !== maxPrice) onCommit(bounds);
  };

  const commitInputs = () => {
    const min = minText === '' ? undefined : Number(minText);
    const max = maxText === '' ? undefined : Number(maxText);
    commitBounds(normaliseBounds(min, max, Number.POSITIVE_INFINITY));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      commitInputs();
    }
  };

  return (
    <fieldset className={styles.price}>
      <legend className={styles.label}>{t('filters.price', { currency })}</legend>
      <Slider.Root
        className={styles.slider}
        min={PRICE_THRESHOLD_MIN}
        max={top}
        step={PRICE_SLIDER_STEP}
        minStepsBetweenThumbs={0}
        value={range}
        onValueChange={(next) => {
          const [low = PRICE_THRESHOLD_MIN, high = top] = next;
          setRange([low, high]);
          setMinText(low > PRICE_THRESHOLD_MIN ? String(low) : '');
          setMaxText(high < top ? String(high) : '');
        }}
        onValueCommit={([low, high]) => commitBounds(normaliseBounds(low, high, top))}
        data-testid="price-slider"
      >
        <Slider.Track className={styles.track}>
          <Slider.Range className={styles.range} />
        </Slider.Track>
        <Slider.Thumb className={styles.thumb} aria-label={t('filters.priceFrom')} />
        <Slider.Thumb className={styles.thumb} aria-label={t('filters.priceTo')} />
      </Slider.Root>
      <div className={styles.inputs}>
        <PriceInput
          label={t('filters.from')}
          ariaLabel={t('filters.priceFrom')}
          placeholder={String(PRICE_THRESHOLD_MIN)}
          value={minText}
          onChange={setMinText}
          onCommit={commitInputs}
          onKeyDown={onKeyDown}
        />
        <span className={styles.dash} aria-hidden="true">
          –
        </span>
        <PriceInput
          label={t('filters.to')}
          ariaLabel={t('filters.priceTo')}
          placeholder={String(top)}
          value={maxText}
          onChange={setMaxText}
          onCommit={commitInputs}
          onKeyDown={onKeyDown}
        />
      </div>
    </fieldset>
  );
}
