import type { MatrixCell } from './matrix.ts';
import type { RunResult } from '../model/result.ts';

/* A matrix cell's figure from its counted runs (mean, sum, max), for the columns' registries. */

const mean = (values: readonly (number | null | undefined)[]): number | null => {
  const xs = values.filter((v): v is number => typeof v === 'number');
  return xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length;
};

/** Summed over the counted runs; null before any. */
export const sum = (cell: MatrixCell, get: (r: RunResult) => number | null): number | null => {
  if (cell.counted.length === 0) return null;
  const xs = cell.counted.map(get);
  return xs.every((x) => x === null) ? null : xs.reduce<number>((a, b) => a + (b ?? 0), 0);
};

/** The mean over the counted runs that have the figure; null before any. */
export const meanOf = (cell: MatrixCell, get: (r: RunResult) => number | null | undefined): number | null =>
  mean(cell.counted.map(get));

/** The largest over the counted runs; null before any has the figure. */
export const maxOf = (cell: MatrixCell, get: (r: RunResult) => number | null | undefined): number | null => {
  const xs = cell.counted.map(get).filter((v): v is number => typeof v === 'number');
  return xs.length === 0 ? null : Math.max(...xs);
};
