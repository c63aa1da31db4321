import * as hdr from 'hdr-histogram-js';
import type { LatencyStats } from '../../shared/result.ts';

/** Latencies are recorded in microseconds, 3 significant digits, up to one hour. */
const HIGHEST_TRACKABLE_US = 3_600_000_000;

export type Histogram = hdr.Histogram;

/**
 * A latency histogram. Plain typed-array buckets (about 90 KB at 32 bits, 180 KB at 64):
 * the 'packed' layout is ten times slower to record into and to read percentiles from,
 * which a per-response record and a per-tick percentile read cannot afford.
 * 'window' (32-bit counts) holds one tick; 'run' (64-bit counts) a whole run.
 */
export function newHistogram(kind: 'window' | 'run' = 'run'): Histogram {
  return hdr.build({
    bitBucketSize: kind === 'window' ? 32 : 64,
    lowestDiscernibleValue: 1,
    highestTrackableValue: HIGHEST_TRACKABLE_US,
    numberOfSignificantValueDigits: 3,
    autoResize: false,
  });
}

export function encodeHistogram(h: Histogram): string {
  return hdr.encodeIntoCompressedBase64(h);
}

export function decodeHistogram(encoded: string): Histogram {
  return hdr.decodeFromCompressedBase64(encoded, 'packed');
}

const usToMs = (us: number): number => us / 1000;

/**
 * The value at a percentile, never above the largest value recorded. The histogram answers
 * with the highest value its bucket stands for, which can lie above the recorded max
 * (149.631 ms for a 149.506 ms longest request); ab prints one number for 100% and the
 * longest request, and so do we.
 */
export function valueAtPercentile(h: Histogram, percentile: number): number {
  return percentile >= 100 ? h.maxValue : Math.min(h.getValueAtPercentile(percentile), h.maxValue);
}

/** Summary of a microsecond histogram in milliseconds; null when it holds no value. */
export function latencyStats(h: Histogram, percentiles: readonly number[]): LatencyStats | null {
  if (h.totalCount === 0) return null;
  const out: Record<string, number> = {};
  for (const p of percentiles) out[String(p)] = usToMs(valueAtPercentile(h, p));
  return {
    min: usToMs(h.minNonZeroValue === Number.MAX_SAFE_INTEGER ? 0 : h.minNonZeroValue),
    mean: usToMs(h.mean),
    stdev: usToMs(h.stdDeviation),
    max: usToMs(h.maxValue),
    percentiles: out,
  };
}
