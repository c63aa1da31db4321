// Its modules, not its index: the index also loads the log reader and writer, whose module
// body builds an Intl.NumberFormat (~30 ms of CPU in every thread that loads it, at start).
import type * as hdrHistogram from 'hdr-histogram-js/dist/Histogram.js';
import { build } from 'hdr-histogram-js/dist/HistogramBuilder.js';
import { decodeFromCompressedBase64, encodeIntoCompressedBase64 } from 'hdr-histogram-js/dist/encoding.js';
import type { LatencyStats } from '../../../shared/model/result.ts';
import {
  bucketOf,
  trimmedCounts,
  WINDOW_BUCKETS,
  type WindowBuckets,
} from '../../../shared/figures/window-buckets.ts';
import type { BucketCounts } from '../../../shared/model/shard-facts.ts';
import {
  COUNTS_LENGTH,
  HIGHEST_TRACKABLE_US,
  highestOf,
  indexOf,
  medianOf,
  SUB_BUCKET_HALF_COUNT,
  SUB_BUCKET_HALF_MAGNITUDE,
  lowestOf,
} from './hdr-layout.ts';

export type Histogram = hdrHistogram.default;

/**
 * A latency histogram. Plain typed-array buckets (about 90 KB at 32 bits, 180 KB at 64):
 * the 'packed' layout is ten times slower to record into and to read percentiles from,
 * which a per-response record and a per-tick percentile read cannot afford.
 * 'window' (32-bit counts) holds one tick; 'run' (64-bit counts) a whole run.
 */
export function newHistogram(kind: 'window' | 'run' = 'run'): Histogram {
  return build({
    bitBucketSize: kind === 'window' ? 32 : 64,
    lowestDiscernibleValue: 1,
    highestTrackableValue: HIGHEST_TRACKABLE_US,
    numberOfSignificantValueDigits: 3,
    autoResize: false,
  });
}

/** A ValueRecorder's first counts: values up to 2 ms (16 KB). */
const FIRST_COUNTS = 2 * SUB_BUCKET_HALF_COUNT;

/** hdr-histogram-js's count at a percentile: the fp product rounded up, sparing 1 ulp of error. */
function countAtPercentile(percentile: number, total: number): number {
  const fp = (Math.min(percentile, 100) / 100) * total;
  return Math.max(Math.ceil(fp - 2 ** (Math.floor(Math.log2(fp)) - 52)), 1);
}

/** What hdr-histogram-js would say about a histogram, computed in one pass over its counts. */
export interface CountsSummary {
  count: number;
  /** The smallest value recorded, zeros included (hdr's value at percentile 0). */
  lowest: number;
  /** The smallest value above 0 recorded, 0 when there is none (hdr's minNonZeroValue). */
  minNonZero: number;
  max: number;
  mean: number;
  stdev: number;
  /** By percentile, as given. */
  percentiles: Map<number, number>;
  /** The same values in a Sample's fixed buckets (shared/figures/window-buckets.ts), each hdr bucket at its lowest value. */
  buckets: WindowBuckets;
}

/** A sample's bucket fields from its window's latency and lateness (absent when nothing was recorded). */
export function sampleBuckets(
  latency: { buckets: WindowBuckets } | null,
  lateness: { buckets: WindowBuckets } | null,
): { latencyBuckets?: WindowBuckets; sendLatenessBuckets?: WindowBuckets } {
  return {
    ...(latency === null ? {} : { latencyBuckets: latency.buckets }),
    ...(lateness === null ? {} : { sendLatenessBuckets: lateness.buckets }),
  };
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
  /**
   * Grown as values need (room()), from none: a run makes a recorder per phase, per stage and
   * per window whether or not it is used, most holding a few low values, and all 23,552 counts
   * each (184 KB, zeroed) cost a one-request run's 27 recorders ~5 MB and its collections
   * (issue 24). Past its length every count is 0.
   */
  private counts: Float64Array<ArrayBufferLike>;
  private total = 0;
  private min = Infinity;
  private max = -1;

  /** counts: fixed ones, COUNTS_LENGTH long (a window slot's, window-slots.ts), never grown nor replaced. */
  constructor(counts: Float64Array<ArrayBufferLike> = new Float64Array(0)) {
    this.counts = counts;
  }

  /**
   * What the counts hold when they were written elsewhere (a window slot, by the other
   * thread): `total` values, the smallest above 0 and the largest (Infinity and -1: none).
   */
  holding(total: number, min: number, max: number): void {
    this.total = total;
    this.min = min;
    this.max = max;
  }

  /** The smallest value above 0 since the last drain (Infinity: none), and the largest (-1: none). */
  get smallest(): number {
    return this.min;
  }

  get largest(): number {
    return this.max;
  }

  /** Values recorded since the last drain. */
  get count(): number {
    return this.total;
  }

  /** The counts, with room for index i: doubled from FIRST_COUNTS until it fits. */
  private room(i: number): Float64Array {
    if (i < this.counts.length) return this.counts;
    let length = Math.max(FIRST_COUNTS, this.counts.length);
    while (length <= i) length *= 2;
    const grown = new Float64Array(Math.min(length, COUNTS_LENGTH));
    grown.set(this.counts);
    return (this.counts = grown);
  }

  /**
   * The counts indexes that may be non-zero, first and last: every value recorded lies between
   * the min and the max, or is 0 (index 0). The passes below walk only these, not all 23,552
   * (most of a short run's CPU at its end, when the code has not been compiled yet).
   */
  private span(): { from: number; to: number } {
    const to = Math.min(indexOf(Math.max(this.max, 0)), this.counts.length - 1);
    if (this.max < 0 || to < 0) return { from: 0, to: -1 };
    const from = this.counts[0] !== 0 || this.min === Infinity ? 0 : indexOf(this.min);
    return { from, to };
  }

  record(us: number): void {
    const v = us > HIGHEST_TRACKABLE_US ? HIGHEST_TRACKABLE_US : us;
    const i = indexOf(v);
    (i < this.counts.length ? this.counts : this.room(i))[i]!++;
    this.total++;
    if (v > this.max) this.max = v;
    if (v < this.min && v !== 0) this.min = v;
  }

  /**
   * The figures hdr-histogram-js would give for what was recorded since the last drain (plus
   * `zeros` values of 0), computed from the counts in two quick passes instead of its
   * iterator's dozen (a pow per bucket, an object per value): the same sums in the same
   * order, so the same numbers, to the bit (tested), percentiles capped at the max as
   * valueAtPercentile caps them. Null when nothing was recorded.
   */
  summary(percentiles: readonly number[], zeros = 0): CountsSummary | null {
    const total = this.total + zeros;
    if (total === 0) return null;
    const counts = zeros > 0 ? this.room(0) : this.counts;
    if (zeros > 0) counts[0]! += zeros;
    const { from, to } = zeros > 0 ? { from: 0, to: Math.max(0, this.span().to) } : this.span();
    const targets = percentiles.map((p) => ({ p, count: countAtPercentile(p, total) }));
    const byCount = [...targets].sort((a, b) => a.count - b.count);
    const at = new Map<number, number>();
    const used: number[] = [];
    let cumulative = 0;
    let next = 0;
    let sum = 0;
    const buckets = new Array<number>(WINDOW_BUCKETS).fill(0);
    for (let i = from; i <= to; i++) {
      const c = counts[i]!;
      if (c === 0) continue;
      used.push(i);
      sum += medianOf(i) * c;
      buckets[bucketOf(lowestOf(i) / 1000)]! += c;
      cumulative += c;
      while (next < byCount.length && cumulative >= byCount[next]!.count) {
        const t = byCount[next++]!;
        // Never above the largest value recorded (see valueAtPercentile).
        at.set(t.p, t.p === 0 ? lowestOf(i) : Math.min(highestOf(i), Math.max(this.max, 0)));
      }
    }
    const mean = sum / total;
    let deviations = 0;
    for (const i of used) {
      const d = medianOf(i) - mean;
      deviations += d * d * counts[i]!;
    }
    if (zeros > 0) counts[0]! -= zeros;
    return {
      count: total,
      lowest: lowestOf(used[0]!),
      minNonZero: this.min === Infinity ? 0 : this.min,
      max: Math.max(this.max, 0),
      mean,
      stdev: Math.sqrt(deviations / total),
      percentiles: new Map(targets.map((t) => [t.p, at.get(t.p)!])),
      buckets: { counts: trimmedCounts(buckets), sumMs: sum / 1000 },
    };
  }

  /** Adds what was recorded since the last drain to another recorder, then starts over. */
  moveInto(other: ValueRecorder): void {
    this.addTo(other);
    this.clear();
  }

  /** Adds what was recorded since the last drain to another recorder, keeping it here too. */
  addTo(other: ValueRecorder): void {
    if (this.total === 0) return;
    const mine = this.counts;
    const { from, to } = this.span();
    const theirs = other.room(to);
    for (let i = from; i <= to; i++) if (mine[i] !== 0) theirs[i]! += mine[i]!;
    other.total += this.total;
    if (this.min < other.min) other.min = this.min;
    if (this.max > other.max) other.max = this.max;
  }

  /** Forgets what was recorded since the last drain. */
  clear(): void {
    if (this.total === 0) return;
    const { from, to } = this.span();
    this.counts.fill(0, from, to + 1);
    this.total = 0;
    this.min = Infinity;
    this.max = -1;
  }

  /** What was recorded since the last drain, as the used buckets (to send to another thread). */
  buckets(): BucketCounts {
    const indexes: number[] = [];
    const counts: number[] = [];
    if (this.total > 0) {
      const c = this.counts;
      const { from, to } = this.span();
      for (let i = from; i <= to; i++) {
        if (c[i] === 0) continue;
        indexes.push(i);
        counts.push(c[i]!);
      }
    }
    return {
      indexes,
      counts,
      minNonZero: this.min === Infinity ? null : this.min,
      max: this.max < 0 ? null : this.max,
    };
  }

  /** Adds values sent as buckets (see buckets()): the same as recording them here. */
  addBuckets(b: BucketCounts): void {
    for (let i = 0; i < b.indexes.length; i++) {
      const at = b.indexes[i]!;
      if (at >= COUNTS_LENGTH) continue;
      this.room(at)[at]! += b.counts[i]!;
      this.total += b.counts[i]!;
    }
    if (b.minNonZero !== null && b.minNonZero < this.min) this.min = b.minNonZero;
    if (b.max !== null && b.max > this.max) this.max = b.max;
  }

  /** Adds every value recorded since the last drain to h, then starts over. */
  drainInto(h: Histogram): void {
    this.addInto(h);
    this.clear();
  }

  /** Adds every value recorded since the last drain to h, keeping them here too. */
  addInto(h: Histogram): void {
    if (this.total === 0) return;
    const counts = this.counts;
    // hdr keeps the exact min and max it was given: the extremes' buckets are recorded at
    // them (every value of a bucket lands on the same count), the others at their lowest value.
    const minAt = this.min === Infinity ? -1 : indexOf(this.min);
    const maxAt = indexOf(this.max);
    const { from, to } = this.span();
    for (let i = from; i <= to; i++) {
      const c = counts[i]!;
      if (c === 0) continue;
      if (i === maxAt && i === minAt) {
        if (c > 1) h.recordValueWithCount(this.min, c - 1);
        h.recordValue(this.max);
      } else if (i === maxAt) {
        h.recordValueWithCount(this.max, c);
      } else if (i === minAt) {
        h.recordValueWithCount(this.min, c);
      } else {
        h.recordValueWithCount(lowestOf(i), c);
      }
    }
  }
}

export function encodeHistogram(h: Histogram): string {
  return encodeIntoCompressedBase64(h);
}

/** A histogram as encodeHistogram() wrote it, in newHistogram('run')'s layout (quick to read percentiles from). */
export function decodeHistogram(encoded: string): Histogram {
  return decodeFromCompressedBase64(encoded, 64);
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

/** What hdr-histogram-js's histograms hold beyond the Histogram interface (JsHistogram). */
interface CountsLayout {
  getCountAtIndex?: (index: number) => number;
  subBucketHalfCountMagnitude?: number;
  unitMagnitude?: number;
}

/**
 * hdr's mean and standard deviation of h (not empty), from its counts between the lowest and
 * the highest value recorded: its own getters walk every bucket up to the max with an iterator
 * object per step, ~20 ms of cold code at the end of a one-request run. The same sums in the
 * same order, so the same figures to the bit (tested). A histogram of another layout than
 * newHistogram's (none is made here) is left to hdr.
 */
export function moments(h: Histogram): { mean: number; stdev: number } {
  const js = h as Histogram & CountsLayout;
  const countAt = js.getCountAtIndex?.bind(h);
  if (!countAt || js.subBucketHalfCountMagnitude !== SUB_BUCKET_HALF_MAGNITUDE || js.unitMagnitude !== 0) {
    return { mean: h.mean, stdev: h.stdDeviation };
  }
  const total = h.totalCount;
  const from =
    countAt(0) !== 0 || h.minNonZeroValue === Number.MAX_SAFE_INTEGER ? 0 : indexOf(h.minNonZeroValue);
  const to = indexOf(h.maxValue);
  let sum = 0;
  for (let i = from; i <= to; i++) {
    const c = countAt(i);
    if (c !== 0) sum += medianOf(i) * c;
  }
  const mean = sum / total;
  let deviations = 0;
  for (let i = from; i <= to; i++) {
    const c = countAt(i);
    if (c === 0) continue;
    const d = medianOf(i) - mean;
    deviations += d * d * c;
  }
  return { mean, stdev: Math.sqrt(deviations / total) };
}

/** Summary of a microsecond histogram in milliseconds; null when it holds no value. */
export function latencyStats(h: Histogram, percentiles: readonly number[]): LatencyStats | null {
  if (h.totalCount === 0) return null;
  const { mean, stdev } = moments(h);
  const out: Record<string, number> = {};
  for (const p of percentiles) out[String(p)] = usToMs(valueAtPercentile(h, p));
  return {
    min: usToMs(h.minNonZeroValue === Number.MAX_SAFE_INTEGER ? 0 : h.minNonZeroValue),
    mean: usToMs(mean),
    stdev: usToMs(stdev),
    max: usToMs(h.maxValue),
    percentiles: out,
  };
}

/** latencyStats() of what a ValueRecorder holds (since its last drain), without a histogram. */
export function recordedStats(r: ValueRecorder, percentiles: readonly number[]): LatencyStats | null {
  const s = r.summary(percentiles);
  if (s === null) return null;
  const out: Record<string, number> = {};
  for (const p of percentiles) out[String(p)] = usToMs(s.percentiles.get(p)!);
  return {
    min: usToMs(s.minNonZero),
    mean: usToMs(s.mean),
    stdev: usToMs(s.stdev),
    max: usToMs(s.max),
    percentiles: out,
  };
}
