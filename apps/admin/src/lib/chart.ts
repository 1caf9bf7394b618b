/**
 * The sales chart's geometry, apart from React so it can be tested: one bar a day, scaled to the
 * largest day, in a viewBox of `width` × `height` with `gap` between bars.
 */
export interface Bar {
  x: number;
  y: number;
  width: number;
  height: number;
  value: number;
}

export function salesBars(values: readonly number[], width: number, height: number, gap = 2): Bar[] {
  if (values.length === 0) return [];
  const most = Math.max(...values, 0);
  const slot = width / values.length;
  const barWidth = Math.max(slot - gap, 1);
  return values.map((value, index) => {
    const barHeight = most > 0 ? (Math.max(value, 0) / most) * height : 0;
    return { x: index * slot + gap / 2, y: height - barHeight, width: barWidth, height: barHeight, value };
  });
}
