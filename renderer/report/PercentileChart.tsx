import { useCallback, useMemo } from 'react';
import type { RunResult } from '../../shared/model/result.ts';
import type { Palette } from '../charts/palette.ts';
import { ChartCard } from '../components/ChartCard.tsx';
import { aboutResults } from '../charts/chartSubject.ts';
import { percentileChart } from './percentileChartConfig.ts';

interface PercentileChartProps {
  /** Every target's result; the shown one is drawn on top, the others fainter for comparison. */
  results: readonly (RunResult | null)[];
  shown: number;
}

/** Latency by percentile, HdrHistogram style: the tail gets as much room as the median. */
export function PercentileChart({ results, shown }: PercentileChartProps) {
  const build = useCallback((p: Palette) => percentileChart(results, shown, p), [results, shown]);
  const about = useMemo(() => aboutResults(results.filter((r) => r !== null)), [results]);
  return (
    <ChartCard
      title="Latency by percentile"
      testId="chart-percentiles"
      slug="latency-by-percentile"
      about={about}
      build={build}
      tall
    />
  );
}
