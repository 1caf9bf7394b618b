import type { PurchasedCode, PurchasedProduct } from '@store/contract';
import { useId, useRef, useState } from 'react';
import { formatDateTime, formatPrice } from '../../../lib/format.ts';
import { useLocale } from '../../../lib/use-locale.ts';
import { useTranslation } from '../../../lib/use-translation.tsx';
import styles from './purchases.module.css';

type CopyState = 'idle' | 'copied' | 'failed';

/** A code stays hidden until asked for (someone may be looking at the screen); copying works either way. */
function CodeRow({ code }: { code: PurchasedCode }) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  const [copy, setCopy] = useState<CopyState>('idle');
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  async function copyCode() {
    try {
      await navigator.clipboard.writeText(code.code);
      setCopy('copied');
    } catch {
      setCopy('failed');
    }
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopy('idle'), 3_000);
  }

  return (
    <li className={styles.code} data-testid="purchased-code">
      <span className={styles.codeLabel}>{t('purchases.code')}</span>
      {shown ? (
        <code className={styles.codeValue} data-testid="code-value">
          {code.code}
        </code>
      ) : (
        <span className={styles.codeValue} data-testid="code-value">
          <span aria-hidden="true">{'•'.repeat(Math.min(Math.max(code.code.length, 8), 16))}</span>
          <span className="visually-hidden">{t('purchases.hiddenCode')}</span>
        </span>
      )}
      <span className={styles.codeActions}>
        <button type="button" className={styles.small} aria-pressed={shown} onClick={() => setShown(!shown)}>
          {shown ? t('purchases.hide') : t('purchases.reveal')}
        </button>
        <button type="button" className={styles.small} onClick={() => void copyCode()}>
          {t('purchases.copy')}
        </button>
      </span>
      <span className={copy === 'failed' ? styles.copyFailed : styles.copied} role="status" data-testid="copy-status">
        {copy === 'copied' ? t('purchases.copied') : copy === 'failed' ? t('purchases.copyFailed') : ''}
      </span>
    </li>
  );
}

/** Numbered steps as a list; "1. Open..." loses its own number. */
const steps = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim().replace(/^\d+[.)]\s*/, ''))
    .filter(Boolean);

/**
 * A purchased product with its codes and activation steps; asking for the steps scrolls smoothly to
 * them.
 */
export function PurchasedProductCard({ product }: { product: PurchasedProduct }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const [open, setOpen] = useState(false);
  const stepsId = useId();
  const stepsRef = useRef<HTMLDivElement>(null);

  function toggleSteps() {
    const next = !open;
    setOpen(next);
    if (next) {
      requestAnimationFrame(() => stepsRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' }));
    }
  }

  return (
    <article className={styles.product} data-testid="purchased-product" aria-labelledby={`${stepsId}-name`}>
      <div className={styles.productHead}>
        <h3 className={styles.productName} id={`${stepsId}-name`}>
          {product.name}
        </h3>
        <span className={styles.muted}>
          {formatPrice(product.unit_price * product.quantity, product.currency, locale)}
        </span>
      </div>
      <p className={styles.muted}>
        {product.purchased_at &&
          `${t('purchases.purchasedAt', { date: formatDateTime(product.purchased_at, locale) })} · `}
        {t('purchases.quantity', { delivered: product.delivered, quantity: product.quantity })}
      </p>
      {product.delivered < product.quantity && <p className={styles.note}>{t('purchases.refunded')}</p>}
      {product.codes.length > 0 && (
        <ul className={styles.codes}>
          {product.codes.map((code) => (
            <CodeRow key={code.id} code={code} />
          ))}
        </ul>
      )}
      <button
        type="button"
        className={styles.link}
        aria-expanded={open}
        aria-controls={`${stepsId}-steps`}
        onClick={toggleSteps}
      >
        {t('purchases.instructions')}
      </button>
      <div
        id={`${stepsId}-steps`}
        ref={stepsRef}
        hidden={!open}
        className={styles.steps}
        data-testid="activation-steps"
      >
        <h4 className={styles.stepsTitle}>{t('purchases.instructionsTitle', { name: product.name })}</h4>
        <ol>
          {steps(product.activation_instructions).map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
      </div>
    </article>
  );
}
