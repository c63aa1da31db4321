/**
 * A run's Shards table (`--shards N --on local|kubernetes`, `trebuchet merge`), one row per
 * shard, numbered from 1 as `--shard i/N` is: its requests, req/s, p99, its generator's CPU and
 * how late its load began after the common start. The same columns in the CLI's text report and
 * the HTML report.
 */
import type { RunResult } from '../model/result.ts';
import type { ShardRow } from '../model/shard-facts.ts';
import { alignColumns } from './table.ts';
import { formatCount, formatGrouped } from '../figures/units.ts';

const COLUMNS: readonly { head: string; text: (s: ShardRow) => string }[] = [
  { head: 'shard', text: (s) => String(s.index + 1) },
  { head: 'host', text: (s) => `${s.host} (${s.cores} cores)` },
  { head: 'requests', text: (s) => formatCount(s.requests) },
  { head: 'req/s', text: (s) => formatGrouped(s.requestsPerSecond, 1) },
  { head: 'p99 ms', text: (s) => (s.p99 === null ? '–' : formatGrouped(s.p99, 3)) },
  { head: 'CPU %', text: (s) => `${formatGrouped(s.cpuPercentMean, 0)}${s.saturated ? ' (flat out)' : ''}` },
  { head: 'start +ms', text: (s) => formatGrouped(s.startOffsetMs, 1) },
];

/** The table's heading and rows as text; null for a run not merged from shards. */
export function shardTable(r: RunResult): { head: string[]; rows: string[][] } | null {
  if (!r.shards) return null;
  return { head: COLUMNS.map((c) => c.head), rows: r.shards.map((s) => COLUMNS.map((c) => c.text(s))) };
}

/** The text report's "Shards:" block; empty for a run not merged from shards. */
export function shardsReportText(r: RunResult): string {
  const table = shardTable(r);
  if (!table) return '';
  const lines = alignColumns([table.head, ...table.rows], 1);
  return ['Shards (start: after the common start):', ...lines.map((l) => `  ${l}`)].join('\n') + '\n';
}
