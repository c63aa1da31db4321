/**
 * The comparison matrix's columns, one registry for every view that draws the matrix (the
 * UI, the text export, the HTML report) and the Matrix CSV: each column's label, unit, value
 * for a cell and format. The per-repetition table is in shared/comparison/repetitions.ts. Pure.
 */
import type { Stat } from './stats.ts';
import { countFormat, numberFormat, percentFormat, textFormat } from './column-format.ts';
import type { MatrixCell, MatrixColumn } from './matrix.ts';
import type { Phase, RunResult } from '../model/result.ts';
import type { MatrixColumnId } from './report-settings.ts';
import {
  errorPercent,
  failedRequests,
  timePerRequestAcrossMs,
  timePerRequestMs,
} from '../verdict/run-figures.ts';
import { maxOf, meanOf, sum } from './cell-figures.ts';
import { SERVER_COLUMNS } from './server-columns.ts';
import { badCaveatsOn, verdictSummary } from '../verdict/verdict.ts';
import { workerCpu } from '../model/worker-cpu.ts';

const stat = (s: Stat | null, get: (s: Stat) => number | null): number | null => (s ? get(s) : null);
const phaseMean = (phase: Phase) => (r: RunResult) => r.phases?.[phase]?.mean ?? null;

/** Each column once; MATRIX_COLUMN_IDS (shared/comparison/report-settings.ts) orders them. */
export const MATRIX_COLUMNS: Record<MatrixColumnId, MatrixColumn> = {
  runs: {
    id: 'runs',
    label: 'runs',
    unit: '',
    description: 'runs counted of those planned',
    figure: null,
    value: (c) => `${c.runs}/${c.planned}`,
    format: textFormat,
  },
  rps: {
    id: 'rps',
    label: 'req/s',
    unit: 'req/s',
    description: 'requests per second, mean over the runs',
    figure: 'throughput',
    value: (c) => stat(c.figures.rps, (s) => s.mean),
    format: numberFormat(2),
  },
  rpsStdev: {
    id: 'rpsStdev',
    label: '± stdev',
    unit: 'req/s',
    description: 'sample standard deviation of req/s across the runs (needs 2)',
    figure: 'throughput',
    value: (c) => stat(c.figures.rps, (s) => s.stdev),
    format: numberFormat(2),
  },
  rpsMin: {
    id: 'rpsMin',
    label: 'min',
    unit: 'req/s',
    description: 'lowest req/s of the runs',
    figure: 'throughput',
    value: (c) => stat(c.figures.rps, (s) => s.min),
    format: numberFormat(2),
  },
  rpsMax: {
    id: 'rpsMax',
    label: 'max',
    unit: 'req/s',
    description: 'highest req/s of the runs',
    figure: 'throughput',
    value: (c) => stat(c.figures.rps, (s) => s.max),
    format: numberFormat(2),
  },
  requests: {
    id: 'requests',
    label: 'requests',
    unit: 'requests',
    description: 'requests finished, summed over the runs',
    figure: null,
    value: (c) => sum(c, (r) => r.requests.total),
    format: countFormat,
  },
  timeTaken: {
    id: 'timeTaken',
    label: 'time taken s',
    unit: 's',
    description: "measured time (ab's Time taken for tests), mean over the runs",
    figure: 'throughput',
    value: (c) => meanOf(c, (r) => r.durationSeconds),
    format: numberFormat(3),
  },
  timePerRequest: {
    id: 'timePerRequest',
    label: 'time/req ms',
    unit: 'ms',
    description: "ab's Time per request (mean): concurrency x time / requests, mean over the runs",
    figure: 'latency',
    value: (c) => meanOf(c, timePerRequestMs),
    format: numberFormat(3),
  },
  timePerRequestAcross: {
    id: 'timePerRequestAcross',
    label: 'time/req all ms',
    unit: 'ms',
    description: "ab's Time per request (mean, across all concurrent requests): 1000 / req/s",
    figure: 'throughput',
    value: (c) => meanOf(c, timePerRequestAcrossMs),
    format: numberFormat(3),
  },
  latencyMean: {
    id: 'latencyMean',
    label: 'mean ms',
    unit: 'ms',
    description: 'mean latency, mean over the runs',
    figure: 'latency',
    value: (c) => stat(c.figures.latencyMean, (s) => s.mean),
    format: numberFormat(3),
  },
  p50: {
    id: 'p50',
    label: 'p50 ms',
    unit: 'ms',
    description: 'median latency, mean over the runs',
    figure: 'latency',
    value: (c) => stat(c.figures.p50, (s) => s.mean),
    format: numberFormat(3),
  },
  p95: {
    id: 'p95',
    label: 'p95 ms',
    unit: 'ms',
    description: '95th percentile latency, mean over the runs',
    figure: 'latency',
    value: (c) => stat(c.figures.p95, (s) => s.mean),
    format: numberFormat(3),
  },
  p99: {
    id: 'p99',
    label: 'p99 ms',
    unit: 'ms',
    description: '99th percentile latency, mean over the runs',
    figure: 'latency',
    value: (c) => stat(c.figures.p99, (s) => s.mean),
    format: numberFormat(3),
  },
  latencyMax: {
    id: 'latencyMax',
    label: 'max ms',
    unit: 'ms',
    description: 'longest request of all the runs',
    figure: 'latency',
    value: (c) => maxOf(c, (r) => r.latency?.max),
    format: numberFormat(3),
  },
  connectMean: {
    id: 'connectMean',
    label: 'connect ms',
    unit: 'ms',
    description: "ab's Connect mean (DNS + TCP + TLS), mean over the runs",
    figure: 'latency',
    value: (c) => meanOf(c, phaseMean('setup')),
    format: numberFormat(3),
  },
  processingMean: {
    id: 'processingMean',
    label: 'processing ms',
    unit: 'ms',
    description: "ab's Processing mean (total - connect), mean over the runs",
    figure: 'latency',
    value: (c) => meanOf(c, phaseMean('processing')),
    format: numberFormat(3),
  },
  waitingMean: {
    id: 'waitingMean',
    label: 'waiting ms',
    unit: 'ms',
    description: "ab's Waiting mean (request written to first byte), mean over the runs",
    figure: 'latency',
    value: (c) => meanOf(c, phaseMean('waiting')),
    format: numberFormat(3),
  },
  failed: {
    id: 'failed',
    label: 'failed',
    unit: 'requests',
    description: 'requests that were not a success (errors, error statuses, SLO failures), summed',
    figure: 'success',
    value: (c) => sum(c, failedRequests),
    format: countFormat,
  },
  success: {
    id: 'success',
    label: 'success',
    unit: '%',
    description: '2xx-3xx responses within the SLO, of all requests, mean over the runs',
    figure: 'success',
    value: (c) => stat(c.figures.successRatio, (s) => s.mean * 100),
    format: percentFormat,
  },
  errorRate: {
    id: 'errorRate',
    label: 'error %',
    unit: '%',
    description: "JMeter's Error %: everything not a success, mean over the runs",
    figure: 'success',
    value: (c) => meanOf(c, errorPercent),
    format: percentFormat,
  },
  errors: {
    id: 'errors',
    label: 'errors',
    unit: 'requests',
    description: 'requests that got no response (refused, reset, timeout, TLS...), summed',
    figure: 'success',
    value: (c) => sum(c, (r) => r.requests.errors),
    format: countFormat,
  },
  non2xx: {
    id: 'non2xx',
    label: 'non-2xx',
    unit: 'requests',
    description: "responses outside 2xx (ab's Non-2xx responses), summed",
    figure: 'success',
    value: (c) => sum(c, (r) => r.requests.non2xx),
    format: countFormat,
  },
  sloFailures: {
    id: 'sloFailures',
    label: 'SLO failed',
    unit: 'requests',
    description: 'responses slower than the SLO, summed',
    figure: 'success',
    value: (c) => sum(c, (r) => (r.options.sloMs === null ? null : r.requests.sloExceeded)),
    format: countFormat,
  },
  late: {
    id: 'late',
    label: 'late',
    unit: 'requests',
    description: 'open model: requests sent after their scheduled time, summed',
    figure: null,
    value: (c) => sum(c, (r) => r.requests.late),
    format: countFormat,
  },
  dropped: {
    id: 'dropped',
    label: 'dropped',
    unit: 'requests',
    description: 'open model: scheduled requests never sent, summed',
    figure: null,
    value: (c) => sum(c, (r) => r.requests.dropped),
    format: countFormat,
  },
  workers: {
    id: 'workers',
    label: 'workers',
    unit: '',
    description: "engine worker threads each run's load was split across (-t; the most, if runs differ)",
    figure: null,
    value: (c) => maxOf(c, (r) => workerCpu(r.generator).workers),
    format: countFormat,
  },
  ...SERVER_COLUMNS,
  verdict: {
    id: 'verdict',
    label: 'verdict',
    unit: '',
    description: 'whether the figures are the server’s (see the caveats)',
    figure: null,
    value: (c) => (c.results.length === 0 ? null : verdictSummary(c.verdict)),
    format: textFormat,
  },
};

/** The columns of these ids, in the order given. */
export function matrixColumns(ids: readonly MatrixColumnId[]): MatrixColumn[] {
  return ids.map((id) => MATRIX_COLUMNS[id]);
}

/** A column's text for a cell. */
export function columnText(column: MatrixColumn, cell: MatrixCell): string {
  return column.format(column.value(cell));
}

/**
 * True when a measured cell's figure in the column is not the server's: a bad caveat of its
 * verdict affects the figure (or the whole cell). A cell not run yet has nothing to mark.
 */
export function columnAffected(column: MatrixColumn, cell: MatrixCell): boolean {
  return (
    cell.results.length > 0 && column.figure !== null && badCaveatsOn(cell.verdict, column.figure).length > 0
  );
}
