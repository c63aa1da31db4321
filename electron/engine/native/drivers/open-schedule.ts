import {
  ArrivalSchedule,
  peakTarget,
  plannedArrivals,
  stagesSeconds,
  type Stage,
} from '../../../../shared/model/stages.ts';

/** When the open model's requests are due, in ms after the driver's t0. */
export interface OpenSchedule {
  /** Request k's due time (asked in increasing k). */
  dueAt(k: number): number;
  /** How many requests are due by `ms` (those with dueAt <= ms). */
  dueBy(ms: number): number;
  /** Requests due before `endMs`, the schedule's end. */
  countBefore(endMs: number): number;
  /** The highest rate (req/s) the schedule reaches: what the connection pool is sized for. */
  readonly peakRate: number;
  /** Length of a stage plan in ms; null for a fixed rate (its length is the run's duration). */
  readonly stagedMs: number | null;
}

/** Request k due at k/rate (vegeta -rate). */
export function fixedRateSchedule(rate: number): OpenSchedule {
  const interval = 1000 / rate;
  return {
    dueAt: (k) => k * interval,
    dueBy: (ms) => Math.floor(ms / interval) + 1,
    countBefore: (endMs) => Math.max(1, Math.ceil(endMs / interval - 1e-9)),
    peakRate: rate,
    stagedMs: null,
  };
}

/**
 * Requests due as the stage plan's integrated rate reaches each whole number plus `phase`
 * (a shard's place in a split plan, shared/model/stages.ts ArrivalSchedule).
 */
export function stagedSchedule(stages: readonly Stage[], phase = 0): OpenSchedule {
  const arrivals = new ArrivalSchedule(stages, phase);
  return {
    dueAt: (k) => arrivals.timeOf(k) * 1000,
    // Arrival k is due once the integrated rate reaches k + phase; the tolerance keeps a due
    // time the inverse computed a hair early from waiting one more wake-up.
    dueBy: (ms) =>
      Math.min(
        arrivals.total,
        Math.max(0, Math.floor(plannedArrivals(stages, ms / 1000) - phase + 1e-9) + 1),
      ),
    countBefore: () => arrivals.total,
    peakRate: Math.max(peakTarget(stages), 1),
    stagedMs: stagesSeconds(stages) * 1000,
  };
}
