import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { ChartConfiguration } from 'chart.js';
import { paletteFor, type Palette } from '../../charts/palette.ts';
import { useColorScheme } from '../../charts/useColorScheme.ts';
import { Chart } from './chart.ts';
import { ChartPngButton } from '../Export/ChartPngButton.tsx';

interface ChartCardProps {
  title: ReactNode;
  /** data-testid of the canvas, e.g. "chart-compare-rps". */
  testId: string;
  /** File name of the PNG export, without extension. */
  fileName: string;
  /** Builds the chart for the current theme; a new function (new data) redraws it. */
  build: (palette: Palette) => ChartConfiguration;
  /** How many points the chart holds (data-points on the canvas, for tests). */
  points: number;
  tall?: boolean;
  actions?: ReactNode;
}

/** A chart in a card, with a button that saves it as a PNG. */
export function ChartCard({ title, testId, fileName, build, points, tall, actions }: ChartCardProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const scheme = useColorScheme();
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    try {
      const chart = new Chart(canvas, build(paletteFor(scheme)));
      setError(null);
      return () => chart.destroy();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      return undefined;
    }
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
      {error && <p className="muted small">This chart could not be drawn: {error}</p>}
      <div className="chart-card__canvas">
        <canvas ref={canvasRef} data-testid={testId} data-points={points} role="img" aria-label={String(title)} />
      </div>
    </figure>
  );
}
