import type { RunResult } from '../../shared/model/result.ts';
import { shardTable } from '../../shared/format/shards.ts';
import { TableCard } from './ReportTables.tsx';

/**
 * A run merged from shards: one row per shard (its requests, req/s, p99, generator CPU, start
 * offset), the columns the CLI's and the HTML report's Shards table show (shared/format/shards.ts).
 */
export function ShardsTable({ result }: { result: RunResult }) {
  const table = shardTable(result);
  if (!table) return null;
  return (
    <TableCard title="Shards (start: after the common start)">
      <table className="table" data-testid="shards-table">
        <thead>
          <tr>
            {table.head.map((h, i) => (
              <th key={h} className={i > 1 ? 'num' : undefined}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {table.rows.map((row, r) => (
            <tr key={r} data-shard={result.shards![r]!.index}>
              {row.map((cell, i) =>
                i === 0 ? (
                  <th scope="row" key={i}>
                    {cell}
                  </th>
                ) : (
                  <td key={i} className={i > 1 ? 'num' : undefined}>
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
