import { useEffect, useRef } from 'react';
import { paletteFor, type Palette } from './palette.ts';
import { useColorScheme } from './useColorScheme.ts';

/** Draws a chart on the canvas and returns the function that destroys it. */
export type ChartSetup = (canvas: HTMLCanvasElement, palette: Palette) => () => void;

/**
 * The canvas of one chart.js chart: setup draws it in the OS theme's palette, and it is
 * destroyed and drawn again when the theme or setup (memoise it) changes.
 */
export function useChartCanvas(setup: ChartSetup) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const scheme = useColorScheme();
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    return setup(canvas, paletteFor(scheme));
  }, [setup, scheme]);
  return canvasRef;
}
