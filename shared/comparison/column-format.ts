import { fixed, formatCount, formatGrouped } from '../figures/units.ts';

/* How a table column writes its value, shared by the matrix and the per-repetition table. */

/** What a view shows for a missing figure. */
export const NO_VALUE = '–';

/** A column's value for a cell: a figure, a text, or null when there is none. */
export type ColumnValue = number | string | null;

/** Grouped thousands with fixed decimals: `12,345.68`. */
export const numberFormat =
  (decimals: number) =>
  (v: ColumnValue): string =>
    v === null ? NO_VALUE : typeof v === 'string' ? v : formatGrouped(v, decimals);
/** A whole count: `1,234`. */
export const countFormat = (v: ColumnValue): string =>
  v === null ? NO_VALUE : typeof v === 'string' ? v : formatCount(v);
/** A percentage already in percent: `99.50%`. */
export const percentFormat = (v: ColumnValue): string =>
  v === null ? NO_VALUE : typeof v === 'string' ? v : `${fixed(v, 2)}%`;
/** A text as it is. */
export const textFormat = (v: ColumnValue): string => (v === null ? NO_VALUE : String(v));
