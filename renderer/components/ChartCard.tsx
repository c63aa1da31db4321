import { useCallback, type ReactNode, type RefObject } from 'react';
import type { ChartConfiguration } from 'chart.js';
import type { Palette } from '../charts/palette.ts';
import { Chart } from '../charts/setup.ts';
import { useChartCanvas } from '../charts/useChartCanvas.ts';
import { ChartPngButton } from '../charts/ChartPngButton.tsx';
import type { ChartAbout, ChartSubject } from '../charts/chartSubject.ts';
import './ChartCard.css';

interface ChartFrameProps {
  canvasRef: RefObject<HTMLCanvasElement | null>;
  title: ReactNode;
  /** What the chart shows, for screen readers. */
  label: string;
  /** data-testid of the canvas, e.g. "chart-compare-rps"; its PNG button is "png-" + testId. */
  testId: string;
  /** What the chart shows, for its PNG's title line and file name. */
  subject: ChartSubject;
  tall?: boolean;
  actions?: ReactNode;
  /** A line under the chart (what its marks mean). */
  note?: ReactNode;
}

/** A chart's card: title, actions and a button that saves the chart as a PNG, above the canvas. */
export function ChartFrame({
  canvasRef,
  title,
  label,
  testId,
  subject,
  tall,
  actions,
  note,
}: ChartFrameProps) {
  return (
    <figure className={`card chart-card${tall ? ' chart-card--tall' : ''}`}>
      <figcaption className="chart-card__title chart-card__title--actions">
        <span title={label}>{title}</span>
        <span className="chart-card__actions">
          {actions}
          <ChartPngButton canvasRef={canvasRef} subject={subject} chart={label} testId={`png-${testId}`} />
        </span>
      </figcaption>
      <div className="chart-card__canvas">
        <canvas ref={canvasRef} data-testid={testId} role="img" aria-label={label} />
      </div>
      {note && (
        <p className="chart-card__note" data-testid={`${testId}-note`}>
          {note}
        </p>
      )}
    </figure>
  );
}

interface ChartCardProps extends Omit<ChartFrameProps, 'canvasRef' | 'title' | 'label' | 'subject'> {
  title: string;
  /** The figure's word in the PNG's file name ("rps-by-level"). */
  slug: string;
  /** The targets, load and date the chart's data is about. */
  about: ChartAbout;
  /** Builds the chart for the current theme; a new function (new data) redraws it. */
  build: (palette: Palette) => ChartConfiguration;
  /** How many of its points carry a caveat mark, for tests to read. */
  marks?: number;
}

/** Points a configuration draws (nulls are gaps, not points). */
function pointCount(config: ChartConfiguration): number {
  return config.data.datasets.reduce((n, d) => n + d.data.filter((v) => v !== null).length, 0);
}

/** A chart drawn once from finished data (a report, a comparison, a saved run), in a card. */
export function ChartCard({ build, slug, about, marks = 0, ...frame }: ChartCardProps) {
  const setup = useCallback(
    (canvas: HTMLCanvasElement, palette: Palette) => {
      const config = build(palette);
      const chart = new Chart(canvas, config);
      // How many points are drawn, and how many marked, for tests to read.
      canvas.dataset.points = String(pointCount(config));
      canvas.dataset.caveats = String(marks);
      return () => chart.destroy();
    },
    [build, marks],
  );
  const canvasRef = useChartCanvas(setup);
  const subject = { figure: frame.title, slug, ...about };
  return <ChartFrame canvasRef={canvasRef} label={frame.title} subject={subject} {...frame} />;
}
