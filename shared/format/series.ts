/**
 * The lines the charts over time draw from a run's samples: the live charts in the app, the
 * report's and the HTML report's. One list, so every latency chart shows the same percentiles.
 */
import type { Sample } from '../model/result.ts';

export interface SampleLine {
  id: 'rps' | 'p50' | 'p90' | 'p99';
  label: string;
  /** The line's value at a sample; null is a gap (a window without responses). */
  value: (s: Sample) => number | null;
}

/** Requests per second, window by window. */
export const THROUGHPUT_SERIES: readonly SampleLine[] = [
  { id: 'rps', label: 'req/s', value: (s) => s.requestsPerSecond },
];

/**
 * Latency window by window: the median, p90 and p99. The window's max is left out: one
 * outlier would flatten the three lines against the axis (the CSV keeps it).
 */
export const LATENCY_SERIES: readonly SampleLine[] = [
  { id: 'p50', label: 'p50', value: (s) => s.latency?.p50 ?? null },
  { id: 'p90', label: 'p90', value: (s) => s.latency?.p90 ?? null },
  { id: 'p99', label: 'p99', value: (s) => s.latency?.p99 ?? null },
];
