import { GiftIcon } from '../../../components/ui/icons.tsx';
import { splitCoverText } from '../../../lib/text.ts';
import styles from './product-cover.module.css';

/** Cover art is 320 x 200; fixed dimensions keep the grid from jumping while images load. */
export const COVER_WIDTH = 320;
export const COVER_HEIGHT = 200;

interface ProductCoverProps {
  coverPath: string | null;
  coverText: string | null;
  /** Above-the-fold covers load at once; the rest wait until they scroll near. */
  eager?: boolean;
  size?: 'card' | 'page';
}

export function ProductCover({ coverPath, coverText, eager = false, size = 'card' }: ProductCoverProps) {
  const text = splitCoverText(coverText);
  return (
    <div className={`${styles.cover} ${size === 'page' ? styles.page : ''}`}>
      {coverPath ? (
        <img
          className={styles.image}
          src={coverPath}
          alt=""
          width={COVER_WIDTH}
          height={COVER_HEIGHT}
          loading={eager ? 'eager' : 'lazy'}
          decoding="async"
          fetchPriority={eager ? 'high' : 'auto'}
        />
      ) : (
        <div className={styles.placeholder} data-testid="cover-placeholder">
          <GiftIcon size={size === 'page' ? 64 : 40} />
        </div>
      )}
      {text && (
        <span className={styles.text} data-testid="cover-text">
          <span className={styles.first}>{text.first}</span>
          {text.rest && <span className={styles.rest}>{text.rest}</span>}
        </span>
      )}
    </div>
  );
}
