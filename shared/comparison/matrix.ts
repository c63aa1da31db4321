/* The matrix's cells (a comparison's runs per target, protocol and level, with their verdict) and what a column of it is. */
import { cellKey, type CellOutcome } from './cells.ts';
import type { ColumnValue } from './column-format.ts';
import type { MatrixColumnId } from './report-settings.ts';
import type { CellAggregate, ComparisonTable } from './table.ts';
import type { RunResult } from '../model/result.ts';
import type { VerdictFigure } from '../verdict/caveats.ts';
import { cellVerdict, type Verdict } from '../verdict/verdict.ts';

/** A cell of the matrix with its runs and verdict. */
export interface MatrixCell extends CellAggregate {
  /** The cell's outcomes in repetition order. */
  outcomes: CellOutcome[];
  /** Every run of the cell in repetition order, failed and stopped ones included. */
  results: RunResult[];
  /** The runs its figures come from (completed ones, as in summarizeRepetitions). */
  counted: RunResult[];
  verdict: Verdict;
}

/** The table's cells (plan order) with their runs and verdicts. */
export function matrixCells(table: ComparisonTable, outcomes: readonly CellOutcome[]): MatrixCell[] {
  const byKey = new Map<string, CellOutcome[]>();
  for (const o of outcomes) {
    const k = cellKey(o.coordinates);
    byKey.set(k, [...(byKey.get(k) ?? []), o]);
  }
  return table.cells.map((cell) => {
    const mine = (byKey.get(cell.key) ?? []).sort(
      (a, b) => a.coordinates.repetition - b.coordinates.repetition,
    );
    const results = mine.map((o) => o.result);
    return {
      ...cell,
      outcomes: mine,
      results,
      counted: results.filter((r) => r.status === 'completed'),
      verdict: cellVerdict(results),
    };
  });
}

export interface MatrixColumn {
  id: MatrixColumnId;
  /** Short header: "req/s", "p99". */
  label: string;
  /** What the figure counts in ('' for text): "req/s", "ms", "s", "requests", "%". */
  unit: string;
  /** How the cell's value comes from its runs, for a tooltip and the docs. */
  description: string;
  /** The verdict figure it shows, so a view marks it when a caveat affects that figure. */
  figure: VerdictFigure | null;
  value(cell: MatrixCell): ColumnValue;
  format(value: ColumnValue): string;
}

/** The cells with something to say, for the list under the matrix (the app's and the HTML report's): not clean first. */
export function cellsWithCaveats(cells: readonly MatrixCell[]): MatrixCell[] {
  const said = cells.filter((c) => c.results.length > 0 && c.verdict.caveats.length > 0);
  return [...said.filter((c) => !c.verdict.clean), ...said.filter((c) => c.verdict.clean)];
}
