import type { Labels } from './labels.ts';
import { HISTOGRAM_BOUNDS_SECONDS, type MetricSeries, type Snapshot } from './series.ts';

/*
 * Series as Prometheus's data model has them (what remote write sends and the scrape endpoint
 * serves): a counter or gauge is one series; a histogram is one cumulative `_bucket` series per
 * bound (le, "+Inf" last), `_sum` and `_count`. Pure.
 */

export interface PromSample {
  /** The series' name (`name_bucket`, `name_sum`, `name_count` for a histogram). */
  name: string;
  labels: Labels;
  value: number;
}

/** An le label's text, as Prometheus writes a float ("0.005", "+Inf"). */
const leText = (bound: number): string => (bound === Infinity ? '+Inf' : String(bound));

/** One series as Prometheus samples. */
export function promSamples(series: MetricSeries): PromSample[] {
  const { name } = series.def;
  if (series.kind === 'scalar') return [{ name, labels: series.labels, value: series.value }];
  const out: PromSample[] = [];
  let cumulative = 0;
  [...HISTOGRAM_BOUNDS_SECONDS, Infinity].forEach((bound, k) => {
    cumulative += series.counts[k]!;
    out.push({ name: `${name}_bucket`, labels: { ...series.labels, le: leText(bound) }, value: cumulative });
  });
  out.push({ name: `${name}_sum`, labels: series.labels, value: series.sum });
  out.push({ name: `${name}_count`, labels: series.labels, value: series.count });
  return out;
}

/** A remote-write time series: its labels (__name__ first, then by name) and its samples in time order. */
export interface TimeSeries {
  labels: { __name__: string; [name: string]: string };
  samples: { value: number; timestamp: number }[];
}

/** Snapshots (in time order) as remote write's time series, each with its samples in order. */
export function remoteWriteSeries(batch: readonly Snapshot[]): TimeSeries[] {
  const byKey = new Map<string, TimeSeries>();
  for (const snapshot of batch) {
    for (const series of snapshot.series) {
      for (const s of promSamples(series)) {
        // The remote write spec wants label names sorted; __name__ sorts first among lower-case names.
        const labels: TimeSeries['labels'] = { __name__: s.name };
        for (const k of Object.keys(s.labels).sort()) labels[k] = s.labels[k]!;
        const key = JSON.stringify(labels);
        let ts = byKey.get(key);
        if (!ts) {
          ts = { labels, samples: [] };
          byKey.set(key, ts);
        }
        ts.samples.push({ value: s.value, timestamp: snapshot.at });
      }
    }
  }
  return [...byKey.values()];
}
