/**
 * A table the shared formatters lay out (head and rows of text, as the CLI and the HTML report
 * print them): the first column heads its row; columns from `numericFrom` on are numbers, or
 * those it names.
 */
export function RowTable({
  head,
  rows,
  numericFrom,
  testId,
  rowData,
}: {
  head: readonly string[];
  rows: readonly (readonly string[])[];
  numericFrom: number | ((column: number) => boolean);
  testId: string;
  /** The data-* attributes of row r ({ 'data-stage': 1 }), for tests and styles. */
  rowData: (r: number) => Record<`data-${string}`, string | number>;
}) {
  const isNumeric = typeof numericFrom === 'number' ? (i: number) => i >= numericFrom : numericFrom;
  const num = (i: number) => (isNumeric(i) ? 'num' : undefined);
  return (
    <table className="table" data-testid={testId}>
      <thead>
        <tr>
          {head.map((h, i) => (
            <th key={h} className={num(i)}>
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row, r) => (
          <tr key={r} {...rowData(r)}>
            {row.map((cell, i) =>
              i === 0 ? (
                <th scope="row" key={i}>
                  {cell}
                </th>
              ) : (
                <td key={i} className={num(i)}>
                  {cell}
                </td>
              ),
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
