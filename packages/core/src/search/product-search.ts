import type { ProductSummary, SortMode } from '@store/contract';

/**
 * The search port: everything the store asks of its catalogue search. The store runs one adapter,
 * an index in the API process built from the database and kept fresh by its change feed
 * (`createIndexedProductSearch`); a shop that outgrows one machine can put a search engine
 * (Meilisearch, OpenSearch) behind the same port, fed from the same change feed.
 */
export interface ProductSearch {
  /** Suggestions while the shopper types: products by name, and products whose article the text begins. */
  hints(text: string, limit: number): Promise<SearchHints>;
  /** A page of products: a search when `text` is set, a listing of a category or of the store otherwise. */
  products(query: ProductQuery): Promise<ProductHits>;
  /** Per category: how many products, their price range and the countries they are for. */
  categoryFacts(): Promise<Map<string, CategoryFacts>>;
  /** Called after the catalogue changed, so that caches above the port drop what they hold. */
  onChange(listener: () => void): () => void;
  close(): Promise<void>;
}

export interface SearchHints {
  /** Best match first; names are distinct. */
  byName: ProductHint[];
  /** Products whose article (the id) is the text, or begins with it; by article. */
  byArticle: ProductHint[];
}

/** What a hint shows of a product to help choose: its cover, price and region. */
export interface ProductHint {
  id: number;
  name: string;
  /** The category's slug. */
  category: string;
  thumbnail: string | null;
  /** In `currency`, the store's, for display. */
  price: number;
  currency: string;
  region: { code: string; name: string | null };
  /** The face value, in units of its currency. */
  nominal: { amount: number; currency: string };
}

export interface ProductQuery {
  /** The shopper's words; absent for a listing. */
  text?: string;
  /** A category slug. */
  category?: string;
  discountedOnly?: boolean;
  /** Absent: by relevance for a search, by popularity for a listing. */
  sort?: SortMode;
  minPriceMinor?: number;
  maxPriceMinor?: number;
  /** Nominal currency codes (ISO 4217). */
  currencies?: string[];
  /** Country codes. */
  countries?: string[];
  offset: number;
  limit: number;
}

export interface ProductHits {
  /** How many products match, over every page. */
  total: number;
  products: ProductSummary[];
  /** Prices of every product the text finds (before price, currency and country filters); null if none. */
  priceRange: { minMinor: number; maxMinor: number } | null;
}

export interface CategoryFacts {
  slug: string;
  productsCount: number;
  minPriceMinor: number;
  maxPriceMinor: number;
  /** Codes of the countries its products are for, in the order of the countries' table. */
  countries: string[];
}
