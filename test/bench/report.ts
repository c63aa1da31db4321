/** Aggregates benchmark rounds into markdown tables with ratios against reference tools. */
import { loadavg } from 'node:os';
import { formatCount } from '../../shared/figures/units.ts';
import type { LoadFigures } from '../helpers/reference-tools.ts';

/** One run of one generator: its load figures and the CPU they cost. */
export interface Figures extends LoadFigures {
  /**
   * The CPU seconds per-CPU-second figures divide by: every generator's whole process, start
   * to exit (bash `times`: every thread and child), Trebuchet's CLI as a tool's.
   */
  cpuSeconds: number;
  /** Engines only: the engine worker thread's CPU seconds alone. */
  workerCpuSeconds?: number;
}

/** A generator's runs in one table (one per round). */
export interface Row {
  id: string;
  label: string;
  runs: Figures[];
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export const perCpuSecond = (f: Figures): number =>
  f.cpuSeconds > 0 ? f.requests / f.cpuSeconds : Number.NaN;

export interface Summary {
  label: string;
  rps: number;
  rpsRange: [number, number];
  cpuSeconds: number;
  perCpuSecond: number;
  perCpuSecondRange: [number, number];
  workerPerCpuSecond: number | null;
}

function summarise(row: Row): Summary {
  const rps = row.runs.map((r) => r.requestsPerSecond);
  const workers = row.runs.flatMap((r) =>
    r.workerCpuSeconds !== undefined && r.workerCpuSeconds > 0 ? [r.requests / r.workerCpuSeconds] : [],
  );
  return {
    label: row.label,
    rps: median(rps),
    rpsRange: [Math.min(...rps), Math.max(...rps)],
    cpuSeconds: median(row.runs.map((r) => r.cpuSeconds)),
    perCpuSecond: median(row.runs.map(perCpuSecond)),
    perCpuSecondRange: [Math.min(...row.runs.map(perCpuSecond)), Math.max(...row.runs.map(perCpuSecond))],
    workerPerCpuSecond: workers.length > 0 ? median(workers) : null,
  };
}

/** The 1-, 5- and 15-minute load averages ("0.52 0.61 0.70"): other load skews every figure. */
export const loadAverage = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

export const int = (n: number): string => (Number.isFinite(n) ? formatCount(n) : 'n/a');
export const ratio = (a: number, b: number | undefined): string =>
  b !== undefined && Number.isFinite(a) && Number.isFinite(b) && b > 0 ? (a / b).toFixed(2) : 'n/a';

/**
 * Medians over the rounds, one line per generator that ran, with req/s and req per CPU-second
 * as ratios against each reference row (by id) measured in the same table.
 */
export function ratioTable(rows: readonly Row[], refs: readonly string[]): string {
  const sums = new Map(rows.filter((r) => r.runs.length > 0).map((r) => [r.id, summarise(r)]));
  const refLabel = (id: string): string => rows.find((r) => r.id === id)?.label ?? id;
  const lines = [
    `| generator | req/s (median, min–max) | CPU s per run | req per CPU-s (median, min–max) |${refs.map((id) => ` vs ${refLabel(id)}: req/s · req/CPU-s |`).join('')}`,
    `|---|---:|---:|---:|${refs.map(() => '---:|').join('')}`,
  ];
  for (const [id, s] of sums) {
    const worker =
      s.workerPerCpuSecond === null ? '' : ` (worker thread alone: ${int(s.workerPerCpuSecond)})`;
    const vs = refs.map((refId) => {
      const ref = sums.get(refId);
      return id === refId
        ? ' 1.00 · 1.00 |'
        : ` ${ratio(s.rps, ref?.rps)} · ${ratio(s.perCpuSecond, ref?.perCpuSecond)} |`;
    });
    lines.push(
      `| ${s.label} | ${int(s.rps)} (${int(s.rpsRange[0])}–${int(s.rpsRange[1])}) | ${s.cpuSeconds.toFixed(2)} | ${int(s.perCpuSecond)} (${int(s.perCpuSecondRange[0])}–${int(s.perCpuSecondRange[1])})${worker} |${vs.join('')}`,
    );
  }
  return lines.join('\n');
}

export interface RssRun {
  label: string;
  seconds: number;
  requests: number;
  maxRssKiB: number;
}

export function rssTable(runs: readonly RssRun[]): string {
  const lines = ['| engine | run length | requests | peak RSS (MiB) |', '|---|---:|---:|---:|'];
  for (const r of runs) {
    lines.push(`| ${r.label} | ${r.seconds} s | ${int(r.requests)} | ${(r.maxRssKiB / 1024).toFixed(1)} |`);
  }
  return lines.join('\n');
}
