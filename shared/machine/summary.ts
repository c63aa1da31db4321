import { VERDICT } from '../model/defaults.ts';
import { foldShortWindows, weightedRate, windowStats } from '../figures/windows.ts';
import type { GeneratorProcess, MachineFacts, MachineSample } from '../model/machine-facts.ts';
import { busiest } from './readings.ts';

/*
 * A run's machine readings summed up over its measured time (warm-up left out): the CPU
 * shares, the other processes' CPU and the busiest of them, the generator's whole process
 * and busiest thread. Rates are read over windows by the rule every CPU figure follows
 * (shared/figures/windows.ts): a run's last short window is folded into the one before, the
 * mean weighted by each window's length. Pure.
 */

/** What the monitor adds up per process and thread over the measured readings. */
export interface MachineTotals {
  /** Other processes' CPU-seconds, by pid. */
  others: ReadonlyMap<number, { name: string; seconds: number }>;
  /** The generator's threads' CPU-seconds, and each one's highest % of a core in a window, by tid. */
  threads: ReadonlyMap<number, { name: string; seconds: number; max: number }>;
  serverInGenerator: boolean;
}

const RATES = [
  'cpuBusyPercent',
  'cpuIdlePercent',
  'cpuIowaitPercent',
  'cpuStealPercent',
  'generatorCpuPercent',
  'otherCpuPercent',
  'linkInBitsPerSecond',
  'linkOutBitsPerSecond',
] as const satisfies readonly (keyof MachineSample)[];

/** Two neighbouring readings as one window: rates weighted by their lengths, the later one's names. */
export function foldMachineReadings(a: MachineSample, b: MachineSample): MachineSample {
  if (a.gap !== undefined) return b;
  if (b.gap !== undefined) return { ...a, seq: b.seq, elapsedSeconds: b.elapsedSeconds };
  const out: MachineSample = { ...a, ...b, intervalSeconds: a.intervalSeconds + b.intervalSeconds };
  for (const f of RATES) {
    const va = a[f];
    const vb = b[f];
    if (va !== undefined && vb !== undefined)
      out[f] = weightedRate(va, a.intervalSeconds, vb, b.intervalSeconds);
  }
  return out;
}

/** The summary of the measured readings (`readingSeconds`: how far apart they are meant to be). */
export function summarizeMachine(
  samples: readonly MachineSample[],
  totals: MachineTotals,
  readingSeconds: number,
): Pick<
  MachineFacts,
  | 'coveredSeconds'
  | 'cpuBusyPercent'
  | 'cpuBusyPercentMax'
  | 'cpuIdlePercent'
  | 'cpuIowaitPercent'
  | 'cpuStealPercent'
  | 'otherCpuPercent'
  | 'otherProcesses'
  | 'serverInGenerator'
> & { generator: GeneratorProcess | null; linkIn: number | null; linkOut: number | null } {
  const measured = samples.filter((s) => !s.warmup && s.gap === undefined);
  const windows = foldShortWindows(measured, readingSeconds, foldMachineReadings);
  const stat = (f: (typeof RATES)[number]) => windowStats(windows, (w) => w[f]);
  const covered = measured.reduce((sum, s) => sum + s.intervalSeconds, 0);
  const busy = stat('cpuBusyPercent');
  const generator = stat('generatorCpuPercent');
  const cores = samples.at(-1)?.cores ?? 1;
  const [thread] = [...totals.threads.values()].sort((a, b) => b.seconds - a.seconds);
  const busiestThread =
    thread && covered > 0
      ? { name: thread.name, cpuPercentMean: (thread.seconds / covered) * 100, cpuPercentMax: thread.max }
      : null;
  const limit = VERDICT.clientBoundCpuPercent;
  return {
    coveredSeconds: covered,
    cpuBusyPercent: busy?.mean ?? 0,
    cpuBusyPercentMax: busy?.max ?? 0,
    cpuIdlePercent: stat('cpuIdlePercent')?.mean ?? 0,
    cpuIowaitPercent: stat('cpuIowaitPercent')?.mean ?? 0,
    cpuStealPercent: stat('cpuStealPercent')?.mean ?? 0,
    otherCpuPercent: stat('otherCpuPercent')?.mean ?? null,
    otherProcesses: busiest(totals.others, covered),
    serverInGenerator: totals.serverInGenerator,
    generator: generator
      ? {
          cpuPercentMean: generator.mean,
          cpuPercentMax: generator.max,
          busiestThread,
          // A server inside the generator's process makes its figures the two together: not judged.
          saturated:
            !totals.serverInGenerator &&
            (generator.mean > (limit / 100) * cores * 100 || (busiestThread?.cpuPercentMean ?? 0) > limit),
        }
      : null,
    linkIn: stat('linkInBitsPerSecond')?.mean ?? null,
    linkOut: stat('linkOutBitsPerSecond')?.mean ?? null,
  };
}
