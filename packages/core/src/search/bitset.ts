/**
 * Sets of product slots as bits, 32 to a word: intersecting two sets of 100,000 products is a few
 * thousand word operations, and walking a set goes in slot order.
 */
export type Bitset = Uint32Array;

export const wordsFor = (capacity: number) => Math.ceil(capacity / 32);

export function setBit(bits: Bitset, slot: number): void {
  bits[slot >>> 5] = (bits[slot >>> 5] as number) | (1 << (slot & 31));
}

export function clearBit(bits: Bitset, slot: number): void {
  bits[slot >>> 5] = (bits[slot >>> 5] as number) & ~(1 << (slot & 31));
}

export function hasBit(bits: Bitset, slot: number): boolean {
  return (((bits[slot >>> 5] as number) >>> (slot & 31)) & 1) === 1;
}

export function orInto(target: Bitset, source: Bitset): void {
  for (let w = 0; w < target.length; w++) target[w] = (target[w] as number) | (source[w] as number);
}

export function orSlotsInto(target: Bitset, slots: Int32Array, length: number): void {
  for (let i = 0; i < length; i++) {
    const slot = slots[i] as number;
    target[slot >>> 5] = (target[slot >>> 5] as number) | (1 << (slot & 31));
  }
}

/** Calls `visit` with every slot in the set, in ascending order, until it answers false. */
export function forEachSlot(bits: Bitset, visit: (slot: number) => boolean | undefined): void {
  for (let w = 0; w < bits.length; w++) {
    let word = bits[w] as number;
    while (word !== 0) {
      const lowest = word & -word;
      const slot = (w << 5) | (31 - Math.clz32(lowest));
      word ^= lowest;
      if (visit(slot) === false) return;
    }
  }
}

/** A growing list of ints without the boxing of a plain array. */
export class IntList {
  data: Int32Array;
  length = 0;

  constructor(capacity = 4) {
    this.data = new Int32Array(capacity);
  }

  push(value: number): void {
    if (this.length === this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = value;
  }
}
