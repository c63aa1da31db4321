/** Plain-text tables for the text reports: one aligner, so every layout pads alike. */

const GAP = '  ';

/**
 * Rows with each column padded to its widest cell, two spaces apart, trailing spaces
 * trimmed: the first `textColumns` columns left-aligned (text), the rest right-aligned
 * (figures), or the columns the predicate names. All left-aligned is what Go's tabwriter (padding 2) prints for vegeta.
 */
export function alignColumns(
  rows: readonly (readonly string[])[],
  textColumns: number | ((column: number) => boolean) = Infinity,
): string[] {
  const isText = typeof textColumns === 'number' ? (i: number) => i < textColumns : textColumns;
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((row) =>
    row
      .map((cell, i) => (isText(i) ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join(GAP)
      .trimEnd(),
  );
}
