import { useEffect, useRef } from 'react';
import type { ChartDataset } from 'chart.js';
import type { Sample } from '../../shared/result.ts';
import { baseLineOptions } from '../charts/baseOptions.ts';
import { paletteFor, withAlpha } from '../charts/palette.ts';
import { Chart } from '../charts/setup.ts';
import { useColorScheme } from '../charts/useColorScheme.ts';
import type { RunStore } from '../run/runStore.ts';
import { pointsOf, type LiveChartSpec, type Point } from './liveSeries.ts';

/**
 * A live chart of one target's samples. The chart.js instance lives in this effect; each
 * sample is pushed onto its datasets and drawn with update('none'), so no React state
 * changes per sample. The canvas' data-points attribute carries the point count for tests.
 * The chart is rebuilt only when the target, the run or the theme changes.
 */
export function useLiveChart(
  spec: LiveChartSpec,
  store: RunStore,
  targetIndex: number | null,
  generation: number,
) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const scheme = useColorScheme();

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const palette = paletteFor(scheme);
    const datasets: ChartDataset<'line', Point[]>[] = spec.series.map((s) => ({
      label: s.label,
      data: [],
      borderColor: s.color(palette),
      backgroundColor: s.fill ? withAlpha(s.color(palette), 0.15) : s.color(palette),
      fill: s.fill ? 'origin' : false,
      spanGaps: false,
      hidden: s.optional === true,
    }));
    const seen = spec.series.map((s) => s.optional !== true);
    const options = baseLineOptions(palette, 'elapsed (s)', spec.unit);
    options.plugins!.legend!.labels!.filter = (item) =>
      item.datasetIndex === undefined || seen[item.datasetIndex] === true;
    const chart = new Chart<'line', Point[]>(canvas, { type: 'line', data: { datasets }, options });

    const append = (sample: Sample): void => {
      pointsOf(spec, sample).forEach((point, k) => {
        const ds = chart.data.datasets[k]!;
        ds.data.push(point);
        if (!seen[k] && point.y !== null && point.y > 0) {
          seen[k] = true;
          ds.hidden = false;
        }
      });
    };
    const draw = (): void => {
      chart.update('none');
      canvas.dataset.points = String(chart.data.datasets[0]!.data.length);
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
  }, [spec, store, targetIndex, generation, scheme]);

  return canvasRef;
}
