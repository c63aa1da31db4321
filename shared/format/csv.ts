/**
 * CSV exports of RunResults (RFC 4180, CRLF line ends, units in the headers).
 *
 * Numbers are written as plain numbers so a spreadsheet reads them as numbers. Text that a
 * server or a user supplied (labels, URLs, Server headers, error messages) is neutralised
 * against formula injection: a cell starting with = + - @ tab or CR gets a leading `'`.
 */
import { otherProcessesText } from '../machine/readings.ts';
import { MATRIX_COLUMNS } from '../comparison/columns.ts';
import { matrixCells, type MatrixCell } from '../comparison/matrix.ts';
import type { CellOutcome } from '../comparison/cells.ts';
import type { ComparisonTable, PercentileTable } from '../comparison/table.ts';
import { REPORT_PERCENTILES } from '../model/defaults.ts';
import { RESOURCE_FIGURE_LABELS, RESOURCE_FIGURES, type ResourceSample } from '../model/server-resources.ts';
import type { Phase, RunResult, Sample } from '../model/result.ts';
import type { LabelledResult } from './labels.ts';
import { ERROR_KINDS } from '../model/result.ts';
import { runVerdict, verdictLabel, type Verdict } from '../verdict/verdict.ts';
import { workerCpu } from '../model/worker-cpu.ts';
import { targetLabel } from '../model/scenario.ts';
import {
  concurrencyLevel,
  errorPercent,
  failedRequests,
  successPercent,
  timePerRequestMs,
  transferRateKiBps,
} from '../verdict/run-figures.ts';

export type CsvValue = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** Digits beyond this carry no information (latency resolution is 1 µs = 0.001 ms). */
const DECIMALS = 6;

/** One CSV cell: numbers verbatim, text neutralised and quoted as needed. */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return '';
    return String(Number(value.toFixed(DECIMALS)));
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRows(rows: readonly (readonly CsvValue[])[]): string {
  return rows.map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

/** Every distinct key of a set of records, numeric keys in numeric order. */
function unionKeys(records: readonly Record<string, unknown>[]): string[] {
  const keys = new Set<string>();
  for (const r of records) for (const k of Object.keys(r)) keys.add(k);
  return [...keys].sort((a, b) => Number(a) - Number(b) || a.localeCompare(b));
}

const SAMPLE_COLUMNS: readonly [string, (s: Sample) => CsvValue][] = [
  ['seq', (s) => s.seq],
  ['elapsed (s)', (s) => s.elapsedSeconds],
  ['interval (s)', (s) => s.intervalSeconds],
  ['warmup', (s) => s.warmup],
  ['requests', (s) => s.requests],
  ['total requests', (s) => s.totalRequests],
  ['rate (req/s)', (s) => s.requestsPerSecond],
  ['bytes in (B/s)', (s) => s.bytesInPerSecond],
  ['latency mean (ms)', (s) => s.latency?.mean],
  ['latency p50 (ms)', (s) => s.latency?.p50],
  ['latency p90 (ms)', (s) => s.latency?.p90],
  ['latency p99 (ms)', (s) => s.latency?.p99],
  ['latency max (ms)', (s) => s.latency?.max],
  ['in flight', (s) => s.inFlight],
  ['late', (s) => s.late ?? 0],
  ['generator cpu (%)', (s) => s.cpuPercent],
];

/** One row per sample (per tick), for every result: the live charts' data. */
export function timeSeriesCsv(results: readonly LabelledResult[]): string {
  const samples = results.flatMap((r) => r.result.samples);
  const codes = unionKeys(samples.map((s) => s.statusCodes));
  const kinds = ERROR_KINDS.filter((k) => samples.some((s) => (s.errors[k] ?? 0) > 0));
  const header = [
    'target',
    ...SAMPLE_COLUMNS.map(([name]) => name),
    ...codes.map((c) => `status ${c}`),
    ...kinds.map((k) => `errors ${k}`),
  ];
  const rows = results.flatMap(({ label, result }) =>
    result.samples.map((s) => [
      label,
      ...SAMPLE_COLUMNS.map(([, get]) => get(s)),
      ...codes.map((c) => s.statusCodes[c] ?? 0),
      ...kinds.map((k) => s.errors[k] ?? 0),
    ]),
  );
  return csvRows([header, ...rows]);
}

const RESOURCE_COLUMNS: readonly [string, (s: ResourceSample) => CsvValue][] = [
  ['seq', (s) => s.seq],
  ['elapsed (s)', (s) => s.elapsedSeconds],
  ['interval (s)', (s) => s.intervalSeconds],
  ['warmup', (s) => s.warmup],
  ['cpu seconds', (s) => s.cpuSeconds],
  ...RESOURCE_FIGURES.map((f): [string, (s: ResourceSample) => CsvValue] => [
    RESOURCE_FIGURE_LABELS[f],
    (s) => s[f],
  ]),
  ['memory total (B)', (s) => s.memoryTotalBytes],
  ['gap', (s) => s.gap],
];

/**
 * One row per server reading (target.monitor), for every result that has them: the server
 * panel's data, on the time axis of timeSeriesCsv (same seq and elapsed seconds). A figure
 * the method does not measure is an empty cell.
 */
export function resourcesCsv(results: readonly LabelledResult[]): string {
  const header = ['target', 'method', ...RESOURCE_COLUMNS.map(([name]) => name)];
  const rows = results.flatMap(({ label, result }) =>
    (result.serverResources?.samples ?? []).map((s) => [
      label,
      result.serverResources?.source.method,
      ...RESOURCE_COLUMNS.map(([, get]) => get(s)),
    ]),
  );
  return csvRows([header, ...rows]);
}

/** Percentile rows, one latency column per result (seed 001's side-by-side table). */
export function percentilesCsv(results: readonly LabelledResult[]): string {
  const corrected = results.filter((r) => r.result.correctedLatency !== null);
  const header = [
    'percentile (%)',
    ...results.map((r) => `${r.label} latency (ms)`),
    ...corrected.map((r) => `${r.label} corrected latency (ms)`),
  ];
  const rows = REPORT_PERCENTILES.map((p) => [
    p,
    ...results.map((r) => r.result.latency?.percentiles[String(p)]),
    ...corrected.map((r) => r.result.correctedLatency?.percentiles[String(p)]),
  ]);
  return csvRows([header, ...rows]);
}

/** A summary column: header (with unit) and how to read the figure. */
type Column = readonly [string, (r: RunResult) => CsvValue];

/** ab's Connect / Processing / Waiting means: phase columns of both CSVs. */
const PHASE_MEANS: readonly [Phase, string][] = [
  ['setup', 'connect'],
  ['processing', 'processing'],
  ['waiting', 'waiting'],
];

/** The verdict's state, its caveats' labels and its headline: three columns. */
function verdictColumns<T>(verdictOf: (x: T) => Verdict | null): (readonly [string, (x: T) => CsvValue])[] {
  return [
    ['verdict', (x) => verdictOf(x)?.state],
    [
      'caveats',
      (x) => {
        const v = verdictOf(x);
        return v && v.caveats.length > 0 ? verdictLabel(v) : '';
      },
    ],
    ['verdict message', (x) => verdictOf(x)?.headline],
  ];
}

const SUMMARY_COLUMNS: readonly Column[] = [
  ['scenario', (r) => r.scenarioName],
  ['target name', (r) => targetLabel(r.target)],
  ['url', (r) => r.target.url],
  ['method', (r) => r.target.method],
  ['status', (r) => r.status],
  ['started at', (r) => r.startedAt],
  ['model', (r) => r.load.model],
  ['concurrency', (r) => concurrencyLevel(r)],
  ['target rate (req/s)', (r) => r.throughput.targetRate],
  ['keep-alive', (r) => r.options.keepAlive],
  ['protocol', (r) => r.options.protocol],
  ['engine', (r) => r.generator.engine],
  ['duration (s)', (r) => r.durationSeconds],
  ['requests', (r) => r.requests.total],
  ['responses', (r) => r.requests.responses],
  ['ok', (r) => r.requests.ok],
  ['failed', (r) => failedRequests(r)],
  ['non-2xx', (r) => r.requests.non2xx],
  ['transport errors', (r) => r.requests.errors],
  ['slo exceeded', (r) => r.requests.sloExceeded],
  ['length mismatch', (r) => r.requests.lengthMismatch],
  ['in flight at end', (r) => r.requests.inFlightAtEnd],
  ['late', (r) => r.requests.late],
  ['dropped', (r) => r.requests.dropped],
  ['success (%)', (r) => successPercent(r)],
  ['error rate (%)', (r) => errorPercent(r)],
  ['rate (req/s)', (r) => r.throughput.requestsPerSecond],
  ['rate stdev (req/s)', (r) => r.throughput.requestsPerSecondStdev],
  ['sent rate (req/s)', (r) => r.throughput.sentRate],
  ['time per request (ms)', (r) => timePerRequestMs(r)],
  ['transfer rate (KiB/s)', (r) => transferRateKiBps(r)],
  ['bytes in total (B)', (r) => r.bytes.inTotal],
  ['bytes in body (B)', (r) => r.bytes.inBody],
  ['bytes out body (B)', (r) => r.bytes.outBody],
  ['document length (B)', (r) => r.server?.documentLength],
  ['server software', (r) => r.server?.software],
  ['latency min (ms)', (r) => r.latency?.min],
  ['latency mean (ms)', (r) => r.latency?.mean],
  ['latency stdev (ms)', (r) => r.latency?.stdev],
  ...REPORT_PERCENTILES.map((p): Column => [`latency p${p} (ms)`, (r) => r.latency?.percentiles[String(p)]]),
  ['latency max (ms)', (r) => r.latency?.max],
  ...PHASE_MEANS.map(([phase, name]): Column => [`${name} mean (ms)`, (r) => r.phases?.[phase]?.mean]),
  ['tls protocol', (r) => r.tls?.protocol],
  ['tls verified', (r) => r.tls?.verified],
  ['generator cpu mean (%)', (r) => r.generator.cpuPercentMean],
  ['generator saturated', (r) => r.generator.saturated],
  ['generator workers', (r) => r.generator.workers?.length ?? 1],
  ['busiest worker cpu mean (%)', (r) => workerCpu(r.generator).busiestMean],
  ['send lateness p50 (ms)', (r) => r.sendLateness?.percentiles['50']],
  ['send lateness p99 (ms)', (r) => r.sendLateness?.percentiles['99']],
  ['tick pause p99 (ms)', (r) => r.generator.tickPause?.p99],
  ['tick pause max (ms)', (r) => r.generator.tickPause?.max],
  ['server monitor', (r) => r.serverResources?.source.method],
  ['server cpu mean (% of a core)', (r) => r.serverResources?.summary.cpuPercent?.mean],
  ['server cpu max (% of a core)', (r) => r.serverResources?.summary.cpuPercent?.max],
  ['server cpu seconds', (r) => r.serverResources?.cpuSeconds],
  ['server cpu seconds per 10k requests', (r) => r.serverResources?.cpuSecondsPer10kRequests],
  ['server rss max (B)', (r) => r.serverResources?.summary.rssBytes?.max],
  ['server memory used max (B)', (r) => r.serverResources?.summary.memoryUsedBytes?.max],
  ['server load1 max', (r) => r.serverResources?.summary.load1?.max],
  ['server busiest worker cpu mean (% of a core)', (r) => r.serverResources?.workers?.busiest.cpuPercentMean],
  ['server busy workers', (r) => r.serverResources?.workers?.busy],
  ['server workers', (r) => r.serverResources?.workers?.count],
  ['generator process cpu mean (% of a core)', (r) => r.generator.process?.cpuPercentMean],
  ['generator busiest thread', (r) => r.generator.process?.busiestThread?.name],
  [
    'generator busiest thread cpu mean (% of a core)',
    (r) => r.generator.process?.busiestThread?.cpuPercentMean,
  ],
  ['machine cores', (r) => r.machine?.cores],
  ['machine cpu busy mean (%)', (r) => r.machine?.cpuBusyPercent],
  ['machine cpu idle mean (%)', (r) => r.machine?.cpuIdlePercent],
  ['machine cpu steal mean (%)', (r) => r.machine?.cpuStealPercent],
  ['other processes cpu mean (% of a core)', (r) => r.machine?.otherCpuPercent],
  ['busiest other processes', (r) => (r.machine ? otherProcessesText(r.machine.otherProcesses) : undefined)],
  ['error', (r) => r.error?.message],
  ['error set', (r) => r.errors.map((e) => `${e.message} (${e.count})`).join(' | ')],
  ...verdictColumns<RunResult>(runVerdict),
];

/** One row per result with the headline figures. */
export function summaryCsv(results: readonly LabelledResult[]): string {
  const header = ['label', ...SUMMARY_COLUMNS.map(([name]) => name)];
  const rows = results.map(({ label, result }) => [label, ...SUMMARY_COLUMNS.map(([, get]) => get(result))]);
  return csvRows([header, ...rows]);
}

type StatFigure = 'rps' | 'p50' | 'p95' | 'p99' | 'latencyMean';
type MatrixCsvColumn = readonly [string, (c: MatrixCell) => CsvValue];

/** Mean, stdev, min and max of a figure across repetitions: four columns. */
function statColumns(figure: StatFigure, name: string, unit: string): readonly MatrixCsvColumn[] {
  return [
    [`${name} mean (${unit})`, (c) => c.figures[figure]?.mean],
    [`${name} stdev (${unit})`, (c) => c.figures[figure]?.stdev],
    [`${name} min (${unit})`, (c) => c.figures[figure]?.min],
    [`${name} max (${unit})`, (c) => c.figures[figure]?.max],
  ];
}

/** A column of the matrix registry (shared/comparison/columns.ts), as a number under this header. */
const registry = (header: string, id: keyof typeof MATRIX_COLUMNS): MatrixCsvColumn => [
  header,
  (c) => MATRIX_COLUMNS[id].value(c),
];

const MATRIX_CSV_COLUMNS: readonly MatrixCsvColumn[] = [
  ['protocol', (c) => c.protocol],
  ['repetitions planned', (c) => c.planned],
  ['repetitions counted', (c) => c.runs],
  ['repetitions left out', (c) => c.skipped],
  ...statColumns('rps', 'rate', 'req/s'),
  ['latency mean (ms)', (c) => c.figures.latencyMean?.mean],
  ...statColumns('p50', 'latency p50', 'ms'),
  ...statColumns('p95', 'latency p95', 'ms'),
  ...statColumns('p99', 'latency p99', 'ms'),
  registry('latency max (ms)', 'latencyMax'),
  registry('time taken mean (s)', 'timeTaken'),
  registry('time per request mean (ms)', 'timePerRequest'),
  registry('time per request across all mean (ms)', 'timePerRequestAcross'),
  registry('connect mean (ms)', 'connectMean'),
  registry('processing mean (ms)', 'processingMean'),
  registry('waiting mean (ms)', 'waitingMean'),
  ['requests', (c) => c.requests],
  ['failed requests', (c) => c.failedRequests],
  ['non-2xx', (c) => c.non2xx],
  registry('slo failures', 'sloFailures'),
  registry('late', 'late'),
  registry('dropped', 'dropped'),
  registry('generator workers', 'workers'),
  // The Runs summary CSV's server columns, per cell (mean over the runs; max of their maxes).
  registry('server cpu mean (% of a core)', 'serverCpuMean'),
  registry('server cpu max (% of a core)', 'serverCpuMax'),
  registry('server cpu seconds per 10k requests', 'serverCpuPer10k'),
  registry('server rss max (B)', 'serverRssMax'),
  registry('server memory used max (B)', 'serverMemoryMax'),
  registry('server load1 max', 'serverLoadMax'),
  ...ERROR_KINDS.map((k): MatrixCsvColumn => [`errors ${k}`, (c) => c.errors[k] ?? 0]),
  ['success (%)', (c) => (c.figures.successRatio ? c.figures.successRatio.mean * 100 : null)],
  ['failures', (c) => c.failures.join(' | ')],
  ...verdictColumns<MatrixCell>((c) => (c.results.length === 0 ? null : c.verdict)),
];

/**
 * A comparison's matrix: one row per cell (target x protocol x level), each figure's mean,
 * stdev, min and max across the repetitions, ab's times and phases, late, dropped, SLO
 * failures, the server's CPU, memory and CPU-seconds per 10,000 requests, and the cell's
 * verdict. Cells without results (or without a server reading) have empty figures.
 */
export function comparisonMatrixCsv(table: ComparisonTable, outcomes: readonly CellOutcome[]): string {
  const levelHeader = table.levelKind === 'connections' ? 'connections' : 'rate level (req/s)';
  const header = ['target', levelHeader, ...MATRIX_CSV_COLUMNS.map(([name]) => name)];
  const rows = matrixCells(table, outcomes).map((c) => [
    c.target,
    c.level,
    ...MATRIX_CSV_COLUMNS.map(([, get]) => get(c)),
  ]);
  return csvRows([header, ...rows]);
}

/** A percentile table (seed 001 style): one row per percentile, one latency column per server. */
export function percentileTableCsv(table: PercentileTable): string {
  const header = ['percentile (%)', ...table.columns.map((c) => `${c} latency (ms)`)];
  const rows = table.rows.map((r) => [r.percentile, ...r.values]);
  return csvRows([header, ...rows]);
}
