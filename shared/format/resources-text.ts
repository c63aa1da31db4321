/**
 * The text report's "Server resources" block: what was sampled and how, mean and max of each
 * figure, the server CPU-seconds per 10,000 requests, gaps and notes.
 */
import type { ServerResources } from '../model/server-resources.ts';
import { describeResourceSource, resourceRows, workersText } from './resources-table.ts';
import { formatCpuPer10k } from '../resources/figure-text.ts';
import { alignColumns } from './table.ts';
import { fixed } from '../figures/units.ts';

export function formatServerResources(sr: ServerResources): string {
  const lines = ['Server resources:', `  ${describeResourceSource(sr.source)}`];
  const rows = resourceRows(sr).map((r) => [r.label, r.meanText, r.maxText]);
  if (rows.length > 0) lines.push(...alignColumns([['', 'mean', 'max'], ...rows], 1).map((l) => `  ${l}`));
  if (sr.workers) lines.push(`  ${workersText(sr.workers)}`);
  if (sr.cpuSecondsPer10kRequests !== null) {
    lines.push(`  server CPU-seconds per 10,000 requests: ${formatCpuPer10k(sr.cpuSecondsPer10kRequests)}`);
  }
  for (const g of sr.gaps)
    lines.push(`  gap (${g.count}x from ${fixed(g.firstElapsedSeconds, 1)} s): ${g.reason}`);
  for (const n of sr.notes) lines.push(`  note: ${n}`);
  if (sr.monitorCpuPercent !== null)
    lines.push(`  monitor cost: ${fixed(sr.monitorCpuPercent, 2)}% of a core`);
  return lines.join('\n') + '\n';
}
