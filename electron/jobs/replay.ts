import { partStarted, type JobEnvelope } from '../../shared/contract/jobs.ts';
import { SampleSeries } from '../../shared/figures/sample-series.ts';

/** An engine sample's envelope, under its tick's seq. */
interface SampleEntry {
  seq: number;
  envelope: JobEnvelope;
}

/**
 * A job's events as a page that took it up again needs them: a reloaded page (jobs.active)
 * and a reconnecting socket (jobs.events after the last n it got) read the same replay, the
 * host's one buffer of a job. Every event is kept in order but an engine sample that a
 * later one at its seq replaced (the engine's final fold): each part's samples are a
 * SampleSeries. The samples are the engine's own objects, shared with the part's result, not
 * copies. A finished part's samples stay: its result travels without them.
 */
export class JobReplay {
  readonly #events: JobEnvelope[] = [];
  readonly #samples = new Map<number, SampleSeries<SampleEntry>>();
  /** performance.now() when the part running now began its load; null between parts. */
  #partStartedAt: number | null = null;

  add(envelope: JobEnvelope): void {
    const { event } = envelope;
    if (event.type === 'sample' && event.source === 'engine') {
      let series = this.#samples.get(event.part);
      if (!series) this.#samples.set(event.part, (series = new SampleSeries()));
      series.add({ seq: event.sample.seq, envelope });
      return;
    }
    if (event.type === 'progress' && partStarted(event.progress) !== null)
      this.#partStartedAt = performance.now();
    if (event.type === 'result' || event.type === 'done') this.#partStartedAt = null;
    this.#events.push(envelope);
  }

  /** The events after the n-th (all of them for -1), in order. */
  after(n: number): JobEnvelope[] {
    const out = this.#events.filter((e) => e.n > n);
    for (const series of this.#samples.values())
      for (const { envelope } of series.items) if (envelope.n > n) out.push(envelope);
    return out.sort((a, b) => a.n - b.n);
  }

  /** Seconds since the part running now began its load; null between parts. */
  partElapsedSeconds(): number | null {
    const started = this.#partStartedAt;
    return started === null ? null : (performance.now() - started) / 1000;
  }
}
