import type { Sample } from '../model/result.ts';
import { addSamples } from '../shards/combine.ts';

/**
 * The shards' ticks, as they arrive from their logs, as one run's live samples: window k of
 * the run is emitted once every shard still running has sent its window k (the shards share
 * one start, so their k-th windows cover the same moment), added by the merge a finished
 * run's samples use (shared/shards/combine.ts). A shard's late replacement of a window (the
 * engine folds a short last window into the one before, under its seq) re-emits that window,
 * which the live view replaces as it does a local run's. Pure.
 */
export class LiveTicks {
  readonly #windows: Map<number, Sample>[];
  readonly #ended: boolean[];
  /** The merged samples emitted, by seq. */
  readonly #emitted: Sample[] = [];

  constructor(count: number) {
    this.#windows = Array.from({ length: count }, () => new Map<number, Sample>());
    this.#ended = Array.from({ length: count }, () => false);
  }

  /** Shard `index`'s tick; returns the merged samples it completes (or replaces). */
  add(index: number, sample: Sample): Sample[] {
    this.#windows[index]!.set(sample.seq, sample);
    const out: Sample[] = [];
    if (sample.seq < this.#emitted.length) out.push(this.#merge(sample.seq));
    return [...out, ...this.#flush()];
  }

  /** Shard `index` sends no more ticks: windows waiting on it alone go out. */
  end(index: number): Sample[] {
    this.#ended[index] = true;
    return this.#flush();
  }

  #flush(): Sample[] {
    const out: Sample[] = [];
    for (;;) {
      const seq = this.#emitted.length;
      const waiting = this.#windows.some((w, i) => !this.#ended[i] && !w.has(seq));
      const any = this.#windows.some((w) => w.has(seq));
      if (waiting || !any) return out;
      out.push(this.#merge(seq));
    }
  }

  /** Window `seq` of every shard that has one, as one sample (stored, emitted). */
  #merge(seq: number): Sample {
    const group = this.#windows.flatMap((w) => (w.has(seq) ? [w.get(seq)!] : []));
    const before = seq === 0 ? 0 : this.#emitted[seq - 1]!.totalRequests;
    const merged = addSamples(group, seq, Math.max(...group.map((s) => s.elapsedSeconds)), before);
    this.#emitted[seq] = merged;
    return merged;
  }
}
