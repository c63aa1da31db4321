/**
 * Parsers for the text of CLI flag values. Each throws a CliInputError naming the flag, so
 * `trebuchet run` can exit 2 with a message that says which flag is wrong and why.
 */
import { resolve } from 'node:path';
import { parseMonitorText, type Monitor } from '../../shared/model/monitor.ts';
import {
  DURATION_EXAMPLES,
  parseDuration,
  UNIT_SECONDS,
  type DurationUnit,
} from '../../shared/model/duration.ts';
import { THRESHOLD_UNITS, type Threshold, type ThresholdMetric } from '../../shared/model/scenario.ts';

/** Bad command-line input: `field` names the flag (or scenario field) at fault. */
export class CliInputError extends Error {
  readonly field: string;
  constructor(field: string, message: string) {
    super(`${field}: ${message}`);
    this.name = 'CliInputError';
    this.field = field;
  }
}

/**
 * A duration flag's value in seconds: Go's notation (`5s`, `1m30s`, `250ms`) or a bare number
 * in `bareUnit` (seconds for -d like ab's -t, milliseconds for --slo). The parser is the
 * editors' too (shared/model/duration.ts), so the app takes what the CLI takes.
 */
export function parseDurationSeconds(flag: string, text: string, bareUnit: DurationUnit): number {
  const value = parseDuration(text, bareUnit);
  if (value === null) {
    throw new CliInputError(flag, `"${text}" is not a duration (e.g. ${DURATION_EXAMPLES[bareUnit]})`);
  }
  return bareUnit === 's' ? value : value / 1000;
}

export function parseWholeNumber(flag: string, text: string): number {
  if (!/^\d+$/.test(text.trim())) throw new CliInputError(flag, `"${text}" is not a whole number`);
  return Number(text);
}

/** `--data-dir DIR` resolved against `cwd`; undefined (the stores' default folder) when not given. */
export function parseDataDir(text: string | undefined, cwd: string): string | undefined {
  if (text === undefined) return undefined;
  if (text.trim() === '') throw new CliInputError('--data-dir', 'is empty');
  return resolve(cwd, text);
}

/** A rate in requests per second: `100`, or vegeta's `100/s`, `100/1s`, `6000/1m`. */
export function parseRate(flag: string, text: string): number {
  const m = /^(\d+(?:\.\d+)?)(?:\/(\d+(?:\.\d+)?)?(ms|s|m|h))?$/.exec(text.trim());
  if (!m) throw new CliInputError(flag, `"${text}" is not a rate (e.g. 100 or 100/s)`);
  const per = m[3] ? Number(m[2] ?? 1) * UNIT_SECONDS[m[3]]! : 1;
  if (per <= 0) throw new CliInputError(flag, `"${text}" has a zero time unit`);
  return Number(m[1]) / per;
}

/** `Name: value`, as curl's and ab's -H take it. */
export function parseHeader(flag: string, text: string): { name: string; value: string } {
  const colon = text.indexOf(':');
  if (colon <= 0) throw new CliInputError(flag, `"${text}" is not a header (expected "Name: value")`);
  return { name: text.slice(0, colon).trim(), value: text.slice(colon + 1).trim() };
}

/** `--monitor auto|off|pid:N|URL`: how the server's CPU and memory are watched. */
export function parseMonitor(flag: string, text: string): Monitor {
  const parsed = parseMonitorText(text);
  if (!parsed.ok) throw new CliInputError(flag, parsed.message);
  return parsed.monitor;
}

const METRIC_ALIASES: Record<string, ThresholdMetric> = {
  p50: 'p50',
  p90: 'p90',
  p95: 'p95',
  p99: 'p99',
  'p99.9': 'p99.9',
  mean: 'mean',
  max: 'max',
  errorrate: 'errorRate',
  errors: 'errorRate',
  'error-rate': 'errorRate',
  rps: 'rps',
};

/**
 * A pass/fail rule: `p99<50` (ms; `50ms` and `0.05s` too), `errors<1%` (percent),
 * `rps>=1000`.
 */
export function parseThreshold(flag: string, text: string): Threshold {
  const m = /^\s*([a-z0-9.-]+)\s*(<=|>=|<|>)\s*(\d+(?:\.\d+)?)\s*(ms|s|%)?\s*$/i.exec(text);
  const metric = m ? METRIC_ALIASES[m[1]!.toLowerCase()] : undefined;
  if (!m || !metric) {
    throw new CliInputError(
      flag,
      `"${text}" is not a threshold (e.g. 'p99<50' in ms, 'errors<1%', 'rps>=1000'; metrics: ${Object.keys(METRIC_ALIASES).join(', ')})`,
    );
  }
  const unit = m[4]?.toLowerCase();
  let value = Number(m[3]);
  if (THRESHOLD_UNITS[metric] === 'ms') {
    if (unit === '%') throw new CliInputError(flag, `"${text}": ${metric} is a latency, give it in ms or s`);
    if (unit === 's') value *= 1000;
  } else if (metric === 'errorRate') {
    if (unit === 'ms' || unit === 's')
      throw new CliInputError(flag, `"${text}": the error rate is a percentage`);
  } else if (unit) {
    throw new CliInputError(flag, `"${text}": rps takes a plain number of requests per second`);
  }
  return { metric, op: m[2] as Threshold['op'], value };
}
