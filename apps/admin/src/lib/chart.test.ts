import { describe, expect, it } from 'vitest';
import { salesBars } from './chart.ts';

describe('salesBars', () => {
  it('scales each day to the largest, bottom-aligned, one slot a day', () => {
    const bars = salesBars([0, 50, 100], 300, 100, 0);
    expect(bars.map((bar) => bar.height)).toEqual([0, 50, 100]);
    expect(bars.map((bar) => bar.y)).toEqual([100, 50, 0]);
    expect(bars.map((bar) => bar.x)).toEqual([0, 100, 200]);
    expect(bars.every((bar) => bar.width === 100)).toBe(true);
  });

  it('draws flat bars for days without sales, and nothing for no days', () => {
    expect(salesBars([0, 0], 100, 50).every((bar) => bar.height === 0)).toBe(true);
    expect(salesBars([], 100, 50)).toEqual([]);
  });
});
