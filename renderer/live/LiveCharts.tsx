import { memo, useMemo, type ReactNode } from 'react';
import type { Sample } from '../../shared/model/result.ts';
import type { Load } from '../../shared/model/scenario.ts';
import { ChartFrame } from '../components/ChartCard.tsx';
import type { ChartAbout } from '../charts/chartSubject.ts';
import {
  liveCharts,
  type JobFeeds,
  type LiveChartSpec,
  type LiveFeed,
  type TimedReading,
} from '../jobs/liveSeries.ts';
import { useLiveChart } from './useLiveChart.ts';
import './live.css';

interface LiveChartsProps {
  /** The job's samples (JobStore.feeds). */
  feeds: JobFeeds;
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
  feeds,
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
          feed={feeds.engine}
          targetIndex={targetIndex}
          about={about}
        />
      ))}
    </section>
  );
});

/** One live chart in its card; with a clock, on the engine's time axis (see useLiveChart). */
export function LiveChart<S extends TimedReading>({
  spec,
  feed,
  targetIndex,
  about,
  clock,
  note,
}: {
  spec: LiveChartSpec<S>;
  feed: LiveFeed<S>;
  targetIndex: number | null;
  about: ChartAbout;
  clock?: LiveFeed<Sample>;
  note?: ReactNode;
}) {
  const canvasRef = useLiveChart(spec, feed, targetIndex, clock);
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
      note={note}
    />
  );
}
