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

/*
 * HdrHistogram's bucket layout for the histograms above (lowest discernible value 1, 3
 * significant digits): 2048 sub-buckets, the first bucket holding 0-2047 at full resolution
 * and each further one twice the range at the same 1024 steps. The highest trackable value
 * (an hour, in us) falls in bucket 21.
 */
const SUB_BUCKET_HALF_MAGNITUDE = 10;
const SUB_BUCKET_HALF_COUNT = 1 << SUB_BUCKET_HALF_MAGNITUDE;
const BUCKETS = 22;
const COUNTS_LENGTH = (BUCKETS + 1) * SUB_BUCKET_HALF_COUNT;

/** The counts index hdr-histogram-js gives value (an integer, 0 to HIGHEST_TRACKABLE_US). */
function indexOf(value: number): number {
  // Bucket: how many doublings above the first bucket's 0-2047 range; clz32 reads value as unsigned.
  const bucket = value < 2 * SUB_BUCKET_HALF_COUNT ? 0 : 21 - Math.clz32(value);
  return (bucket << SUB_BUCKET_HALF_MAGNITUDE) + (value >>> bucket);
}

/** The lowest value of counts index i (what hdr-histogram-js's valueFromIndex gives). */
function valueOf(i: number): number {
  const bucket = (i >> SUB_BUCKET_HALF_MAGNITUDE) - 1;
  if (bucket < 0) return i;
  return ((i & (SUB_BUCKET_HALF_COUNT - 1)) + SUB_BUCKET_HALF_COUNT) * 2 ** bucket;
}

/**
 * A per-request recording buffer for a Histogram: counts in HdrHistogram's own bucket layout,
 * indexed with a shift and a clz (about 12 ns a value, against 100 ns for hdr-histogram-js's
 * recordValue and its log2 and pow), moved into an hdr histogram by drainInto() when the
 * figures are read (once per tick, or once at the end). The result is the histogram the same
 * values would have built one by one: the same counts in the same buckets, the same exact
 * min and max. Values are whole microseconds; above an hour they count as an hour.
 */
export class ValueRecorder {
  private readonly counts = new Float64Array(COUNTS_LENGTH);
  private total = 0;
  private min = Infinity;
  private max = -1;

  /** Values recorded since the last drain. */
  get count(): number {
    return this.total;
  }

  record(us: number): void {
    const v = us > HIGHEST_TRACKABLE_US ? HIGHEST_TRACKABLE_US : us;
    this.counts[indexOf(v)]!++;
    this.total++;
    if (v > this.max) this.max = v;
    if (v < this.min && v !== 0) this.min = v;
  }

  /** Adds every value recorded since the last drain to h, then starts over. */
  drainInto(h: Histogram): void {
    if (this.total === 0) return;
    const counts = this.counts;
    // hdr keeps the exact min and max it was given: the extremes' buckets are recorded at
    // them (every value of a bucket lands on the same count), the others at their lowest value.
    const minAt = this.min === Infinity ? -1 : indexOf(this.min);
    const maxAt = indexOf(this.max);
    for (let i = 0; i < COUNTS_LENGTH; i++) {
      const c = counts[i]!;
      if (c === 0) continue;
      counts[i] = 0;
      if (i === maxAt && i === minAt) {
        if (c > 1) h.recordValueWithCount(this.min, c - 1);
        h.recordValue(this.max);
      } else if (i === maxAt) {
        h.recordValueWithCount(this.max, c);
      } else if (i === minAt) {
        h.recordValueWithCount(this.min, c);
      } else {
        h.recordValueWithCount(valueOf(i), c);
      }
    }
    this.total = 0;
    this.min = Infinity;
    this.max = -1;
  }
}

export function encodeHistogram(h: Histogram): string {
  return hdr.encodeIntoCompressedBase64(h);
}

export function decodeHistogram(encoded: string): Histogram {
  return hdr.decodeFromCompressedBase64(encoded, 'packed');
}

const usToMs = (us: number): number => us / 1000;

/** Summary of a microsecond histogram in milliseconds; null when it holds no value. */
export function latencyStats(h: Histogram, percentiles: readonly number[]): LatencyStats | null {
  if (h.totalCount === 0) return null;
  const out: Record<string, number> = {};
  for (const p of percentiles) out[String(p)] = usToMs(h.getValueAtPercentile(p));
  return {
    min: usToMs(h.minNonZeroValue === Number.MAX_SAFE_INTEGER ? 0 : h.minNonZeroValue),
    mean: usToMs(h.mean),
    stdev: usToMs(h.stdDeviation),
    max: usToMs(h.maxValue),
    percentiles: out,
  };
}
