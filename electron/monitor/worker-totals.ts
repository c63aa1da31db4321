import { VERDICT } from '../../shared/model/defaults.ts';
import type { ServerWorkers } from '../../shared/model/server-resources.ts';
import { SHORT_WINDOW_SHARE } from '../../shared/figures/windows.ts';
import type { WorkerShare } from './source.ts';

/**
 * A process tree's serving processes added up over a run's measured readings: each one's
 * CPU-seconds and highest window, and the time the readings cover, for "busiest worker 99%,
 * 1 of 4 busy" (ServerResources.workers).
 */
export class WorkerTotals {
  readonly #byPid = new Map<number, { name: string; seconds: number; max: number }>();
  #covered = 0;

  /**
   * One measured reading's workers over its window (seconds). A window shorter than half the
   * reading interval (a run's last one) counts in the mean but not the max: one 10 ms tick in
   * it reads 46 %.
   */
  add(workers: readonly WorkerShare[], seconds: number, readingSeconds: number): void {
    this.#covered += seconds;
    const short = seconds < readingSeconds * SHORT_WINDOW_SHARE;
    for (const w of workers) {
      const pct = seconds > 0 && !short ? (w.seconds / seconds) * 100 : 0;
      const total = this.#byPid.get(w.pid);
      if (total) {
        total.seconds += w.seconds;
        total.max = Math.max(total.max, pct);
      } else this.#byPid.set(w.pid, { name: w.name, seconds: w.seconds, max: pct });
    }
  }

  /** The summary, or null without a measured reading. */
  summary(): ServerWorkers | null {
    if (this.#byPid.size === 0 || this.#covered <= 0) return null;
    const mean = (seconds: number): number => (seconds / this.#covered) * 100;
    const [pid, busiest] = [...this.#byPid].sort(([pa, a], [pb, b]) => b.seconds - a.seconds || pa - pb)[0]!;
    return {
      count: this.#byPid.size,
      busy: [...this.#byPid.values()].filter((w) => mean(w.seconds) > VERDICT.serverProcessFlatPercent)
        .length,
      busiest: {
        pid,
        name: busiest.name,
        cpuPercentMean: mean(busiest.seconds),
        cpuPercentMax: Math.max(busiest.max, mean(busiest.seconds)),
      },
    };
  }
}
