import { cellKey, type CellOutcome } from '../../../shared/comparison/cells.ts';
import { columnText, MATRIX_COLUMNS } from '../../../shared/comparison/columns.ts';
import { formatResourceValue } from '../../../shared/resources/figure-text.ts';
import { formatLiveRate } from '../../../shared/figures/units.ts';
import type { CellProgress } from './comparisonRun.ts';
import { type MatrixCell } from '../../../shared/comparison/matrix.ts';
import { MATRIX_COLUMN_IDS, type MatrixColumnId } from '../../../shared/comparison/report-settings.ts';

/*
 * What the comparison report's matrix shows besides the registry's columns: which columns
 * are on, and which run a cell opens (each cell opens its run's full report). Pure.
 */

/** The matrix's columns with one turned on or off; a new one goes in its registry place among those shown. */
export function toggleColumn(
  columns: readonly MatrixColumnId[],
  id: MatrixColumnId,
  on: boolean,
): MatrixColumnId[] {
  const without = columns.filter((c) => c !== id);
  if (!on) return without;
  // In its place among the others: before the first one shown that comes after it in the registry.
  const rank = (c: MatrixColumnId): number => MATRIX_COLUMN_IDS.indexOf(c);
  const before = without.findIndex((c) => rank(c) > rank(id));
  return before === -1 ? [...without, id] : [...without.slice(0, before), id, ...without.slice(before)];
}

/** Every column the picker offers, in the registry's order, with whether it is shown. */
export function columnChoices(
  columns: readonly MatrixColumnId[],
): { id: MatrixColumnId; label: string; description: string; on: boolean }[] {
  return MATRIX_COLUMN_IDS.map((id) => ({
    id,
    label: MATRIX_COLUMNS[id].label,
    description: MATRIX_COLUMNS[id].description,
    on: columns.includes(id),
  }));
}

/** The run a person opened, with the other repetitions of its cell (repetition order). */
export interface OpenedRun {
  outcome: CellOutcome;
  /** Every finished run of the same cell, this one included. */
  siblings: CellOutcome[];
}

/** The run of cellIndex and its cell's other runs; null when it has not finished (or is unknown). */
export function openedRun(outcomes: readonly CellOutcome[], cellIndex: number): OpenedRun | null {
  const outcome = outcomes.find((o) => o.cellIndex === cellIndex);
  if (!outcome) return null;
  const key = cellKey(outcome.coordinates);
  const siblings = outcomes
    .filter((o) => cellKey(o.coordinates) === key)
    .sort((a, b) => a.coordinates.repetition - b.coordinates.repetition);
  return { outcome, siblings };
}

/** The run a matrix cell opens: its first finished repetition; null before any. */
export function firstRunOf(cell: Pick<MatrixCell, 'outcomes'>): number | null {
  return cell.outcomes[0]?.cellIndex ?? null;
}

/** What the progress grid says under a cell's squares. */
export interface GridFigures {
  /** "12,345.68 req/s", or the running repetition's "now 12,345 req/s"; null before any figure. */
  rps: string | null;
  /** "12.3% server CPU" (% of a core; the server's, not the generator's), or the running repetition's; null when not watched. */
  cpu: string | null;
}

/**
 * A cell's figures in the progress grid: the running repetition's live reading while one
 * runs, else the matrix's own (the mean of the counted repetitions, shared/comparison/
 * columns.ts), so the grid never shows one repetition's figure beside the matrix's mean.
 */
export function gridFigures(cell: MatrixCell | undefined, running: CellProgress | undefined): GridFigures {
  if (running) {
    return {
      rps: running.rps === null ? null : `now ${formatLiveRate(running.rps)} req/s`,
      cpu: running.cpu === null ? null : `${formatResourceValue('cpuPercent', running.cpu)} server CPU`,
    };
  }
  const figure = (id: 'rps' | 'serverCpuMean', unit: string): string | null =>
    cell && MATRIX_COLUMNS[id].value(cell) !== null
      ? `${columnText(MATRIX_COLUMNS[id], cell)} ${unit}`
      : null;
  return { rps: figure('rps', 'req/s'), cpu: figure('serverCpuMean', 'server CPU') };
}
