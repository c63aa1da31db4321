/** The generator's own figures as text, for every report (CLI, UI, HTML): its workers' CPU, its send lateness, its tick pause. */
import type { RunResult } from '../model/result.ts';
import { fixed } from '../figures/units.ts';
import { generatorProcessText } from './machine/machine-table.ts';

const percent = (values: readonly number[]): string => values.map((v) => `${fixed(v, 0)}%`).join(', ');

/**
 * Whether the run sent any load: one refused by its pre-flight (or stopped before its start)
 * measured nothing, and has no generator CPU to speak of.
 */
export const loadWasSent = (r: RunResult): boolean => r.requests.total > 0 || r.samples.length > 0;

/**
 * "1 worker: 54% of a core on average (max 61%)", "2 workers: 61%, 58% of a core on average
 * (max 70%, 64%)": each engine worker's CPU, since each runs on a core of its own; then, from
 * the machine's readings, the whole process's and its busiest thread's; "none: no load was
 * sent" for a run that sent none.
 */
export function generatorCpuText(r: RunResult): string {
  if (!loadWasSent(r)) return 'none: no load was sent';
  const g = r.generator;
  const workers = g.workers ?? [
    { cpuPercentMean: g.cpuPercentMean, cpuPercentMax: g.cpuPercentMax, saturated: g.saturated },
  ];
  const n = workers.length;
  const flatOut = workers.filter((w) => w.saturated).length;
  const note = flatOut === 0 ? '' : n === 1 ? ' (flat out)' : ` (${flatOut} flat out)`;
  return (
    `${n} worker${n === 1 ? '' : 's'}: ${percent(workers.map((w) => w.cpuPercentMean))} of a core on average ` +
    `(max ${percent(workers.map((w) => w.cpuPercentMax))})${note}` +
    (g.process ? `; ${generatorProcessText(g.process)}` : '')
  );
}

/**
 * "p50 0.120 ms, p99 2.300 ms, max 9.100 ms": how late scheduled requests went out (the
 * generator's delay, part of the latency); null for a run without a schedule.
 */
export function sendLatenessText(r: RunResult): string | null {
  const l = r.sendLateness;
  if (!l) return null;
  const p = (key: string) => `${fixed(l.percentiles[key] ?? 0, 3)} ms`;
  return `p50 ${p('50')}, p99 ${p('99')}, max ${fixed(l.max, 3)} ms`;
}

/**
 * "p50 0.012 ms, p99 0.031 ms, max 0.090 ms over 41 ticks": how long each tick held up a
 * sending thread (its window closed and handed over; sends due meanwhile wait); null for a
 * result without the figure.
 */
export function tickPauseText(r: RunResult): string | null {
  const t = r.generator.tickPause;
  if (!t) return null;
  return `p50 ${fixed(t.p50, 3)} ms, p99 ${fixed(t.p99, 3)} ms, max ${fixed(t.max, 3)} ms over ${t.ticks} tick${t.ticks === 1 ? '' : 's'}`;
}
