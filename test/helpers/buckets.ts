import type { LatencyStats } from '../../shared/model/result.ts';
import type { BucketCounts } from '../../shared/model/shard-facts.ts';
import { recordedStats, ValueRecorder } from '../../electron/engine/recording/histogram.ts';

/** No values: what merging nothing gives. */
export const EMPTY_BUCKETS: BucketCounts = { indexes: [], counts: [], minNonZero: null, max: null };

/** Values held (the sum of the counts). */
export function bucketTotal(b: BucketCounts): number {
  return b.counts.reduce((a, c) => a + c, 0);
}

/** The figures (ms) of the values buckets hold (us), as a result gives them; null when empty. */
export function bucketStats(b: BucketCounts, percentiles: readonly number[]): LatencyStats | null {
  const r = new ValueRecorder();
  r.addBuckets(b);
  return recordedStats(r, percentiles);
}
