/** Latencies are recorded in microseconds, 3 significant digits, up to one hour. */
export const HIGHEST_TRACKABLE_US = 3_600_000_000;

/*
 * HdrHistogram's bucket layout of the engine's histograms (histogram.ts, window-slots.ts):
 * lowest discernible value 1, 3 significant digits, so 2048 sub-buckets, the first bucket
 * holding 0-2047 at full resolution and each further one twice the range at the same 1024
 * steps. The highest trackable value (an hour, in us) falls in bucket 21.
 */
export const SUB_BUCKET_HALF_MAGNITUDE = 10;
export const SUB_BUCKET_HALF_COUNT = 1 << SUB_BUCKET_HALF_MAGNITUDE;
const BUCKETS = 22;
/** Counts in one histogram of this layout (23,552). */
export const COUNTS_LENGTH = (BUCKETS + 1) * SUB_BUCKET_HALF_COUNT;

/** The counts index hdr-histogram-js gives value (an integer, 0 to HIGHEST_TRACKABLE_US). */
export function indexOf(value: number): number {
  // Bucket: how many doublings above the first bucket's 0-2047 range; clz32 reads value as unsigned.
  const bucket = value < 2 * SUB_BUCKET_HALF_COUNT ? 0 : 21 - Math.clz32(value);
  return (bucket << SUB_BUCKET_HALF_MAGNITUDE) + (value >>> bucket);
}

/** The lowest value of counts index i (what hdr-histogram-js's valueFromIndex gives). */
export function lowestOf(i: number): number {
  const bucket = (i >> SUB_BUCKET_HALF_MAGNITUDE) - 1;
  if (bucket < 0) return i;
  return ((i & (SUB_BUCKET_HALF_COUNT - 1)) + SUB_BUCKET_HALF_COUNT) * 2 ** bucket;
}

/** The middle of index i's range of equivalent values (hdr's medianEquivalentValue). */
export function medianOf(i: number): number {
  const bucket = (i >> SUB_BUCKET_HALF_MAGNITUDE) - 1;
  return bucket <= 0 ? lowestOf(i) : lowestOf(i) + 2 ** (bucket - 1);
}

/** The highest value of index i's range (hdr's highestEquivalentValue). */
export function highestOf(i: number): number {
  const bucket = (i >> SUB_BUCKET_HALF_MAGNITUDE) - 1;
  return lowestOf(i) + (bucket <= 0 ? 1 : 2 ** bucket) - 1;
}
