/**
 * JMeter's Aggregate Report and Summary Report listeners (seed 003), with JMeter's columns
 * and number formats: Error % with two decimals, Throughput as JMeter's rate renderer writes
 * it (one decimal, per second, or per minute / hour below 1/s), KB = 1024 bytes. Each table
 * has the target's row and JMeter's TOTAL row (the same figures for a single target).
 *
 * A sample is a finished request. Error % counts everything JMeter marks failed: transport
 * errors, statuses outside 200-399, and responses slower than the scenario's SLO (JMeter's
 * Duration Assertion, the seed's 300 ms rule). One deliberate difference, stated in the
 * heading: times carry three decimals (microsecond histograms; JMeter prints whole ms).
 */
import type { RunResult } from '../model/result.ts';
import { targetLabel } from '../model/scenario.ts';
import { errorPercent, sentRateKiBps, transferRateKiBps } from '../verdict/run-figures.ts';
import { alignColumns } from './table.ts';
import { fixed } from '../figures/units.ts';

const NONE = '-';

type Column = readonly [header: string, cell: (r: RunResult) => string];

const ms = (v: number | undefined): string => (v === undefined ? NONE : fixed(v, 3));
const percentile = (p: string) => (r: RunResult) => ms(r.latency?.percentiles[p]);

/** JMeter's RateRenderer ("#.0"): per second, else per minute, else per hour. */
function jmeterRate(perSec: number): string {
  let rate = perSec;
  let unit = 'sec';
  if (rate < 1) {
    rate *= 60;
    unit = 'min';
  }
  if (rate < 1) {
    rate *= 60;
    unit = 'hour';
  }
  return `${fixed(rate, 1)}/${unit}`;
}

const SAMPLES: Column = ['# Samples', (r) => String(r.requests.total)];
const AVERAGE: Column = ['Average', (r) => ms(r.latency?.mean)];
const MIN: Column = ['Min', (r) => ms(r.latency?.min)];
const MAX: Column = ['Max', (r) => ms(r.latency?.max)];
const ERROR: Column = ['Error %', (r) => `${fixed(errorPercent(r), 2)}%`];
const THROUGHPUT: Column = ['Throughput', (r) => jmeterRate(r.throughput.requestsPerSecond)];
const RECEIVED: Column = ['Received KB/sec', (r) => fixed(transferRateKiBps(r), 2)];
const SENT: Column = ['Sent KB/sec', (r) => fixed(sentRateKiBps(r), 2)];

const AGGREGATE_COLUMNS: readonly Column[] = [
  SAMPLES,
  AVERAGE,
  ['Median', percentile('50')],
  ['90% Line', percentile('90')],
  ['95% Line', percentile('95')],
  ['99% Line', percentile('99')],
  MIN,
  MAX,
  ERROR,
  THROUGHPUT,
  RECEIVED,
  SENT,
];

const SUMMARY_COLUMNS: readonly Column[] = [
  SAMPLES,
  AVERAGE,
  MIN,
  MAX,
  ['Std. Dev.', (r) => ms(r.latency?.stdev)],
  ERROR,
  THROUGHPUT,
  RECEIVED,
  SENT,
  ['Avg. Bytes', (r) => fixed(r.requests.total > 0 ? r.bytes.inTotal / r.requests.total : 0, 1)],
];

/** The target's row and JMeter's TOTAL row: label left-aligned, figures right-aligned. */
function table(columns: readonly Column[], r: RunResult): string[] {
  const cells = columns.map(([, cell]) => cell(r));
  return alignColumns(
    [
      ['Label', ...columns.map(([header]) => header)],
      [targetLabel(r.target), ...cells],
      ['TOTAL', ...cells],
    ],
    1,
  );
}

function notes(r: RunResult): string[] {
  const slo =
    r.options.sloMs === null
      ? 'no SLO was set'
      : `responses slower than ${r.options.sloMs} ms count as errors (JMeter's Duration Assertion)`;
  const lines = [`Times in ms at µs resolution (JMeter prints whole ms); Error %: ${slo}.`];
  if (r.error) lines.push(`The run failed: ${r.error.message}`);
  return lines;
}

export function formatJmeterReport(r: RunResult): string {
  const lines = [
    'Aggregate Report',
    ...table(AGGREGATE_COLUMNS, r),
    '',
    'Summary Report',
    ...table(SUMMARY_COLUMNS, r),
    '',
    ...notes(r),
  ];
  return lines.join('\n') + '\n';
}
