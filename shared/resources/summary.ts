/**
 * The summary of a run's server readings: mean and max of each figure, the CPU-seconds they
 * add up to, and server CPU-seconds per 10,000 requests. Rates (CPU, network) are read from
 * the windows the charts draw (one per engine tick, shared/resources/charts.ts), a short one
 * folded into the one before and the mean weighted by window length, by the rule the
 * generator's CPU follows (shared/figures/windows.ts): a run's last reading of 22 ms holding
 * one 10 ms CPU tick (45.9%) had been its max, and a mean of readings counted it as a whole
 * second. Pure.
 */
import { chartReadings, foldReadings, RATE_FIGURES } from './charts.ts';
import { RESOURCE_FIGURES, type ResourceSample, type ServerResources } from '../model/server-resources.ts';
import { foldShortWindows, windowStats } from '../figures/windows.ts';

/** Measured samples cover less than this share of the measured time: no efficiency figure. */
const MIN_COVERAGE = 0.9;

/**
 * Mean and max of each figure over the measured samples (warm-up excluded), the CPU-seconds
 * they add up to, and server CPU-seconds per 10,000 requests. `readingSeconds`: how far
 * apart the readings are meant to be (a shorter one is folded). The efficiency figure needs
 * readings that cover the measured time (`measured.seconds`), else it is null and a note says
 * why: a partial sum would flatter the server.
 */
export function summarizeResources(
  samples: readonly ResourceSample[],
  measured: { seconds: number; requests: number },
  readingSeconds: number,
): Pick<ServerResources, 'summary' | 'cpuSeconds' | 'cpuSecondsPer10kRequests'> & { note: string | null } {
  const counted = samples.filter((s) => !s.warmup);
  const windows = foldShortWindows(chartReadings(counted), readingSeconds, foldReadings);
  const summary: ServerResources['summary'] = {};
  for (const figure of RESOURCE_FIGURES) {
    if (RATE_FIGURES.has(figure)) {
      const stats = windowStats(windows, (w) => w[figure]);
      if (stats) summary[figure] = stats;
      continue;
    }
    // Levels (memory, threads, load) are read at an instant: every reading counts once.
    const values = counted.map((s) => s[figure]).filter((v): v is number => v !== undefined);
    if (values.length === 0) continue;
    summary[figure] = {
      mean: values.reduce((a, b) => a + b, 0) / values.length,
      max: Math.max(...values),
    };
  }
  const withCpu = counted.filter((s) => s.cpuSeconds !== undefined);
  if (withCpu.length === 0) return { summary, cpuSeconds: null, cpuSecondsPer10kRequests: null, note: null };
  const cpuSeconds = withCpu.reduce((sum, s) => sum + (s.cpuSeconds ?? 0), 0);
  const covered = withCpu.reduce((sum, s) => sum + s.intervalSeconds, 0);
  let note: string | null = null;
  let per10k: number | null = null;
  if (measured.requests === 0) note = 'no requests were measured: no CPU-seconds per 10,000 requests';
  else if (measured.seconds > 0 && covered < measured.seconds * MIN_COVERAGE) {
    note = `CPU readings cover ${covered.toFixed(1)} s of the ${measured.seconds.toFixed(1)} s measured: no CPU-seconds per 10,000 requests`;
  } else per10k = (cpuSeconds / measured.requests) * 10_000;
  return { summary, cpuSeconds, cpuSecondsPer10kRequests: per10k, note };
}
