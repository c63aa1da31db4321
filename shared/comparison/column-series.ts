import { cellKey } from './cells.ts';
import { columnAffected, MATRIX_COLUMNS } from './columns.ts';
import { type MatrixCell } from './matrix.ts';
import type { ComparisonTable } from './table.ts';
import type { ProtocolVariant } from './plan.ts';
import type { MatrixColumnId } from './report-settings.ts';

/** One column's figure against the level, per target (and protocol): a bar chart's data. */
export interface ColumnSeries {
  targetIndex: number;
  protocol: ProtocolVariant;
  /** "nginx" with one protocol, "nginx · https" with several. */
  label: string;
  /** Ascending. */
  levels: number[];
  /** The column's value at each level; null where the cell has none. */
  values: (number | null)[];
  /** Whether a bad caveat affects the column's figure at each level (columnAffected). */
  affected: boolean[];
}

/** A numeric column of the matrix per target and protocol, level by level (plan order). */
export function columnSeries(
  table: ComparisonTable,
  cells: readonly MatrixCell[],
  id: MatrixColumnId,
): ColumnSeries[] {
  const column = MATRIX_COLUMNS[id];
  const levels = [...table.levels].sort((a, b) => a - b);
  const byKey = new Map(cells.map((c) => [c.key, c]));
  return table.protocols.flatMap((protocol) =>
    table.targets.map((target, targetIndex) => {
      const at = levels.map((level) => byKey.get(cellKey({ targetIndex, protocol, level })));
      return {
        targetIndex,
        protocol,
        label: table.protocols.length > 1 ? `${target} · ${protocol}` : target,
        levels,
        values: at.map((c) => {
          const v = c ? column.value(c) : null;
          return typeof v === 'number' ? v : null;
        }),
        affected: at.map((c) => c !== undefined && columnAffected(column, c)),
      };
    }),
  );
}

/** True when some cell has the column's figure (a chart of it is worth drawing). */
export const columnHasData = (series: readonly ColumnSeries[]): boolean =>
  series.some((s) => s.values.some((v) => v !== null));

/**
 * The points of a column's series a caveat marks (hatched bars, hollow points on dashed
 * lines): every chart of the column counts them here, the app's and the HTML report's.
 */
export function columnMarks(series: readonly ColumnSeries[]): number {
  return series.reduce((n, s) => n + s.values.filter((v, i) => v !== null && s.affected[i]).length, 0);
}

/** The keys (cellKey) of the cells whose point a chart of the column draws marked. */
export function markedCells(series: readonly ColumnSeries[]): Set<string> {
  return new Set(
    series.flatMap((s) =>
      s.levels.flatMap((level, i) =>
        s.affected[i] ? [cellKey({ targetIndex: s.targetIndex, protocol: s.protocol, level })] : [],
      ),
    ),
  );
}

/**
 * What a chart's marks mean, said under the chart only when it has one ("Hatched bar: ..."),
 * so a chart of clean cells never carries a warning.
 */
export function marksNote(marks: number, look: string): string | null {
  return marks > 0
    ? `${look}: the cell has a caveat (listed under the matrix), so the figure is not the server’s.`
    : null;
}
