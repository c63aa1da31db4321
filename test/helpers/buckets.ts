import type { BucketCounts } from '../../shared/shards/merge.ts';

/** No values: what merging nothing gives. */
export const EMPTY_BUCKETS: BucketCounts = { indexes: [], counts: [], minNonZero: null, max: null };

/** Values held (the sum of the counts). */
export function bucketTotal(b: BucketCounts): number {
  return b.counts.reduce((a, c) => a + c, 0);
}
