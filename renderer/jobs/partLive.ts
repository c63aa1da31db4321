import { chartsWithData, gapNotes, type ServerChartId } from '../../shared/resources/charts.ts';
import type { ResourceSample } from '../../shared/model/server-resources.ts';
import type { Sample } from '../../shared/model/result.ts';
import type { MachineSample } from '../../shared/model/machine-facts.ts';

/** The server panel's state of one part (its readings go to the charts, not here). */
export interface ServerLive {
  /** The last reading, for the panel's figures; null before the first. */
  last: ResourceSample | null;
  /** The server's CPU (% of a core) at the last measured reading that had it; a gap keeps it. */
  cpu: number | null;
  /** The charts that have a figure so far (a process tree has no load average). */
  charts: readonly ServerChartId[];
  /** Ticks without a reading, by reason, as the panel's note says them. */
  gaps: readonly string[];
}

/** What the counters show for one part of a job; changes once per sample. */
export interface PartLive {
  last: Sample | null;
  /** Transport errors and SLO misses since measuring began (warm-up excluded). */
  errors: number;
  server: ServerLive;
  /** The machine's last reading (its tick's point), for the machine panel's figures; null before the first. */
  machine: MachineSample | null;
}

const noServer: ServerLive = { last: null, cpu: null, charts: [], gaps: [] };
export const emptyLive = (): PartLive => ({ last: null, errors: 0, server: noServer, machine: null });

/** Transport errors and SLO misses of a measured (not warm-up) window. */
function measuredErrors(s: Sample | null | undefined): number {
  if (!s || s.warmup) return 0;
  let n = 0;
  for (const v of Object.values(s.errors)) n += v ?? 0;
  return n;
}

/** The part's counters after a sample; `replaced`: the sample took the place of that one (same tick). */
export function liveAfterSample(prev: PartLive, sample: Sample, replaced: Sample | null): PartLive {
  // A sample that replaces the last one (the engine's final fold) holds that one's errors too.
  return { ...prev, last: sample, errors: prev.errors - measuredErrors(replaced) + measuredErrors(sample) };
}

/** The panel's state after a reading was added to the part's readings (`added`: their last one now). */
export function serverAfterReading(
  prev: ServerLive,
  readings: readonly ResourceSample[],
  added: ResourceSample,
): ServerLive {
  const charts = chartsWithData([added]).map((c) => c.id);
  const grown = charts.some((id) => !prev.charts.includes(id));
  return {
    last: added,
    cpu: added.warmup || added.cpuPercent === undefined ? prev.cpu : added.cpuPercent,
    charts: grown ? [...new Set([...prev.charts, ...charts])] : prev.charts,
    // Regrouped only when a gap came (or a replaced reading may have been one): rare, and bounded.
    gaps: added.gap !== undefined || prev.gaps.length > 0 ? gapNotes(readings) : prev.gaps,
  };
}
