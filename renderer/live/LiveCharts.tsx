import { memo } from 'react';
import type { RunStore } from '../run/runStore.ts';
import { ChartFrame } from '../components/ChartCard.tsx';
import type { ChartAbout } from '../views/Export/chartSubject.ts';
import { LIVE_CHARTS, type LiveChartSpec } from './liveSeries.ts';
import { useLiveChart } from './useLiveChart.ts';
import './live.css';

interface LiveChartsProps {
  store: RunStore;
  targetIndex: number | null;
  /** The run's generation: a new run draws on fresh charts. */
  generation: number;
  /** The shown target, its load and the run's start, for the PNG exports (memoise it). */
  about: ChartAbout;
}

/**
 * Throughput, latency percentiles and status classes over time, one point per sample.
 * Memoised: its props change only with the run or the shown target, not per sample.
 */
export const LiveCharts = memo(function LiveCharts({
  store,
  targetIndex,
  generation,
  about,
}: LiveChartsProps) {
  return (
    <section className="live-charts" data-testid="live-charts">
      {LIVE_CHARTS.map((spec) => (
        <LiveChart
          key={`${spec.id}-${generation}`}
          spec={spec}
          store={store}
          targetIndex={targetIndex}
          about={about}
        />
      ))}
    </section>
  );
});

function LiveChart({
  spec,
  store,
  targetIndex,
  about,
}: {
  spec: LiveChartSpec;
  store: RunStore;
  targetIndex: number | null;
  about: ChartAbout;
}) {
  const canvasRef = useLiveChart(spec, store, targetIndex);
  return (
    <ChartFrame
      canvasRef={canvasRef}
      title={
        <>
          {spec.title} <span className="muted">({spec.unit})</span>
        </>
      }
      label={`${spec.title} over time`}
      testId={`chart-${spec.id}`}
      subject={{ figure: `${spec.title} (${spec.unit})`, slug: spec.id, ...about }}
    />
  );
}
