import { useCallback } from 'react';
import type { ServerChartSpec } from '../../shared/resources/charts.ts';
import type { RunResult } from '../../shared/model/result.ts';
import type { Palette } from '../charts/palette.ts';
import { ChartCard } from '../components/ChartCard.tsx';
import type { ChartAbout } from '../charts/chartSubject.ts';
import { serverTimelineChart } from './serverCharts.ts';

/** A finished run's server chart in its card (drawn again only when the results change). */
export function ServerChartCard({
  results,
  chart,
  about,
}: {
  results: readonly RunResult[];
  chart: ServerChartSpec;
  about: ChartAbout;
}) {
  const build = useCallback((p: Palette) => serverTimelineChart(results, chart, p), [results, chart]);
  return (
    <ChartCard
      title={`${chart.title} over time (${chart.unit})`}
      testId={`chart-history-${chart.id}`}
      slug={chart.id}
      about={about}
      build={build}
    />
  );
}
