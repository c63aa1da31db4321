import { memo } from 'react';
import { ChartPngButton } from '../views/Export/ChartPngButton.tsx';
import type { RunStore } from '../run/runStore.ts';
import { LIVE_CHARTS, type LiveChartSpec } from './liveSeries.ts';
import { useLiveChart } from './useLiveChart.ts';

interface LiveChartsProps {
  store: RunStore;
  targetIndex: number | null;
  generation: number;
}

/** Throughput, latency percentiles and status classes over time, one point per sample. */
/** Memoised: its props change only with the run or the shown target, not per sample. */
export const LiveCharts = memo(function LiveCharts({ store, targetIndex, generation }: LiveChartsProps) {
  return (
    <section className="live-charts" data-testid="live-charts">
      {LIVE_CHARTS.map((spec) => (
        <LiveChart
          key={spec.id}
          spec={spec}
          store={store}
          targetIndex={targetIndex}
          generation={generation}
        />
      ))}
    </section>
  );
});

function LiveChart({ spec, store, targetIndex, generation }: { spec: LiveChartSpec } & LiveChartsProps) {
  const canvasRef = useLiveChart(spec, store, targetIndex, generation);
  return (
    <figure className="card chart-card">
      <figcaption className="chart-card__title chart-card__title--actions">
        <span>
          {spec.title} <span className="muted">({spec.unit})</span>
        </span>
        <ChartPngButton canvasRef={canvasRef} fileName={spec.title} testId={`png-chart-${spec.id}`} />
      </figcaption>
      <div className="chart-card__canvas">
        <canvas
          ref={canvasRef}
          data-testid={`chart-${spec.id}`}
          role="img"
          aria-label={`${spec.title} over time`}
        />
      </div>
    </figure>
  );
}
