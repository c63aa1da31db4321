import type { ScriptableContext } from 'chart.js';
import { withAlpha } from './palette.ts';

/**
 * Diagonal hatching in a colour, for a bar whose figure is not the server's (a caveat): the
 * same hue as its series, so the legend still matches, but plainly not a solid result.
 */
const patterns = new WeakMap<CanvasRenderingContext2D, Map<string, CanvasPattern>>();

/** A repeating hatch pattern for ctx; the colour itself where a pattern cannot be made. */
export function hatch(ctx: CanvasRenderingContext2D, color: string): CanvasPattern | string {
  const known = patterns.get(ctx) ?? new Map<string, CanvasPattern>();
  patterns.set(ctx, known);
  const cached = known.get(color);
  if (cached) return cached;
  const tile = document.createElement('canvas');
  tile.width = 8;
  tile.height = 8;
  const t = tile.getContext('2d');
  if (!t) return color;
  t.strokeStyle = color;
  t.lineWidth = 2;
  t.beginPath();
  // One stripe corner to corner, and the two halves that continue it across the tile's edges.
  for (const [x0, y0, x1, y1] of [
    [0, 8, 8, 0],
    [-2, 2, 2, -2],
    [6, 10, 10, 6],
  ] as const) {
    t.moveTo(x0, y0);
    t.lineTo(x1, y1);
  }
  t.stroke();
  const pattern = ctx.createPattern(tile, 'repeat');
  if (!pattern) return color;
  known.set(color, pattern);
  return pattern;
}

/**
 * A bar dataset's fill, outline width and corners, with the marked bars (a figure that is a
 * bound or has a caveat, not a clean result) hatched in their colour with a heavier outline.
 */
export function markedBarStyle(colorAt: (index: number) => string, marked: (index: number) => boolean) {
  const isMarked = (c: ScriptableContext<'bar'>): boolean => c.type === 'data' && marked(c.dataIndex);
  return {
    backgroundColor: (c: ScriptableContext<'bar'>) => {
      const color = colorAt(c.dataIndex);
      return isMarked(c) ? hatch(c.chart.ctx, color) : withAlpha(color, 0.8);
    },
    borderWidth: (c: ScriptableContext<'bar'>) => (isMarked(c) ? 2 : 1),
    borderRadius: 3,
  };
}
