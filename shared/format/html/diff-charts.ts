/**
 * The HTML diff report's charts of a matched part: the two sides' latency-by-percentile curves
 * and their throughput series drawn over each other (inline SVG, as every HTML report's), the
 * same overlay History's diff view draws. Pure.
 */
import type { NamedRuns } from '../../diff/compare.ts';
import { REPORT_PERCENTILES } from '../../model/defaults.ts';
import type { RunResult } from '../../model/result.ts';
import { formatGrouped } from '../../figures/units.ts';
import { lineChart, type Series } from './svg.ts';

/** Each side's runs under its name ("base", "new · run 2"). */
function named(side: string, runs: readonly RunResult[]): { label: string; result: RunResult }[] {
  return runs.map((result, i) => ({ label: runs.length > 1 ? `${side} · run ${i + 1}` : side, result }));
}

export function diffCharts(base: NamedRuns | undefined, next: NamedRuns | undefined, id: string): string {
  if (!base || !next) return '';
  const runs = [...named('base', base.results), ...named('new', next.results)];
  const keys = REPORT_PERCENTILES.filter((p) =>
    runs.some(({ result }) => result.latency?.percentiles[String(p)] !== undefined),
  );
  const percentiles: Series[] = runs.map(({ label, result }) => ({
    label,
    points: keys.map((p, i) => [i, result.latency?.percentiles[String(p)] ?? null] as const),
  }));
  const throughput: Series[] = runs.map(({ label, result }) => ({
    label,
    points: result.samples.map((s) => [s.elapsedSeconds, s.requestsPerSecond] as const),
  }));
  return [
    lineChart({
      title: `Latency by percentile · ${base.label}: base and new`,
      xLabel: 'percentile',
      yLabel: 'ms',
      series: percentiles,
      xTicks: keys.map((p, i) => ({ value: i, label: `${p}%` })),
      testId: `${id}-chart-percentiles`,
      yFormat: (v) => `${formatGrouped(v, 3)} ms`,
    }),
    lineChart({
      title: `Throughput over time · ${base.label}: base and new`,
      xLabel: 'seconds since the start (warm-up included)',
      yLabel: 'req/s',
      series: throughput,
      testId: `${id}-chart-throughput`,
      yFormat: (v) => `${formatGrouped(v, 2)} req/s`,
    }),
  ].join('\n');
}
