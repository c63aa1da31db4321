import type { LatencyStats } from '../../shared/model/result.ts';

/**
 * HdrHistogram-style percentile axis: x = 1 / (1 - p), plotted on a log scale, so each
 * "nine" gets the same width (90% -> 10, 99% -> 100, 99.9% -> 1000, 99.99% -> 10000) and
 * the tail is as readable as the median.
 */

/** Where the maximum (100%, infinite on this scale) is drawn: one decade past 99.99%. */
export const MAX_X = 100_000;

/** Tick positions and their labels; the last one carries the maximum. */
export const PERCENTILE_TICKS: readonly { x: number; label: string }[] = [
  { x: 1, label: '0%' },
  { x: 10, label: '90%' },
  { x: 100, label: '99%' },
  { x: 1_000, label: '99.9%' },
  { x: 10_000, label: '99.99%' },
  { x: MAX_X, label: 'max' },
];

/** Percentile in percent (0..100) to its x position; 100 and beyond land on MAX_X. */
export function percentileToX(p: number): number {
  if (p >= 100) return MAX_X;
  const x = 1 / (1 - p / 100);
  return Math.min(x, MAX_X);
}

/** The inverse, for tooltips: x back to the percentile in percent. */
export function xToPercentile(x: number): number {
  if (x >= MAX_X) return 100;
  return (1 - 1 / x) * 100;
}

export interface PercentilePoint {
  /** Position on the log axis. */
  x: number;
  /** Latency in ms. */
  y: number;
  /** The percentile it stands for, in percent. */
  p: number;
}

/**
 * The distribution's points from a latency summary: the minimum at 0%, every percentile the
 * engine computed, the maximum at the end. Sorted by x; repeated x keep the larger latency.
 */
export function percentilePoints(stats: LatencyStats): PercentilePoint[] {
  const byX = new Map<number, PercentilePoint>();
  const add = (p: number, y: number): void => {
    const x = percentileToX(p);
    const prev = byX.get(x);
    if (!prev || y > prev.y) byX.set(x, { x, y, p });
  };
  add(0, stats.min);
  for (const [key, value] of Object.entries(stats.percentiles)) {
    const p = Number(key);
    if (Number.isFinite(p) && p >= 0) add(p, value);
  }
  add(100, stats.max);
  return [...byX.values()].sort((a, b) => a.x - b.x);
}

/** The label for a tick position, or '' for positions that get no label. */
export function tickLabel(x: number): string {
  const tick = PERCENTILE_TICKS.find((t) => Math.abs(Math.log10(t.x) - Math.log10(x)) < 1e-9);
  return tick ? tick.label : '';
}
