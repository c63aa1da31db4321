import type { WarmFacts, Warning } from '../../../shared/model/result.ts';

/** The shards' warm phases as the run's: their pools added, the slowest one's time. */
export function mergedWarm(warms: readonly WarmFacts[]): WarmFacts | null {
  if (warms.length === 0) return null;
  return {
    seconds: Math.max(...warms.map((w) => w.seconds)),
    wanted: warms.reduce((n, w) => n + w.wanted, 0),
    ready: warms.reduce((n, w) => n + w.ready, 0),
    roundTripMs: warms[0]!.roundTripMs,
  };
}

/** What the result says when the schedule started before its warm connections were all ready. */
export function warmWarning(warm: WarmFacts): Warning | null {
  if (warm.ready >= warm.wanted) return null;
  return {
    code: 'other',
    message:
      `the warm connections were not all open after ${warm.seconds.toFixed(1)} s: ${warm.ready} of ` +
      `${warm.wanted}; the schedule started anyway, and its first requests may wait for connections to open`,
  };
}
