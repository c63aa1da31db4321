/*
 * A server figure as every view writes it (the report's table, the matrix, the charts' axes):
 * its value with its unit, the efficiency figure, and the verdict figure they go with.
 */
import type { VerdictFigure } from '../model/verdict-record.ts';
import { fixed, formatBytes } from '../figures/units.ts';
import type { ResourceFigure } from '../model/server-resources.ts';

/** A figure's value with its unit, as the report prints it. */
export function formatResourceValue(figure: ResourceFigure, value: number): string {
  switch (figure) {
    case 'cpuPercent':
    case 'cpuUserPercent':
    case 'cpuSystemPercent':
    case 'busiestCpuPercent':
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

/**
 * The verdict figure the server's figures go with: they are the server's work under the
 * load that was sent, so when the client (not the server) was the limit, or the open
 * model's rate was not reached, they are not the server's under the load asked for.
 */
export const SERVER_VERDICT_FIGURE: VerdictFigure = 'throughput';

/** The efficiency figure as reports print it: "0.123". */
export const formatCpuPer10k = (v: number): string => fixed(v, 3);
