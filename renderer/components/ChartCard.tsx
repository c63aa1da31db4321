import { useCallback, type ReactNode, type RefObject } from 'react';
import type { ChartConfiguration } from 'chart.js';
import type { Palette } from '../charts/palette.ts';
import { Chart } from '../charts/setup.ts';
import { useChartCanvas } from '../charts/useChartCanvas.ts';
import { ChartPngButton } from '../views/Export/ChartPngButton.tsx';

interface ChartFrameProps {
  canvasRef: RefObject<HTMLCanvasElement | null>;
  title: ReactNode;
  /** What the chart shows, for screen readers. */
  label: string;
  /** data-testid of the canvas, e.g. "chart-compare-rps"; its PNG button is "png-" + testId. */
  testId: string;
  /** File name of the PNG export, without extension. */
  fileName: string;
  tall?: boolean;
  actions?: ReactNode;
}

/** A chart's card: title, actions and a button that saves the chart as a PNG, above the canvas. */
export function ChartFrame({ canvasRef, title, label, testId, fileName, tall, actions }: ChartFrameProps) {
  return (
    <figure className={`card chart-card${tall ? ' chart-card--tall' : ''}`}>
      <figcaption className="chart-card__title chart-card__title--actions">
        <span title={label}>{title}</span>
        <span className="chart-card__actions">
          {actions}
          <ChartPngButton canvasRef={canvasRef} fileName={fileName} testId={`png-${testId}`} />
        </span>
      </figcaption>
      <div className="chart-card__canvas">
        <canvas ref={canvasRef} data-testid={testId} role="img" aria-label={label} />
      </div>
    </figure>
  );
}

interface ChartCardProps extends Omit<ChartFrameProps, 'canvasRef' | 'title' | 'label'> {
  title: string;
  /** Builds the chart for the current theme; a new function (new data) redraws it. */
  build: (palette: Palette) => ChartConfiguration;
}

/** Points a configuration draws (nulls are gaps, not points). */
function pointCount(config: ChartConfiguration): number {
  return config.data.datasets.reduce((n, d) => n + d.data.filter((v) => v !== null).length, 0);
}

/** A chart drawn once from finished data (a report, a comparison, a saved run), in a card. */
export function ChartCard({ build, ...frame }: ChartCardProps) {
  const setup = useCallback(
    (canvas: HTMLCanvasElement, palette: Palette) => {
      const config = build(palette);
      const chart = new Chart(canvas, config);
      // How many points are drawn, for tests to read.
      canvas.dataset.points = String(pointCount(config));
      return () => chart.destroy();
    },
    [build],
  );
  const canvasRef = useChartCanvas(setup);
  return <ChartFrame canvasRef={canvasRef} label={frame.title} {...frame} />;
}
