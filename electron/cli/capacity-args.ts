/**
 * `trebuchet capacity` arguments -> a validated capacity plan plus output choices. The
 * request, TLS and measuring flags are `trebuchet run`'s (args.ts); the goal and the search's
 * steps have flags of their own. Every error is a CliInputError naming the flag.
 */
import { parseArgs } from 'node:util';
import { capacityPlanSchema, type CapacityPlan } from '../../shared/capacity-plan.ts';
import { parseWith } from '../../shared/validation.ts';
import {
  checkInputFiles,
  FLAG_OF_PATH,
  flagIssue,
  givenFlags,
  historyFromFlags,
  optionsFromFlags,
  outputFile,
  requestFlags,
  RUN_OPTIONS,
  type HistoryOptions,
  type Values,
} from './args.ts';
import type { FileIo } from './files.ts';
import { CliInputError, parseDurationSeconds, parseRate, parseWholeNumber } from './values.ts';

const CAPACITY_OPTIONS = {
  p99: { type: 'string' },
  errors: { type: 'string' },
  'start-rate': { type: 'string' },
  'max-rate': { type: 'string' },
  step: { type: 'string' },
  warmup: RUN_OPTIONS.warmup,
  'max-in-flight': RUN_OPTIONS['max-in-flight'],
  name: RUN_OPTIONS.name,
  method: RUN_OPTIONS.method,
  header: RUN_OPTIONS.header,
  body: RUN_OPTIONS.body,
  'body-file': RUN_OPTIONS['body-file'],
  monitor: RUN_OPTIONS.monitor,
  keepalive: RUN_OPTIONS.keepalive,
  http2: RUN_OPTIONS.http2,
  insecure: RUN_OPTIONS.insecure,
  cacert: RUN_OPTIONS.cacert,
  servername: RUN_OPTIONS.servername,
  'tls-min-version': RUN_OPTIONS['tls-min-version'],
  timeout: RUN_OPTIONS.timeout,
  interval: RUN_OPTIONS.interval,
  format: RUN_OPTIONS.format,
  json: RUN_OPTIONS.json,
  quiet: RUN_OPTIONS.quiet,
  save: RUN_OPTIONS.save,
  'data-dir': RUN_OPTIONS['data-dir'],
  'keep-secrets': RUN_OPTIONS['keep-secrets'],
  help: RUN_OPTIONS.help,
} as const;

/** Where a plan field's error points when its flag was given. */
const CAPACITY_FLAG_OF_PATH: readonly [RegExp, string][] = [
  [/^search\.goal\.p99Ms/, '--p99'],
  [/^search\.goal\.errorPercent/, '--errors'],
  [/^search\.startRate/, '--start-rate'],
  [/^search\.maxRate/, '--max-rate'],
  [/^search\.stepSeconds/, '--step'],
  [/^search\.warmupSeconds/, '--warmup'],
  [/^maxInFlight/, '--max-in-flight'],
  ...FLAG_OF_PATH,
];

export interface CapacityOutput {
  /** text (the default) or json, on stdout. */
  format: 'text' | 'json';
  /** Write the plan, every step's run and the answers as JSON here. */
  jsonFile: string | null;
  quiet: boolean;
  keepSecrets: boolean;
}

export type ParsedCapacity =
  { help: true } | { help: false; plan: CapacityPlan; output: CapacityOutput; history: HistoryOptions };

/** `--errors 1%` or `--errors 1`: percent of the requests. */
function parsePercent(flag: string, text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?|\.\d+)\s*%?\s*$/.exec(text);
  if (!m) throw new CliInputError(flag, `"${text}" is not a percentage (e.g. 1% or 0.5)`);
  return Number(m[1]);
}

/** `nginx=http://127.0.0.1:8080/` names its target; a bare URL is named after its host. */
function targetOf(text: string): { name: string; url: string } {
  const m = /^([^=/:]+)=(.+)$/.exec(text);
  return m ? { name: m[1]!.trim(), url: m[2]!.trim() } : { name: '', url: text };
}

export function parseCapacityArgs(argv: readonly string[], io: FileIo): ParsedCapacity {
  let flags;
  try {
    flags = parseArgs({
      args: [...argv],
      options: CAPACITY_OPTIONS,
      allowPositionals: true,
      allowNegative: true,
      strict: true,
    });
  } catch (e) {
    const message = (e as Error).message;
    const flag = /'(-[^']*?)(?:[ ,'])/.exec(message)?.[1] ?? 'arguments';
    throw new CliInputError(flag, message);
  }
  const { values: v, positionals } = flags;
  if (v.help) return { help: true };
  if (positionals.length === 0) throw new CliInputError('<url>', 'give at least one target URL');
  if (v.p99 === undefined) throw new CliInputError('--p99', 'give the latency goal, e.g. --p99 10 (ms)');
  if (v.format !== undefined && v.format !== 'text' && v.format !== 'json') {
    throw new CliInputError('--format', `"${v.format}" is not one of text, json`);
  }
  // The run flags' parsers read what they know of these values; the rest stays ours.
  const runValues: Values = v;
  const request = requestFlags(runValues, io);
  const options = optionsFromFlags(runValues, undefined, io);
  const rate = (flag: '--start-rate' | '--max-rate', text: string | undefined) =>
    text === undefined ? undefined : parseRate(flag, text);
  const input = {
    name: v.name,
    targets: positionals.map((p) => {
      const { name, url } = targetOf(p);
      return {
        name,
        url,
        method: request.method ?? (request.body ? 'POST' : undefined),
        headers: request.headers,
        ...(request.body ? { body: request.body } : {}),
        ...(request.monitor ? { monitor: request.monitor } : {}),
      };
    }),
    search: {
      goal: {
        p99Ms: parseDurationSeconds('--p99', v.p99, 'ms') * 1000,
        errorPercent: v.errors === undefined ? undefined : parsePercent('--errors', v.errors),
      },
      startRate: rate('--start-rate', v['start-rate']),
      maxRate: rate('--max-rate', v['max-rate']),
      stepSeconds: v.step === undefined ? undefined : parseDurationSeconds('--step', v.step, 's'),
      warmupSeconds: options.warmupSeconds,
    },
    maxInFlight:
      v['max-in-flight'] === undefined ? undefined : parseWholeNumber('--max-in-flight', v['max-in-flight']),
    options: { ...options, protocol: v.http2 ? 'h2' : 'http1.1' },
  };
  const parsed = parseWith(capacityPlanSchema, input);
  if (!parsed.ok) {
    throw flagIssue(parsed.issues[0]!, givenFlags(runValues, positionals), '', CAPACITY_FLAG_OF_PATH);
  }
  checkInputFiles(parsed.value, io, '');
  return {
    help: false,
    plan: parsed.value,
    output: {
      format: v.format === 'json' ? 'json' : 'text',
      jsonFile: outputFile('--json', v.json, io),
      quiet: v.quiet === true,
      keepSecrets: v['keep-secrets'] === true,
    },
    history: historyFromFlags(runValues, io),
  };
}
