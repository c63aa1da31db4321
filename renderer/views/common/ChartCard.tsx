import { useEffect, useRef, type ReactNode } from 'react';
import type { ChartConfiguration } from 'chart.js';
import { paletteFor, type Palette } from '../../charts/palette.ts';
import { useColorScheme } from '../../charts/useColorScheme.ts';
import { Chart } from './chart.ts';
import { ChartPngButton } from '../Export/ChartPngButton.tsx';

interface ChartCardProps {
  title: string;
  /** data-testid of the canvas, e.g. "chart-compare-rps". */
  testId: string;
  /** File name of the PNG export, without extension. */
  fileName: string;
  /** Builds the chart for the current theme; a new function (new data) redraws it. */
  build: (palette: Palette) => ChartConfiguration;
  tall?: boolean;
  actions?: ReactNode;
}

/** Points a configuration draws (nulls are gaps, not points). */
function pointCount(config: ChartConfiguration): number {
  return config.data.datasets.reduce((n, d) => n + d.data.filter((v) => v !== null).length, 0);
}

/** A chart in a card, with a button that saves it as a PNG. */
export function ChartCard({ title, testId, fileName, build, tall, actions }: ChartCardProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const scheme = useColorScheme();

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const config = build(paletteFor(scheme));
    const chart = new Chart(canvas, config);
    // How many points are drawn, for tests to read.
    canvas.dataset.points = String(pointCount(config));
    return () => chart.destroy();
  }, [build, scheme]);

  return (
    <figure className={`card chart-card${tall ? ' chart-card--tall' : ''}`}>
      <figcaption className="chart-card__title chart-card__title--actions">
        <span>{title}</span>
        <span className="chart-card__actions">
          {actions}
          <ChartPngButton canvasRef={canvasRef} fileName={fileName} testId={`png-${testId}`} />
        </span>
      </figcaption>
      <div className="chart-card__canvas">
        <canvas ref={canvasRef} data-testid={testId} role="img" aria-label={title} />
      </div>
    </figure>
  );
}
