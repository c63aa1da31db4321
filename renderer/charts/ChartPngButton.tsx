import { useState, type RefObject } from 'react';
import { Chart } from './setup.ts';
import { errorText } from '../lib/errors.ts';
import { chartToPng } from './chartImage.ts';
import { chartFileName, chartTitle, type ChartSubject } from './chartSubject.ts';
import { downloadBlob } from '../lib/download.ts';

/** Saves the chart drawn on the canvas as a PNG: twice its size on screen, under a title line. */
export function ChartPngButton({
  canvasRef,
  subject,
  chart,
  testId,
}: {
  canvasRef: RefObject<HTMLCanvasElement | null>;
  subject: ChartSubject;
  /** Which chart, in its button's name ("PNG of Throughput"): a page has several. */
  chart: string;
  testId?: string;
}) {
  const [failed, setFailed] = useState<string | null>(null);
  const save = () => {
    const canvas = canvasRef.current;
    const chart = canvas ? Chart.getChart(canvas) : undefined;
    if (!chart) return;
    chartToPng(chart, chartTitle(subject)).then(
      (blob) => {
        setFailed(null);
        downloadBlob(blob, chartFileName(subject));
      },
      (e: unknown) => setFailed(errorText(e)),
    );
  };
  return (
    <button
      type="button"
      className="btn btn--ghost btn--xs"
      title={failed ?? 'Save this chart as a PNG image'}
      aria-label={`PNG of ${chart}`}
      data-testid={testId}
      onClick={save}
    >
      PNG
    </button>
  );
}
