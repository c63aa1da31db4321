import { NO_VALUE, type ColumnValue } from './column-format.ts';
import type { MatrixColumn } from './matrix.ts';
import { formatCpuPer10k, formatResourceValue, SERVER_VERDICT_FIGURE } from '../resources/figure-text.ts';
import { maxOf, meanOf } from './cell-figures.ts';
import type { MatrixColumnId } from './report-settings.ts';
import type { FigureStats, ResourceFigure } from '../model/server-resources.ts';
import type { RunResult } from '../model/result.ts';

/* The matrix's server columns (target.monitor, issue 11), part of MATRIX_COLUMNS. */

type ServerColumnId = Extract<
  MatrixColumnId,
  'serverCpuMean' | 'serverCpuMax' | 'serverCpuPer10k' | 'serverRssMax' | 'serverMemoryMax' | 'serverLoadMax'
>;

/** A server figure's mean or max in one run, when it was read. */
const server =
  (figure: ResourceFigure, pick: keyof FigureStats) =>
  (r: RunResult): number | undefined =>
    r.serverResources?.summary[figure]?.[pick];
const resourceFormat =
  (figure: ResourceFigure) =>
  (v: ColumnValue): string =>
    v === null ? NO_VALUE : typeof v === 'string' ? v : formatResourceValue(figure, v);

export const SERVER_COLUMNS: Record<ServerColumnId, MatrixColumn> = {
  serverCpuMean: {
    id: 'serverCpuMean',
    label: 'server CPU',
    unit: '% of a core',
    description: 'server CPU while measured (target.monitor), % of one core, mean over the runs',
    figure: SERVER_VERDICT_FIGURE,
    value: (c) => meanOf(c, server('cpuPercent', 'mean')),
    format: resourceFormat('cpuPercent'),
  },
  serverCpuMax: {
    id: 'serverCpuMax',
    label: 'server CPU max',
    unit: '% of a core',
    description: 'highest server CPU reading of all the runs, % of one core',
    figure: SERVER_VERDICT_FIGURE,
    value: (c) => maxOf(c, server('cpuPercent', 'max')),
    format: resourceFormat('cpuPercent'),
  },
  serverCpuPer10k: {
    id: 'serverCpuPer10k',
    label: 'CPU-s/10k req',
    unit: 'CPU-s',
    description:
      'server CPU-seconds per 10,000 requests, mean over the runs: which server spent the least CPU for the same work',
    figure: SERVER_VERDICT_FIGURE,
    value: (c) => meanOf(c, (r) => r.serverResources?.cpuSecondsPer10kRequests),
    format: (v) => (v === null ? NO_VALUE : typeof v === 'string' ? v : formatCpuPer10k(v)),
  },
  serverRssMax: {
    id: 'serverRssMax',
    label: 'RSS max',
    unit: 'B',
    description: 'largest resident memory of the server’s processes (a process tree), of all the runs',
    figure: SERVER_VERDICT_FIGURE,
    value: (c) => maxOf(c, server('rssBytes', 'max')),
    format: resourceFormat('rssBytes'),
  },
  serverMemoryMax: {
    id: 'serverMemoryMax',
    label: 'memory max',
    unit: 'B',
    description: 'most memory used on the server’s machine (node_exporter), of all the runs',
    figure: SERVER_VERDICT_FIGURE,
    value: (c) => maxOf(c, server('memoryUsedBytes', 'max')),
    format: resourceFormat('memoryUsedBytes'),
  },
  serverLoadMax: {
    id: 'serverLoadMax',
    label: 'load max',
    unit: '',
    description: 'highest 1-minute load average of the server’s machine (node_exporter), of all the runs',
    figure: SERVER_VERDICT_FIGURE,
    value: (c) => maxOf(c, server('load1', 'max')),
    format: resourceFormat('load1'),
  },
};
