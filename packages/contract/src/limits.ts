/**
 * Business constants and validation limits, shared by server and client so that both sides enforce
 * the same numbers.
 */

/** The interface languages (docs/api.md, "Conventions"); every email and product text is written in each. */
export const LOCALES = ['pt-BR', 'en', 'ru', 'hi'] as const;

export const NAME_MIN = 4;
export const NAME_MAX = 16;
export const EMAIL_MAX = 128;
export const PASSWORD_MAX = 32;
/** New passwords: the strength bar's "too short" ends here, so the server refuses shorter ones. */
export const PASSWORD_MIN = 8;
/** The strength bar says "too short" for 1 to this many characters. */
export const PASSWORD_WEAK_MAX = 7;
export const PROMO_CODE_MIN = 3;
export const PROMO_CODE_MAX = 32;

export const TOPUP_MIN = 100;
export const TOPUP_MAX_DIGITS = 7;

export const SEARCH_MAX = 68;
export const SEARCH_DEBOUNCE_MS = 400;

export const PRICE_FILTER_MAX_DIGITS = 6;
export const PRICE_SLIDER_STEP = 50;
export const PRICE_THRESHOLD_MIN = 0;

export const BASKET_FLUSH_IDLE_MS = 10_000;
export const BASKET_FLUSH_MAX_CHANGES = 30;
export const BASKET_LOCK_RETRY_MS = 200;
export const BASKET_ADD_QUANTITY = 1;
/**
 * The most units of one product a basket line holds: gift cards are bought a few at a time, and a
 * cap keeps one customer from holding a whole pool of codes in a basket. Stock caps it further.
 */
export const BASKET_LINE_MAX = 10;
/** The most distinct products a basket holds. */
export const BASKET_LINES_MAX = 50;
/** The most changes one PATCH /basket accepts (the client flushes at BASKET_FLUSH_MAX_CHANGES). */
export const BASKET_CHANGES_MAX = 100;

export const NOTIFICATION_MS = 3_500;
export const PAYMENT_POLL_MS = 1_000;
export const USER_REFRESH_AFTER_SPEND_MS = 2_000;

export const CARD_NUMBER_DIGITS = 16;
export const CARD_TYPE_LOOKUP_DIGITS = 8;
export const CVV_MIN = 100;
export const CVV_MAX = 999;

export const TEXT_CUT = 50;
export const COUNTRY_LABEL_CUT = 15;

export const BREAKPOINTS = { mobile: 576, navbar: 768, outsideClick: 769, footer: 991 } as const;

/** Page size of product listings, and the most a caller may ask for with `limit`. */
export const PAGE_SIZE = 24;
export const PAGE_SIZE_MAX = 60;
/** Deep pages cost a scan; nobody browses past this. */
export const PAGE_MAX = 10_000;
export const OFFSET_MAX = 100_000;

export const REVIEW_PAGE_SIZE = 10;
export const REVIEW_TEXT_MIN = 3;
export const REVIEW_TEXT_MAX = 1_000;
export const SIMILAR_PRODUCTS = 8;
export const HINTS_PER_KIND = 8;

/** The store's currency: prices, balances and the basket total. */
export const STORE_CURRENCY = 'BRL';
