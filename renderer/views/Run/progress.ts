import type { Sample } from '../../../shared/model/result.ts';
import type { Scenario } from '../../../shared/model/scenario.ts';
import { loadSeconds } from '../../../shared/stages/load-plan.ts';

export interface RunProgress {
  /** Seconds since the target started, warm-up included. */
  elapsed: number;
  /** Seconds left, or null while it cannot be estimated (request-count run, no rate yet). */
  remaining: number | null;
  /** 0..1, or null when unknown. */
  fraction: number | null;
  /** True while the warm-up lasts. */
  warmup: boolean;
}

/**
 * How far one target's run has come. Duration and staged runs: by the clock (warm-up + length).
 * Request-count runs: by requests done, with the time left estimated from the current rate.
 */
export function progressOf(scenario: Scenario, elapsedSeconds: number, last: Sample | null): RunProgress {
  const warmupSeconds = scenario.options.warmupSeconds;
  const elapsed = Math.max(0, elapsedSeconds);
  const warmup = elapsed < warmupSeconds;
  const load = scenario.load;
  const byClock = (seconds: number): RunProgress => {
    const total = warmupSeconds + seconds;
    const done = Math.min(elapsed, total);
    return { elapsed, remaining: total - done, fraction: total > 0 ? done / total : 1, warmup };
  };
  if (load.stages || load.model === 'open' || load.limit.kind === 'duration') {
    return byClock(loadSeconds(load) ?? 0);
  }

  const count = load.limit.count;
  const done = Math.min(last?.totalRequests ?? 0, count);
  const rate = last && !last.warmup ? last.requestsPerSecond : 0;
  return {
    elapsed,
    remaining: warmup ? null : rate > 0 ? (count - done) / rate : null,
    fraction: warmup ? 0 : done / count,
    warmup,
  };
}
