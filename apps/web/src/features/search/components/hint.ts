import type { SearchHintsResponse } from '@store/contract';

/** One option of the search box's list: a product found by its name or by its article. */
export type Hint =
  | ({ kind: 'name' } & SearchHintsResponse['hintsByName'][number])
  | ({ kind: 'article' } & SearchHintsResponse['hintsByArt'][number]);
