import type { ChartConfiguration, ChartDataset } from 'chart.js';
import type { RunResult } from '../../shared/model/result.ts';
import { targetLabel } from '../../shared/model/scenario.ts';
import { baseLineOptions } from '../charts/baseOptions.ts';
import { seriesColor, type Palette } from '../charts/palette.ts';

type XY = { x: number; y: number };

/**
 * A saved run's samples over time, one line per target (or per label given: a diff's "A", "B"):
 * req/s, or p99 latency in ms.
 */
export function timelineChart(
  results: readonly RunResult[],
  figure: 'rps' | 'p99',
  p: Palette,
  labels?: readonly string[],
): ChartConfiguration<'line', XY[]> {
  const datasets: ChartDataset<'line', XY[]>[] = results.map((r, i) => {
    const color = seriesColor(p, i);
    return {
      label: labels?.[i] ?? targetLabel(r.target),
      data: r.samples.flatMap((s) => {
        const y = figure === 'rps' ? s.requestsPerSecond : s.latency?.p99;
        return y === undefined ? [] : [{ x: s.elapsedSeconds, y }];
      }),
      borderColor: color,
      backgroundColor: color,
    };
  });
  const options = baseLineOptions(
    p,
    'time (s)',
    figure === 'rps' ? 'requests per second' : 'p99 latency (ms)',
  );
  options.plugins!.legend!.display = results.length > 1;
  return { type: 'line', data: { datasets }, options };
}
