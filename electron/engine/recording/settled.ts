import type { BucketCounts } from '../../../shared/model/shard-facts.ts';
import { newHistogram, ValueRecorder, type Histogram } from './histogram.ts';
import { MAX_STATUS, statusCodesOf } from './window-counts.ts';

/**
 * A run's measured figures, added window by window (warm-up excluded): latencies, send
 * lateness, status codes. A shard's recorder settles each window it closes (recorder.ts); a
 * shard with window slots leaves that to their reader, on the coordinator's side
 * (slot-reader.ts), so its sending thread does not walk the window.
 */
export class SettledFigures {
  /** The latencies until read (hdr's record per bucket: 0.3-9 ms a tick). */
  readonly #values = new ValueRecorder();
  readonly #histogram: Histogram = newHistogram();
  readonly #lateness = new ValueRecorder();
  readonly #status = new Uint32Array(MAX_STATUS);

  /** Adds a measured window: its latencies, its sends' lateness, its status table. */
  add(latency: ValueRecorder, lateness: ValueRecorder, status: Uint32Array): void {
    latency.addTo(this.#values);
    lateness.addTo(this.#lateness);
    for (let s = 0; s < MAX_STATUS; s++) this.#status[s]! += status[s]!;
  }

  /** The latencies, moved from plain counts (a tick's 10 us) into hdr's histogram when read. */
  get histogram(): Histogram {
    this.#values.drainInto(this.#histogram);
    return this.#histogram;
  }

  /** The send lateness as buckets, for a shard's report. */
  latenessBuckets(): BucketCounts {
    return this.#lateness.buckets();
  }

  statusCodes(): Record<string, number> {
    return statusCodesOf(this.#status);
  }
}
