/**
 * What a load's plan says of its length and rate, stages or not: the figures the engine, the
 * verdict and the charts read from a Load (shared/model/stages.ts holds the stage math itself).
 */
import type { Load } from '../model/scenario.ts';
import { plannedArrivals, stagesSeconds, targetAt } from '../model/stages.ts';

/** How long a load runs by its plan (warm-up excluded): its stages, else its duration; null for a request count. */
export function loadSeconds(load: Load): number | null {
  if (load.stages) return stagesSeconds(load.stages);
  if (load.model === 'open') return load.durationSeconds;
  return load.limit.kind === 'duration' ? load.limit.seconds : null;
}

/**
 * The rate a load's schedule keeps, in req/s: an open load's rate, or its stage plan's mean
 * (planned requests over its length); a closed load's rate cap, null without one.
 */
export function scheduledRate(load: Load): number | null {
  if (load.model === 'closed' || !load.stages) return load.rate;
  const seconds = stagesSeconds(load.stages);
  return plannedArrivals(load.stages, seconds) / seconds;
}

/**
 * A staged load's target over a sample's window, to draw beside what was achieved: the open
 * model's planned rate over the window (what its req/s should read), the closed model's
 * connections at the window's end. Null for a fixed level.
 */
export function windowTarget(load: Load, endSeconds: number, intervalSeconds: number): number | null {
  if (!load.stages) return null;
  if (load.model === 'closed') return Math.round(targetAt(load.stages, endSeconds));
  const from = Math.max(0, endSeconds - intervalSeconds);
  if (endSeconds <= from) return targetAt(load.stages, endSeconds);
  return (
    (plannedArrivals(load.stages, endSeconds) - plannedArrivals(load.stages, from)) / (endSeconds - from)
  );
}
