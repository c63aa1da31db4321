/*
 * Live metrics out (issue 39, docs/metrics.md): one more reader of a job's samples. The hub
 * wraps how each part of a job runs (a StartTarget) so that every engine sample and server
 * reading the part reports is also read into the job's series (shared/metrics/part-feed.ts),
 * after the job's own listener has it; a snapshot of the series then goes to each push
 * endpoint's queue (push-queue.ts: Prometheus remote write, OTLP) and a scrape endpoint reads
 * the series when scraped. Nothing in the engine's path waits for it: the reading is a few
 * additions per tick on the host, the pushes are asynchronous and bounded, and a failure of any
 * kind becomes a warning in the part's result, never a failed or slower run. A part's end waits
 * for its last snapshot at most END_WAIT_MS, and not at all for an endpoint already known slow.
 */
import type { Labels } from '../../shared/metrics/labels.ts';
import { partLabels, type JobLabels } from '../../shared/metrics/labels.ts';
import { deliveryWarning, notServedWarning } from '../../shared/metrics/delivery.ts';
import { listenAddressText, type MetricsOut, type MetricsPush } from '../../shared/metrics/outs.ts';
import { PartFeed } from '../../shared/metrics/part-feed.ts';
import { MetricStore, type MetricSeries } from '../../shared/metrics/series.ts';
import type { Warning } from '../../shared/model/result-parts.ts';
import type { StartTarget } from '../jobs/target-run.ts';
import { PushQueue, type PushWriter } from './push-queue.ts';
import type { ScrapeEndpoint } from './scrape-endpoint.ts';

/** The hub's bounds on time and memory (docs/metrics.md says why each is what it is). */
export interface MetricsTiming {
  /** A push not answered in this long is given up (and tried again): the endpoint is stalled. */
  pushTimeoutMs: number;
  /** A part's end waits this long at most for its last snapshot to be delivered. */
  endWaitMs: number;
  /** The first pause after a failed push (it doubles, up to 30 s). */
  backoffMs: number;
  /** Series held in one endpoint's queue at most, over all its snapshots. */
  maxQueuedSeries: number;
  /** Series in one push at most. */
  maxBatchSeries: number;
  /** A finished job's series stay this long for the scrape endpoint (a scraper's next visits). */
  keepEndedMs: number;
}

export const METRICS_TIMING: MetricsTiming = {
  pushTimeoutMs: 5000,
  endWaitMs: 2000,
  backoffMs: 1000,
  maxQueuedSeries: 100_000,
  maxBatchSeries: 20_000,
  keepEndedMs: 120_000,
};

interface Destination {
  push: MetricsPush;
  queue: PushQueue;
  close: () => Promise<void>;
}

interface JobSeries {
  store: MetricStore;
  running: number;
  /** When its last part ended; null while one runs. */
  endedAt: number | null;
}

export interface MetricsHubOptions {
  appVersion: string;
  timing?: Partial<MetricsTiming>;
  now?: () => number;
}

/** What a push endpoint is called in messages: "prometheus-rw http://…". */
const nameOf = (p: MetricsPush): string => `${p.kind} ${p.url}`;

export class MetricsHub {
  readonly #timing: MetricsTiming;
  readonly #now: () => number;
  readonly #appVersion: string;
  #destinations: Destination[] = [];
  #endpoint: ScrapeEndpoint | null = null;
  /** The address asked to listen on, and why it could not be (null: it listens, or none asked). */
  #listen: { text: string; problem: string | null } | null = null;
  #config = '';
  #configuring: Promise<void> = Promise.resolve();
  readonly #jobs = new Map<string, JobSeries>();
  #parts = 0;

  constructor(opts: MetricsHubOptions) {
    this.#timing = { ...METRICS_TIMING, ...opts.timing };
    this.#now = opts.now ?? Date.now;
    this.#appVersion = opts.appVersion;
  }

  /** Where the series are served for scraping; null when they are not. */
  get scrapeUrl(): string | null {
    return this.#endpoint?.url ?? null;
  }

  /** Why the asked address could not be listened on; null when it could, or none was asked. */
  get listenProblem(): string | null {
    return this.#listen?.problem ?? null;
  }

  /**
   * Sends metrics where `out` says from the next snapshot on. The push endpoints change at once;
   * the scrape endpoint is (re)opened by the promise returned (listenProblem says if it failed).
   */
  configure(out: MetricsOut): Promise<void> {
    const text = JSON.stringify(out);
    if (text === this.#config) return this.#configuring;
    const before: MetricsOut =
      this.#config === '' ? { push: [], listen: null } : (JSON.parse(this.#config) as MetricsOut);
    this.#config = text;
    const wanted = new Set(out.push.map(nameOf));
    for (const d of this.#destinations.filter((d) => !wanted.has(nameOf(d.push))))
      void this.#closeDestination(d);
    const kept = this.#destinations.filter((d) => wanted.has(nameOf(d.push)));
    const have = new Set(kept.map((d) => nameOf(d.push)));
    this.#destinations = [
      ...kept,
      ...out.push.filter((p) => !have.has(nameOf(p))).map((p) => this.#destination(p)),
    ];
    if (JSON.stringify(before.listen) !== JSON.stringify(out.listen)) {
      this.#configuring = this.#configuring.then(() => this.#relisten(out));
    }
    return this.#configuring;
  }

  async #relisten(out: MetricsOut): Promise<void> {
    await this.#endpoint?.close();
    this.#endpoint = null;
    this.#listen = null;
    if (!out.listen) return;
    const text = listenAddressText(out.listen);
    try {
      const { ScrapeEndpoint } = await import('./scrape-endpoint.ts');
      this.#endpoint = await ScrapeEndpoint.open(out.listen, () => this.#liveSeries());
      this.#listen = { text, problem: null };
    } catch (error) {
      this.#listen = { text, problem: error instanceof Error ? error.message : String(error) };
    }
  }

  #destination(push: MetricsPush): Destination {
    const { pushTimeoutMs: timeoutMs, endWaitMs: closeWaitMs } = this.#timing;
    // Each exporter's modules load with its first endpoint (OpenTelemetry's SDK is most of them).
    const writer: Promise<{ write: PushWriter; close: () => Promise<void> }> =
      push.kind === 'otlp'
        ? import('./otlp.ts').then(({ otlpWriter }) =>
            otlpWriter(push.url, { timeoutMs, closeWaitMs, appVersion: this.#appVersion }),
          )
        : import('./remote-write.ts').then(({ remoteWriteWriter }) =>
            remoteWriteWriter(push.url, { timeoutMs, userAgent: `trebuchet/${this.#appVersion}` }),
          );
    const queue = new PushQueue({
      write: async (batch) => (await writer).write(batch),
      maxSeries: this.#timing.maxQueuedSeries,
      maxBatchSeries: this.#timing.maxBatchSeries,
      backoffMs: this.#timing.backoffMs,
      now: this.#now,
    });
    // An exporter that could not load has nothing to close (each push said why it failed).
    return { push, queue, close: async () => (await writer.catch(() => null))?.close() };
  }

  async #closeDestination(d: Destination): Promise<void> {
    d.queue.close();
    await d.close();
  }

  /** Forgets the jobs ended more than keepEndedMs ago: a host's memory does not grow with its jobs. */
  #prune(): void {
    const now = this.#now();
    for (const [id, job] of this.#jobs) {
      if (job.endedAt !== null && now - job.endedAt > this.#timing.keepEndedMs) this.#jobs.delete(id);
    }
  }

  /** The series of the jobs running, and of those ended less than keepEndedMs ago. */
  #liveSeries(): MetricSeries[] {
    this.#prune();
    return [...this.#jobs.values()].flatMap((j) => j.store.snapshot().series);
  }

  #job(id: string): JobSeries {
    this.#prune();
    let job = this.#jobs.get(id);
    if (!job) {
      job = { store: new MetricStore(this.#now), running: 0, endedAt: null };
      this.#jobs.set(id, job);
    }
    return job;
  }

  /** A snapshot of the job's series to every push endpoint, tagged with the part that made it. */
  #pushSnapshot(job: JobSeries, tag: string): void {
    if (this.#destinations.length === 0) return;
    const snapshot = job.store.snapshot();
    for (const d of this.#destinations) d.queue.add(snapshot, tag);
  }

  /** The part's end: its last snapshot pushed and waited for (bounded), then what did not arrive as warnings. */
  async #partEnded(job: JobSeries, tag: string, problems: readonly string[]): Promise<Warning[]> {
    this.#pushSnapshot(job, tag);
    const destinations = [...this.#destinations];
    await Promise.all(destinations.map((d) => d.queue.settle(tag, this.#timing.endWaitMs)));
    const warnings: Warning[] = [];
    for (const d of destinations) {
      const a = d.queue.account(tag);
      d.queue.forget(tag);
      const unanswered = d.queue.busy
        ? `no answer within ${this.#timing.endWaitMs / 1000} s of the end`
        : null;
      const w = deliveryWarning({ where: nameOf(d.push), ...a, reason: d.queue.lastError ?? unanswered });
      if (w) warnings.push(w);
    }
    if (this.#listen?.problem) warnings.push(notServedWarning(this.#listen.text, this.#listen.problem));
    for (const p of problems) {
      warnings.push({
        code: 'metrics-not-delivered',
        message: `Live metrics could not be made: ${p}. The run's figures are not affected.`,
      });
    }
    return warnings;
  }

  /**
   * How the parts of one job run with their metrics read: each part's samples and readings go
   * on to `on` first, then into the job's series; its result comes back with a warning for
   * what did not reach an endpoint.
   */
  watch(job: JobLabels, start: StartTarget): StartTarget {
    return (scenario, targetIndex, on, ids) => {
      const series = this.#job(job.job);
      series.running++;
      series.endedAt = null;
      const labels: Labels = partLabels(job, scenario, targetIndex);
      const feed = new PartFeed(series.store, labels, scenario.load);
      const tag = `${job.job}#${++this.#parts}`;
      const problems: string[] = [];
      // A broken reading costs the metrics, never the run: said once, in the part's result.
      const read = (what: () => void, push: boolean): void => {
        try {
          what();
          if (push) this.#pushSnapshot(series, tag);
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          if (!problems.includes(message)) problems.push(message);
        }
      };
      const run = start(
        scenario,
        targetIndex,
        {
          started: () => on.started(),
          sample: (sample) => {
            on.sample(sample);
            read(() => feed.sample(sample), true);
          },
          // The next sample's snapshot carries these (server and machine readings fall on samples' ticks).
          reading: (reading) => {
            on.reading(reading);
            read(() => feed.reading(reading), false);
          },
          machine: (reading) => {
            on.machine(reading);
            read(() => feed.machine(reading), false);
          },
        },
        ids,
      );
      const ended = (): void => {
        series.running--;
        if (series.running === 0) series.endedAt = this.#now();
      };
      const done = run.done.then(
        async (result) => {
          try {
            if (result) read(() => feed.result(result), false);
            const warnings = await this.#partEnded(series, tag, problems);
            return result && warnings.length > 0
              ? { ...result, warnings: [...result.warnings, ...warnings] }
              : result;
          } finally {
            ended();
          }
        },
        (error: unknown) => {
          ended();
          throw error;
        },
      );
      return { done, stop: () => run.stop() };
    };
  }

  /** Stops sending and serving; whatever is still queued is dropped (each part's end already waited for its own). */
  async close(): Promise<void> {
    await this.#configuring;
    await Promise.all(this.#destinations.map((d) => this.#closeDestination(d)));
    this.#destinations = [];
    await this.#endpoint?.close();
    this.#endpoint = null;
  }
}
