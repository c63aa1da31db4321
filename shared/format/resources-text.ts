/**
 * The text report's "Server resources" block: what was sampled and how, mean and max of each
 * figure, the server CPU-seconds per 10,000 requests, gaps and notes.
 */
import {
  RESOURCE_FIGURE_LABELS,
  RESOURCE_FIGURES,
  type ResourceFigure,
  type ResourceSource,
  type ServerResources,
} from '../resources.ts';
import { alignColumns } from './table.ts';
import { fixed, formatBytes } from './units.ts';

/** A figure's value with its unit, as the report prints it. */
export function formatResourceValue(figure: ResourceFigure, value: number): string {
  switch (figure) {
    case 'cpuPercent':
    case 'cpuUserPercent':
    case 'cpuSystemPercent':
    case 'cpuBusyPercent':
      return `${fixed(value, 1)}%`;
    case 'rssBytes':
    case 'memoryUsedBytes':
      return formatBytes(value);
    case 'netInBytesPerSecond':
    case 'netOutBytesPerSecond':
      return `${formatBytes(value)}/s`;
    case 'load1':
    case 'load5':
    case 'load15':
      return fixed(value, 2);
    case 'threads':
    case 'openFiles':
    case 'processes':
      return Number.isInteger(value) ? String(value) : fixed(value, 1);
  }
}

/** "process tree of nginx (pid 12, listening on port 8080): 3 processes via /proc" */
export function describeResourceSource(source: ResourceSource): string {
  switch (source.method) {
    case 'process': {
      const root = source.processes.find((p) => p.pid === source.rootPid)?.name ?? 'process';
      const how = source.found === 'port' ? `listening on port ${source.port}` : 'given by pid';
      const names = [...new Set(source.processes.map((p) => p.name))].join(', ');
      return `process tree of ${root} (pid ${source.rootPid}, ${how}): ${source.processes.length} processes seen (${names}), read from /proc on ${source.platform}`;
    }
    case 'node-exporter':
      return `node_exporter ${source.url}${source.cpuCount === null ? '' : ` (${source.cpuCount} CPUs)`}: the whole machine`;
    case 'none':
      return `not sampled: ${source.reason}`;
  }
}

export function formatServerResources(sr: ServerResources): string {
  const lines = ['Server resources:', `  ${describeResourceSource(sr.source)}`];
  const rows: string[][] = [];
  for (const figure of RESOURCE_FIGURES) {
    const stats = sr.summary[figure];
    if (!stats) continue;
    rows.push([
      RESOURCE_FIGURE_LABELS[figure],
      formatResourceValue(figure, stats.mean),
      formatResourceValue(figure, stats.max),
    ]);
  }
  if (rows.length > 0) lines.push(...alignColumns([['', 'mean', 'max'], ...rows], 1).map((l) => `  ${l}`));
  if (sr.cpuSecondsPer10kRequests !== null) {
    lines.push(`  server CPU-seconds per 10,000 requests: ${fixed(sr.cpuSecondsPer10kRequests, 3)}`);
  }
  for (const g of sr.gaps)
    lines.push(`  gap (${g.count}x from ${fixed(g.firstElapsedSeconds, 1)} s): ${g.reason}`);
  for (const n of sr.notes) lines.push(`  note: ${n}`);
  if (sr.monitorCpuPercent !== null)
    lines.push(`  monitor cost: ${fixed(sr.monitorCpuPercent, 2)}% of a core`);
  return lines.join('\n') + '\n';
}
