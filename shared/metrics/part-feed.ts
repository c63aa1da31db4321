import type { MachineSample } from '../model/machine-facts.ts';
import type { RunResult, Sample } from '../model/result.ts';
import type { Load } from '../model/scenario.ts';
import type { WindowBuckets } from '../figures/window-buckets.ts';
import type { ResourceSample } from '../model/server-resources.ts';
import { METRICS, NO_RESPONSE_STATUS, OTHER_URLS, type MetricDef } from './catalog.ts';
import { labelValue, type Labels } from './labels.ts';
import type { MetricStore } from './series.ts';

/*
 * One part's samples, server readings and machine readings as metric values (docs/metrics.md), read as they
 * come, in a job's MetricStore. A counter adds each measured window's counts (warm-up left
 * out), so its value is the exact sum of the samples'; a sample at the last one's seq takes
 * its place (the engine's final fold, the server's last reading: shared/figures/sample-series.ts),
 * so what the one it replaces added is taken back first. Gauges take the last value. Pure.
 */

/** What a sample or a reading added: taken back when the next one replaces it. */
interface Contribution {
  seq: number;
  counters: { def: MetricDef; labels: Labels; delta: number }[];
  buckets: { def: MetricDef; labels: Labels; buckets: WindowBuckets }[];
}

/** A sample's counts by the requests_total status label: its status codes, and the requests that got no response. */
export function requestsByStatus(counts: {
  requests: number;
  statusCodes: Record<string, number>;
}): [status: string, count: number][] {
  const out = Object.entries(counts.statusCodes).filter(([, n]) => n > 0);
  const answered = out.reduce((sum, [, n]) => sum + n, 0);
  if (counts.requests > answered) out.push([NO_RESPONSE_STATUS, counts.requests - answered]);
  return out;
}

export class PartFeed {
  readonly #store: MetricStore;
  readonly #labels: Labels;
  /** The closed model's connections when no stage sets them (a sample's own figure wins). */
  readonly #fixedConnections: number | null;
  readonly #last = new Map<'engine' | 'server', Contribution>();

  constructor(store: MetricStore, labels: Labels, load: Load) {
    this.#store = store;
    this.#labels = labels;
    this.#fixedConnections = load.model === 'closed' && !load.stages ? load.connections : null;
  }

  /** One engine sample (a tick). */
  sample(s: Sample): void {
    const c: Contribution = { seq: s.seq, counters: [], buckets: [] };
    if (!s.warmup) {
      const count = (def: MetricDef, delta: number, own: Labels = {}): void => {
        if (delta > 0) c.counters.push({ def, labels: { ...this.#labels, ...own }, delta });
      };
      for (const [status, n] of requestsByStatus(s)) count(METRICS.requests, n, { status });
      for (const [kind, n] of Object.entries(s.errors)) count(METRICS.errors, n ?? 0, { kind });
      count(METRICS.late, s.late ?? 0);
      // The window's bytes: the rate was made from a whole number of bytes over the interval.
      count(METRICS.received, Math.round(s.bytesInPerSecond * s.intervalSeconds));
      count(METRICS.generatorCpu, ((s.cpuPercent ?? 0) / 100) * s.intervalSeconds);
      if (s.latencyBuckets)
        c.buckets.push({ def: METRICS.duration, labels: this.#labels, buckets: s.latencyBuckets });
      if (s.sendLatenessBuckets) {
        c.buckets.push({ def: METRICS.lateness, labels: this.#labels, buckets: s.sendLatenessBuckets });
      }
    }
    this.#apply('engine', c);
    this.#store.set(METRICS.inFlight, this.#labels, s.inFlight);
    const connections = s.connections ?? this.#fixedConnections;
    if (connections !== null) this.#store.set(METRICS.connections, this.#labels, connections);
  }

  /** One reading of the target's server (target.monitor). */
  reading(r: ResourceSample): void {
    const c: Contribution = { seq: r.seq, counters: [], buckets: [] };
    if (!r.warmup && r.cpuSeconds !== undefined && r.cpuSeconds > 0) {
      c.counters.push({ def: METRICS.serverCpu, labels: this.#labels, delta: r.cpuSeconds });
    }
    this.#apply('server', c);
    if (r.rssBytes !== undefined) this.#store.set(METRICS.serverMemory, this.#labels, r.rssBytes);
  }

  /** One reading of the machine the generator runs on; a tick without one (a gap) leaves the last. */
  machine(m: MachineSample): void {
    if (m.gap === undefined) this.#store.set(METRICS.machineCpu, this.#labels, m.cpuBusyPercent / 100);
  }

  /** The part's result: the per-URL table's rows, which only the result has. */
  result(result: RunResult): void {
    for (const row of result.urls?.rows ?? []) {
      const url = row.request === null ? OTHER_URLS : labelValue(`${row.request.method} ${row.request.url}`);
      for (const [status, n] of requestsByStatus(row)) {
        this.#store.add(METRICS.urlRequests, { ...this.#labels, url, status }, n);
      }
    }
  }

  /** Adds a contribution, first taking back the one it replaces (the same source at the same seq). */
  #apply(source: 'engine' | 'server', c: Contribution): void {
    const replaced = this.#last.get(source);
    if (replaced?.seq === c.seq) {
      for (const x of replaced.counters) this.#store.add(x.def, x.labels, -x.delta);
      for (const x of replaced.buckets) this.#store.addBuckets(x.def, x.labels, x.buckets, -1);
    }
    for (const x of c.counters) this.#store.add(x.def, x.labels, x.delta);
    for (const x of c.buckets) this.#store.addBuckets(x.def, x.labels, x.buckets, 1);
    this.#last.set(source, c);
  }
}
