import { cellKey, type CellCoordinates, type CellOutcome } from '../../../shared/comparison/cells.ts';
import {
  comparisonTargetLabel,
  levelKindOf,
  levelLabel,
  type ComparisonPlan,
} from '../../../shared/comparison/plan.ts';
import { columnAffected, MATRIX_COLUMNS } from '../../../shared/comparison/columns.ts';
import { type MatrixCell, type MatrixColumn } from '../../../shared/comparison/matrix.ts';
import {
  MATRIX_COLUMN_IDS,
  type MatrixColumnId,
  type ReportLayout,
} from '../../../shared/comparison/report-settings.ts';
import type { VerdictFigure } from '../../../shared/verdict/caveats.ts';

/*
 * What the comparison report's matrix shows besides the registry's columns: which columns
 * are on, the name of a cell and its runs (each cell opens its run's full report), and
 * where a caveat marks the charts. Pure.
 */

/** Whose layout a run's text is in, as a button or a title names it. */
export const LAYOUT_NAMES: Record<ReportLayout, string> = {
  text: 'Trebuchet',
  ab: 'ab',
  vegeta: 'vegeta',
  jmeter: 'JMeter',
  http_load: 'http_load',
};

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

/**
 * A cell's name: "nginx · https · c=100", with " · #2" for one repetition. The protocol is
 * named only when the plan compares several.
 */
export function cellLabel(
  plan: Pick<ComparisonPlan, 'targets' | 'protocols' | 'load'>,
  c: Pick<CellCoordinates, 'targetIndex' | 'protocol' | 'level'> & { repetition?: number },
): string {
  const target = plan.targets[c.targetIndex];
  return [
    target ? comparisonTargetLabel(target) : `target ${c.targetIndex + 1}`,
    ...(plan.protocols.length > 1 ? [c.protocol] : []),
    levelLabel(levelKindOf(plan.load), c.level),
    ...(c.repetition === undefined ? [] : [`#${c.repetition + 1}`]),
  ].join(' · ');
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

/** True when a measured cell's column shows a figure a bad caveat makes not the server's. */
export function figureMarked(column: MatrixColumn, cell: MatrixCell): boolean {
  // A cell not run yet has nothing to mark (its verdict is "not measured" until it runs).
  return cell.results.length > 0 && columnAffected(column, cell);
}

/** Keys of the cells whose figure (throughput or latency) a bad caveat makes not the server's. */
export function caveatKeys(
  cells: readonly MatrixCell[],
  figure: Exclude<VerdictFigure, 'success'>,
): Set<string> {
  const column = MATRIX_COLUMNS[figure === 'throughput' ? 'rps' : 'p99'];
  return new Set(cells.filter((c) => figureMarked(column, c)).map((c) => c.key));
}

/** The cells with something to say, for the list under the matrix: not clean first. */
export function cellsWithCaveats(cells: readonly MatrixCell[]): MatrixCell[] {
  const said = cells.filter((c) => c.results.length > 0 && c.verdict.caveats.length > 0);
  return [...said.filter((c) => !c.verdict.clean), ...said.filter((c) => c.verdict.clean)];
}
