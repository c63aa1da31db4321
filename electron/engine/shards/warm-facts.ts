import type { RunResult, WarmFacts, Warning } from '../../../shared/model/result.ts';

/**
 * The warm phases of a run's parts (its engine workers, or the machines of a plan) as the run's:
 * their pools added, the slowest one's time, and the longest round trip one was sized from.
 */
export function mergedWarm(warms: readonly WarmFacts[]): WarmFacts | null {
  if (warms.length === 0) return null;
  const trips = warms.flatMap((w) => (w.roundTripMs === null ? [] : [w.roundTripMs]));
  return {
    seconds: Math.max(...warms.map((w) => w.seconds)),
    wanted: warms.reduce((n, w) => n + w.wanted, 0),
    ready: warms.reduce((n, w) => n + w.ready, 0),
    roundTripMs: trips.length === 0 ? null : Math.max(...trips),
    ...(warms.some((w) => w.cutAtStart) ? { cutAtStart: true as const } : {}),
  };
}

/** What the result says when the schedule started before its warm connections were all ready. */
export function warmWarning(warm: WarmFacts): Warning | null {
  if (warm.ready >= warm.wanted) return null;
  if (warm.cutAtStart) {
    return {
      code: 'other',
      message:
        `the warm connections were not all open at the plan's common start, ${warm.seconds.toFixed(1)} s after ` +
        `they began opening: ${warm.ready} of ${warm.wanted}; the load started on time, and its first requests ` +
        `may wait for connections to open (give --start-at more time ahead)`,
    };
  }
  return {
    code: 'other',
    message:
      `the warm connections were not all open after ${warm.seconds.toFixed(1)} s: ${warm.ready} of ` +
      `${warm.wanted}; the schedule started anyway, and its first requests may wait for connections to open`,
  };
}

/** The result with its parts' warm phases as one, and the warning when connections were missing. */
export function addWarm(result: RunResult, warms: readonly WarmFacts[]): void {
  const warm = mergedWarm(warms);
  if (warm === null) return;
  result.warm = warm;
  const warning = warmWarning(warm);
  if (warning !== null) result.warnings.push(warning);
}
