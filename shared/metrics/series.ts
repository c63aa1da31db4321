import { WINDOW_BUCKET_BOUNDS_MS, WINDOW_BUCKETS, type WindowBuckets } from '../figures/window-buckets.ts';
import type { MetricDef } from './catalog.ts';
import { labelsKey, type Labels } from './labels.ts';

/*
 * The current value of every series of a job (counters, gauges, histograms), kept as the
 * job's samples are read (shared/metrics/part-feed.ts), and copied whole into a snapshot that
 * each way out writes in its own format. Counters are exact sums of the samples' counts. Pure.
 */

/** A histogram's bucket bounds in seconds: a Sample's window buckets (le="+Inf" past the last). */
export const HISTOGRAM_BOUNDS_SECONDS: readonly number[] = WINDOW_BUCKET_BOUNDS_MS.map(
  // 0.07 / 1000 is 0.00007000000000000001 in floating point: le="0.00007" is what a person reads.
  (ms) => Number((ms / 1000).toPrecision(12)),
);

interface SeriesBase {
  def: MetricDef;
  labels: Labels;
  /** When the series began, epoch ms (a cumulative stream's start in OTLP). */
  since: number;
}

export interface ScalarSeries extends SeriesBase {
  kind: 'scalar';
  value: number;
}

export interface HistogramSeries extends SeriesBase {
  kind: 'histogram';
  /** Per bucket (not cumulative), WINDOW_BUCKETS long: the last one past every bound. */
  counts: number[];
  count: number;
  /** The values' sum in seconds. */
  sum: number;
}

export type MetricSeries = ScalarSeries | HistogramSeries;

/** Every series of a job at one moment, epoch ms: what a push sends. */
export interface Snapshot {
  at: number;
  series: readonly MetricSeries[];
}

/** The series of one job, by metric and labels. */
export class MetricStore {
  readonly #series = new Map<string, MetricSeries>();
  readonly #now: () => number;
  /** The last snapshot's time: the next is later, since a series takes one value per timestamp. */
  #lastAt = -Infinity;

  constructor(now: () => number) {
    this.#now = now;
  }

  get size(): number {
    return this.#series.size;
  }

  #get<K extends MetricSeries['kind']>(
    def: MetricDef,
    labels: Labels,
    kind: K,
  ): Extract<MetricSeries, { kind: K }> {
    const key = `${def.name}${labelsKey(labels)}`;
    let series = this.#series.get(key);
    if (!series) {
      const base = { def, labels, since: this.#now() };
      series =
        kind === 'scalar'
          ? { ...base, kind: 'scalar', value: 0 }
          : {
              ...base,
              kind: 'histogram',
              counts: new Array<number>(WINDOW_BUCKETS).fill(0),
              count: 0,
              sum: 0,
            };
      this.#series.set(key, series);
    }
    return series as Extract<MetricSeries, { kind: K }>;
  }

  /** Adds to a counter (a negative delta takes back what a replaced sample added). */
  add(def: MetricDef, labels: Labels, delta: number): void {
    this.#get(def, labels, 'scalar').value += delta;
  }

  /** Sets a gauge. */
  set(def: MetricDef, labels: Labels, value: number): void {
    this.#get(def, labels, 'scalar').value = value;
  }

  /** Adds a window's buckets to a histogram (sign -1 takes them back). */
  addBuckets(def: MetricDef, labels: Labels, buckets: WindowBuckets, sign: 1 | -1): void {
    const h = this.#get(def, labels, 'histogram');
    buckets.counts.forEach((c, k) => {
      h.counts[k]! += sign * c;
      h.count += sign * c;
    });
    h.sum += (sign * buckets.sumMs) / 1000;
  }

  /** A copy of every series now (at least 1 ms after the snapshot before). */
  snapshot(): Snapshot {
    this.#lastAt = Math.max(this.#now(), this.#lastAt + 1);
    return {
      at: this.#lastAt,
      series: [...this.#series.values()].map((s) =>
        s.kind === 'scalar' ? { ...s } : { ...s, counts: [...s.counts] },
      ),
    };
  }
}
