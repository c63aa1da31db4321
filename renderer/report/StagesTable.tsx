import type { RunResult } from '../../shared/model/result.ts';
import { stageTable } from '../../shared/format/stages.ts';
import { TableCard } from './ReportTables.tsx';
import { RowTable } from './RowTable.tsx';

/** A staged run's rows, one per stage, in the columns the CLI, CSV and HTML report show. */
export function StagesTable({ result }: { result: RunResult }) {
  const table = stageTable(result);
  if (!table) return null;
  return (
    <TableCard title="Stages">
      <RowTable
        head={table.head}
        rows={table.rows}
        numericFrom={3}
        testId="stages-table"
        rowData={(r) => ({ 'data-stage': r + 1 })}
      />
    </TableCard>
  );
}
