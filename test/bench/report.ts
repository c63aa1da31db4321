/** Aggregates benchmark rounds and prints them as a markdown table ready for docs/benchmarks.md. */
import type { GeneratorRun } from './generators.ts';

export interface Row {
  id: string;
  label: string;
  runs: GeneratorRun[];
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

const perCpu = (r: GeneratorRun): number => (r.cpuSeconds > 0 ? r.requests / r.cpuSeconds : Number.NaN);

export interface Summary {
  label: string;
  rps: number;
  rpsRange: [number, number];
  cpuSeconds: number;
  perCpuSecond: number;
  workerPerCpuSecond: number | null;
}

export function summarise(row: Row): Summary {
  const rps = row.runs.map((r) => r.requestsPerSecond);
  const workers = row.runs.flatMap((r) => (r.engine ? [r.requests / r.engine.workerCpuSeconds] : []));
  return {
    label: row.label,
    rps: median(rps),
    rpsRange: [Math.min(...rps), Math.max(...rps)],
    cpuSeconds: median(row.runs.map((r) => r.cpuSeconds)),
    perCpuSecond: median(row.runs.map(perCpu)),
    workerPerCpuSecond: workers.length > 0 ? median(workers) : null,
  };
}

const int = (n: number): string => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'n/a');
const ratio = (a: number, b: number | undefined): string =>
  b !== undefined && Number.isFinite(a) && Number.isFinite(b) && b > 0 ? (a / b).toFixed(2) : 'n/a';

/** The throughput table: medians over the rounds, ratios against wrk and autocannon's CLI. */
export function throughputTable(rows: readonly Row[], refs: { wrk?: string; autocannon?: string }): string {
  const sums = new Map(rows.filter((r) => r.runs.length > 0).map((r) => [r.id, summarise(r)]));
  const wrk = refs.wrk ? sums.get(refs.wrk) : undefined;
  const ac = refs.autocannon ? sums.get(refs.autocannon) : undefined;
  const lines = [
    '| generator | req/s (median, min–max) | CPU s per run | req per CPU-s | vs wrk: req/s · req/CPU-s | vs autocannon CLI: req/s · req/CPU-s |',
    '|---|---:|---:|---:|---:|---:|',
  ];
  for (const [id, s] of sums) {
    const worker =
      s.workerPerCpuSecond === null ? '' : ` (worker thread alone: ${int(s.workerPerCpuSecond)})`;
    const vsWrk =
      id === refs.wrk
        ? '1.00 · 1.00'
        : `${ratio(s.rps, wrk?.rps)} · ${ratio(s.perCpuSecond, wrk?.perCpuSecond)}`;
    const vsAc =
      id === refs.autocannon
        ? '1.00 · 1.00'
        : `${ratio(s.rps, ac?.rps)} · ${ratio(s.perCpuSecond, ac?.perCpuSecond)}`;
    lines.push(
      `| ${s.label} | ${int(s.rps)} (${int(s.rpsRange[0])}–${int(s.rpsRange[1])}) | ${s.cpuSeconds.toFixed(2)} | ${int(s.perCpuSecond)}${worker} | ${vsWrk} | ${vsAc} |`,
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
