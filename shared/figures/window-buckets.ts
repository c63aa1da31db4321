import { z } from 'zod';

/*
 * A tick's latencies (or send lateness) counted in a few fixed buckets, carried by each Sample
 * so that a reader of the samples can build a histogram of the whole run by adding them: the
 * metrics out's trebuchet_request_duration_seconds (docs/metrics.md). The bounds are fixed, the
 * same in every sample of every run, so any two samples add bucket by bucket, exactly. The
 * engine's own HdrHistograms (3 significant digits) stay the run's percentiles; these are
 * coarser (each bound at most 1.67 times the one before, twice at 60 s), a Prometheus histogram's
 * resolution.
 * Pure.
 */

/**
 * Upper bounds of the buckets in ms, ascending: 1, 1.5, 2, 3, 5, 7 per decade from 50 us to
 * 60 s. A value counts in the first bucket whose bound it does not pass; past the last bound,
 * in one more bucket (Prometheus's le="+Inf").
 */
export const WINDOW_BUCKET_BOUNDS_MS: readonly number[] = [
  0.05, 0.07, 0.1, 0.15, 0.2, 0.3, 0.5, 0.7, 1, 1.5, 2, 3, 5, 7, 10, 15, 20, 30, 50, 70, 100, 150, 200, 300,
  500, 700, 1000, 1500, 2000, 3000, 5000, 7000, 10_000, 15_000, 20_000, 30_000, 60_000,
];

/** Buckets a window's counts can have: one per bound and one past the last. */
export const WINDOW_BUCKETS = WINDOW_BUCKET_BOUNDS_MS.length + 1;

const count = z.number().int().nonnegative();

export const windowBucketsSchema = z.strictObject({
  /**
   * counts[k]: values above bound k-1 and up to bound k (WINDOW_BUCKET_BOUNDS_MS); the last
   * possible one counts values past every bound. Trailing zeros are left out.
   */
  counts: z.array(count).min(1).max(WINDOW_BUCKETS),
  /** The values' sum in ms (each at its HdrHistogram bucket's middle, as the mean is). */
  sumMs: z.number().nonnegative(),
});
export type WindowBuckets = z.infer<typeof windowBucketsSchema>;

/** Counts with the trailing zeros left out (at least one count is kept). */
export function trimmedCounts(counts: readonly number[]): number[] {
  let end = counts.length;
  while (end > 1 && counts[end - 1] === 0) end--;
  return counts.slice(0, end);
}

/** Several windows' buckets as one (the shards' windows of one tick, a folded window); null when none has any. */
export function addWindowBuckets(list: readonly (WindowBuckets | undefined)[]): WindowBuckets | null {
  const given = list.filter((b): b is WindowBuckets => b !== undefined);
  if (given.length === 0) return null;
  const counts = new Array<number>(Math.max(...given.map((b) => b.counts.length))).fill(0);
  let sumMs = 0;
  for (const b of given) {
    b.counts.forEach((c, k) => (counts[k]! += c));
    sumMs += b.sumMs;
  }
  return { counts: trimmedCounts(counts), sumMs };
}

/** The bucket a value in ms counts in (binary search over the bounds). */
export function bucketOf(ms: number): number {
  let lo = 0;
  let hi = WINDOW_BUCKET_BOUNDS_MS.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ms <= WINDOW_BUCKET_BOUNDS_MS[mid]!) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
