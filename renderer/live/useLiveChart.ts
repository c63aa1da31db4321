import { useCallback } from 'react';
import type { ChartDataset } from 'chart.js';
import type { Sample } from '../../shared/result.ts';
import { baseLineOptions } from '../charts/baseOptions.ts';
import { withAlpha, type Palette } from '../charts/palette.ts';
import { Chart } from '../charts/setup.ts';
import { useChartCanvas } from '../charts/useChartCanvas.ts';
import type { RunStore } from '../run/runStore.ts';
import { pointsOf, type LiveChartSpec, type Point } from './liveSeries.ts';

/**
 * A live chart of one target's samples. Each sample is pushed onto the chart's datasets and
 * drawn with update('none'), so no React state changes per sample (a sample under the seq of
 * the one before replaces its point: the engine's final fold, see Sample.final). The canvas'
 * data-points attribute carries the point count for tests, data-series the lines' ids. The chart is rebuilt only when the target or
 * the theme changes (a new run remounts the chart).
 */
export function useLiveChart(spec: LiveChartSpec, store: RunStore, targetIndex: number | null) {
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

      let lastSeq: number | null = null;
      const append = (sample: Sample): void => {
        const replaces = sample.seq === lastSeq;
        lastSeq = sample.seq;
        pointsOf(spec, sample).forEach((point, k) => {
          const ds = chart.data.datasets[k]!;
          if (replaces) ds.data[ds.data.length - 1] = point;
          else ds.data.push(point);
          if (!seen[k] && point.y !== null && point.y > 0) {
            seen[k] = true;
            ds.hidden = false;
          }
        });
      };
      const draw = (): void => {
        chart.update('none');
        canvas.dataset.points = String(chart.data.datasets[0]!.data.length);
        canvas.dataset.series = spec.series.map((x) => x.id).join(' ');
      };

      if (targetIndex !== null) for (const s of store.samples(targetIndex)) append(s);
      draw();

      const off = store.onSample((i, sample) => {
        if (i !== targetIndex) return;
        append(sample);
        draw();
      });
      return () => {
        off();
        chart.destroy();
      };
    },
    [spec, store, targetIndex],
  );
  return useChartCanvas(setup);
}
