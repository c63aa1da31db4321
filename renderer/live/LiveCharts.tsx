import { memo, useMemo } from 'react';
import type { Load } from '../../shared/scenario.ts';
import type { RunStore } from '../run/runStore.ts';
import { ChartFrame } from '../components/ChartCard.tsx';
import type { ChartAbout } from '../views/Export/chartSubject.ts';
import { liveCharts, type LiveChartSpec } from './liveSeries.ts';
import { useLiveChart } from './useLiveChart.ts';
import './live.css';

interface LiveChartsProps {
  store: RunStore;
  targetIndex: number | null;
  /** The run's generation: a new run draws on fresh charts. */
  generation: number;
  /** The shown target, its load and the run's start, for the PNG exports (memoise it). */
  about: ChartAbout;
  /** The run's load: a staged one draws its target beside what was achieved. */
  load: Load | null;
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
  load,
}: LiveChartsProps) {
  const specs = useMemo(() => liveCharts(load), [load]);
  return (
    <section className="live-charts" data-testid="live-charts">
      {specs.map((spec) => (
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
