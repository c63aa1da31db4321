import { useState, type RefObject } from 'react';
import { chartToPng } from './chartImage.ts';
import { fileSlug } from '../../../shared/file-name.ts';
import { downloadBlob } from './download.ts';
import { errorText } from '../../lib/errors.ts';

/** Saves the chart drawn on the canvas as a PNG (full resolution, opaque background). */
export function ChartPngButton({
  canvasRef,
  fileName,
  testId,
}: {
  canvasRef: RefObject<HTMLCanvasElement | null>;
  fileName: string;
  testId?: string;
}) {
  const [failed, setFailed] = useState<string | null>(null);
  const save = () => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    chartToPng(canvas).then(
      (blob) => {
        setFailed(null);
        downloadBlob(blob, `${fileSlug(fileName, 'chart')}.png`);
      },
      (e: unknown) => setFailed(errorText(e)),
    );
  };
  return (
    <button
      type="button"
      className="btn btn--ghost btn--xs"
      title={failed ?? 'Save this chart as a PNG image'}
      data-testid={testId}
      onClick={save}
    >
      PNG
    </button>
  );
}
