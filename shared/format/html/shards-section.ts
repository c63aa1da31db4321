/** A merged run's Shards table in the HTML report (shared/format/shards.ts). */
import type { RunResult } from '../../model/result.ts';
import { shardTable } from '../shards.ts';
import { htmlTable } from './table.ts';

/** The Shards table; empty for a run not merged from shards. */
export function shardsTable(r: RunResult, id: string): string {
  const table = shardTable(r);
  if (!table) return '';
  return (
    `<h4>Shards</h4>` +
    htmlTable({
      head: table.head,
      rows: table.rows,
      numeric: (i) => i > 1,
      rowHeaders: 1,
      testId: `${id}-shards`,
    })
  );
}
