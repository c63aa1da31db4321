import type { RunResult } from '../../shared/model/result.ts';
import { stageTable } from '../../shared/format/stages.ts';
import { TableCard } from './ReportTables.tsx';

/** A staged run's rows, one per stage, in the columns the CLI, CSV and HTML report show. */
export function StagesTable({ result }: { result: RunResult }) {
  const table = stageTable(result);
  if (!table) return null;
  return (
    <TableCard title="Stages">
      <table className="table" data-testid="stages-table">
        <thead>
          <tr>
            {table.head.map((h, i) => (
              <th key={h} className={i > 2 ? 'num' : undefined}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {table.rows.map((row, r) => (
            <tr key={r} data-stage={r + 1}>
              {row.map((cell, i) =>
                i === 0 ? (
                  <th scope="row" key={i}>
                    {cell}
                  </th>
                ) : (
                  <td key={i} className={i > 2 ? 'num' : undefined}>
                    {cell}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </TableCard>
  );
}
