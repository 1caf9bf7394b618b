interface TrieNode {
  children: Map<string, TrieNode>;
  /** Ids of the words that end here. */
  ends: number[];
}

const node = (): TrieNode => ({ children: new Map(), ends: [] });

export interface FuzzyMatch {
  id: number;
  distance: number;
}

/**
 * The catalogue's words for typo-tolerant lookup: the words within a few edits of what was typed
 * (a dropped, added, wrong or swapped letter each count one, as in Damerau's optimal string
 * alignment), walking the trie once with one row of the edit table per letter, so a lookup costs
 * what the nearby branches cost, not the size of the vocabulary.
 */
export class WordTrie {
  private readonly root = node();

  add(word: string, id: number): void {
    let current = this.root;
    for (const letter of word) {
      let next = current.children.get(letter);
      if (!next) {
        next = node();
        current.children.set(letter, next);
      }
      current = next;
    }
    current.ends.push(id);
  }

  /**
   * Words within `maxDistance` edits of `query`; with `prefix`, words that begin with something
   * within that distance (what a shopper still typing means), at the distance of their best prefix.
   */
  search(query: string, maxDistance: number, prefix: boolean): FuzzyMatch[] {
    const letters = [...query];
    const width = letters.length + 1;
    const first = Array.from({ length: width }, (_, j) => j);
    const found = new Map<number, number>();
    const record = (id: number, distance: number) => {
      const known = found.get(id);
      if (known === undefined || distance < known) found.set(id, distance);
    };
    const collect = (from: TrieNode, distance: number) => {
      for (const id of from.ends) record(id, distance);
      for (const child of from.children.values()) collect(child, distance);
    };

    const walk = (
      at: TrieNode,
      letter: string,
      previous: string | undefined,
      above: number[],
      twoAbove: number[] | undefined,
      bestOnPath: number,
    ) => {
      const row = new Array<number>(width);
      row[0] = (above[0] as number) + 1;
      let best = row[0];
      for (let j = 1; j < width; j++) {
        const cost = letters[j - 1] === letter ? 0 : 1;
        let value = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1, (above[j - 1] as number) + cost);
        if (twoAbove && j > 1 && letters[j - 2] === letter && letters[j - 1] === previous) {
          value = Math.min(value, (twoAbove[j - 2] as number) + 1);
        }
        row[j] = value;
        if (value < best) best = value;
      }
      const distance = row[width - 1] as number;
      // A prefix nearer than any before it on this path brings the words below it at that distance.
      if (prefix && distance <= maxDistance && distance < bestOnPath) collect(at, distance);
      else if (!prefix && distance <= maxDistance) for (const id of at.ends) record(id, distance);
      if (best > maxDistance) return;
      for (const [next, child] of at.children) {
        walk(child, next, letter, row, above, Math.min(bestOnPath, distance));
      }
    };

    // Shorter text than the edits allowed would match anything: callers never ask for that.
    if (letters.length <= maxDistance) return [];
    for (const [letter, child] of this.root.children) walk(child, letter, undefined, first, undefined, letters.length);
    return [...found].map(([id, distance]) => ({ id, distance }));
  }
}
