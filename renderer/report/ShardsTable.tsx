import type { RunResult } from '../../shared/model/result.ts';
import { shardTable } from '../../shared/format/shards.ts';
import { TableCard } from './ReportTables.tsx';
import { RowTable } from './RowTable.tsx';

/**
 * A run merged from shards: one row per shard (its requests, req/s, p99, generator CPU, start
 * offset), the columns the CLI's and the HTML report's Shards table show (shared/format/shards.ts).
 */
export function ShardsTable({ result }: { result: RunResult }) {
  const table = shardTable(result);
  if (!table) return null;
  return (
    <TableCard title="Shards (start: after the common start)">
      <RowTable
        head={table.head}
        rows={table.rows}
        numericFrom={2}
        testId="shards-table"
        rowData={(r) => ({ 'data-shard': result.shards![r]!.index })}
      />
    </TableCard>
  );
}
