import { useCallback, useMemo } from 'react';
import type { ChartConfiguration, ChartDataset } from 'chart.js';
import type { RunResult } from '../../../shared/model/result.ts';
import { percentileChartOptions } from '../../charts/percentileOptions.ts';
import { seriesColor, type Palette } from '../../charts/palette.ts';
import { ChartCard } from '../../components/ChartCard.tsx';
import { percentilePoints, type PercentilePoint } from '../../charts/percentileScale.ts';
import { aboutResults } from '../../charts/chartSubject.ts';
import { timelineChart } from '../../report/timeline.ts';

/** A side's runs, each under its name ("A", "A · run 2"). */
interface Side {
  name: 'A' | 'B';
  results: readonly RunResult[];
}

const labelled = (sides: readonly Side[]): { label: string; result: RunResult }[] =>
  sides.flatMap((s) =>
    s.results.map((result, i) => ({
      label: s.results.length > 1 ? `${s.name} · run ${i + 1}` : s.name,
      result,
    })),
  );

/** The two sides' latency-by-percentile curves over each other: A in the first colour, B in the second. */
function percentileOverlay(
  sides: readonly Side[],
  p: Palette,
): ChartConfiguration<'line', PercentilePoint[]> {
  const datasets: ChartDataset<'line', PercentilePoint[]>[] = [];
  sides.forEach((side, k) =>
    side.results.forEach((r, i) => {
      if (!r.latency) return;
      const color = seriesColor(p, k);
      datasets.push({
        label: side.results.length > 1 ? `${side.name} · run ${i + 1}` : side.name,
        data: percentilePoints(r.latency),
        borderColor: color,
        backgroundColor: color,
        borderWidth: 2,
        pointRadius: 2,
        tension: 0,
        cubicInterpolationMode: 'default',
      });
    }),
  );
  const options = percentileChartOptions(p);
  options.plugins!.legend!.display = true;
  return { type: 'line', data: { datasets }, options };
}

/** The diff view's charts: the two latency percentile curves and the two throughput series, overlaid. */
export function DiffOverlay({ a, b }: { a: readonly RunResult[]; b: readonly RunResult[] }) {
  const sides = useMemo(
    (): Side[] => [
      { name: 'A', results: a },
      { name: 'B', results: b },
    ],
    [a, b],
  );
  const about = useMemo(() => aboutResults([...a, ...b]), [a, b]);
  const percentiles = useCallback((p: Palette) => percentileOverlay(sides, p), [sides]);
  const throughput = useCallback(
    (p: Palette) => {
      const runs = labelled(sides);
      const config = timelineChart(
        runs.map((r) => r.result),
        'rps',
        p,
        runs.map((r) => r.label),
      );
      // Each side in its own colour, whatever its number of runs.
      config.data.datasets.forEach((d, i) => {
        const color = seriesColor(p, runs[i]!.label.startsWith('A') ? 0 : 1);
        d.borderColor = color;
        d.backgroundColor = color;
      });
      return config;
    },
    [sides],
  );
  return (
    <div className="chart-grid" data-testid="diff-overlay">
      <ChartCard
        title="Latency by percentile, A and B"
        testId="diff-chart-percentiles"
        slug="diff-latency-by-percentile"
        about={about}
        build={percentiles}
      />
      <ChartCard
        title="Throughput over time (req/s), A and B"
        testId="diff-chart-throughput"
        slug="diff-throughput"
        about={about}
        build={throughput}
      />
    </div>
  );
}
