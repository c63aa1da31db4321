import { useCallback } from 'react';
import type { ChartDataset } from 'chart.js';
import type { Sample } from '../../shared/model/result.ts';
import type { SeriesChange } from '../../shared/figures/sample-series.ts';
import { baseLineOptions } from '../charts/baseOptions.ts';
import { withAlpha, type Palette } from '../charts/palette.ts';
import { Chart } from '../charts/setup.ts';
import { useChartCanvas } from '../charts/useChartCanvas.ts';
import {
  pointsOf,
  type LiveChartSpec,
  type LiveFeed,
  type Point,
  type TimedReading,
} from '../jobs/liveSeries.ts';

/**
 * A live chart of one part's readings. Each reading is pushed onto the chart's datasets and
 * drawn with update('none'), so no React state changes per reading; one that took the last
 * one's place in the part's series (the feed says so: the engine's final fold, see
 * Sample.final) replaces the last point. The canvas'
 * data-points attribute carries the point count for tests, data-series the lines' ids. With
 * a `clock` (the engine's samples), the x axis ends at the run's latest tick rather than at
 * the chart's own last point, so a chart read less often (the server's) stays on the
 * throughput chart's time axis. The chart is rebuilt only when the target or the theme changes (a new run remounts it).
 */
export function useLiveChart<S extends TimedReading>(
  spec: LiveChartSpec<S>,
  feed: LiveFeed<S>,
  targetIndex: number | null,
  clock?: LiveFeed<Sample>,
) {
  const setup = useCallback(
    (canvas: HTMLCanvasElement, palette: Palette) => {
      const datasets: ChartDataset<'line', Point[]>[] = spec.series.map((s) => ({
        label: s.label,
        data: [],
        borderColor: s.color(palette),
        backgroundColor: s.fill ? withAlpha(s.color(palette), 0.15) : s.color(palette),
        fill: s.fill ? 'origin' : false,
        spanGaps: false,
        hidden: s.optional === true,
        ...(s.dashed ? { borderDash: [6, 4], pointRadius: 0 } : {}),
      }));
      const seen = spec.series.map((s) => s.optional !== true);
      const options = baseLineOptions(palette, 'elapsed (s)', spec.unit);
      options.plugins!.legend!.labels!.filter = (item) =>
        item.datasetIndex === undefined || seen[item.datasetIndex] === true;
      const chart = new Chart<'line', Point[]>(canvas, { type: 'line', data: { datasets }, options });

      const append = (reading: S, change: SeriesChange = 'appended'): void => {
        pointsOf(spec, reading).forEach((point, k) => {
          const ds = chart.data.datasets[k]!;
          if (change === 'replaced') ds.data[ds.data.length - 1] = point;
          else ds.data.push(point);
          if (!seen[k] && point.y !== null && point.y > 0) {
            seen[k] = true;
            ds.hidden = false;
          }
        });
      };
      const extendTo = (sample: Sample | undefined): void => {
        // Suggested, not fixed: the axis then ticks as the throughput chart's does from its data.
        if (sample) chart.options.scales!.x!.suggestedMax = sample.elapsedSeconds;
      };
      const draw = (): void => {
        chart.update('none');
        canvas.dataset.points = String(chart.data.datasets[0]!.data.length);
        canvas.dataset.series = spec.series.map((x) => x.id).join(' ');
      };

      if (targetIndex !== null) {
        for (const r of feed.all(targetIndex)) append(r);
        if (clock) extendTo(clock.all(targetIndex).at(-1));
      }
      draw();

      const off = feed.subscribe((i, reading, change) => {
        if (i !== targetIndex) return;
        append(reading, change);
        draw();
      });
      const offClock = clock?.subscribe((i, sample) => {
        if (i !== targetIndex) return;
        extendTo(sample);
        draw();
      });
      return () => {
        off();
        offClock?.();
        chart.destroy();
      };
    },
    [spec, feed, targetIndex, clock],
  );
  return useChartCanvas(setup);
}
