/**
 * The flags of `trebuchet run` (they mirror ab and vegeta) and how their text is read: the
 * option table, the values of number and duration flags, and which flag a schema error
 * belongs to. What the flags build is in scenario-flags.ts and plan-flags.ts.
 */
import type { ClosedLimit } from '../../../shared/model/scenario.ts';
import type { FieldIssue } from '../../../shared/model/validation.ts';
import { parseFlags } from '../input/flags.ts';
import { parseTargetPointer, type TargetPointer } from '../presets/targets.ts';
import { CliInputError, parseDurationSeconds, parseWholeNumber } from '../values.ts';

export const RUN_OPTIONS = {
  scenario: { type: 'string' },
  preset: { type: 'string' },
  target: { type: 'string', multiple: true },
  levels: { type: 'string' },
  repetitions: { type: 'string' },
  pause: { type: 'string' },
  save: { type: 'boolean' },
  'data-dir': { type: 'string' },
  name: { type: 'string' },
  connections: { type: 'string', short: 'c' },
  requests: { type: 'string', short: 'n' },
  duration: { type: 'string', short: 'd' },
  rate: { type: 'string' },
  closed: { type: 'boolean' },
  open: { type: 'boolean' },
  stages: { type: 'string' },
  'max-in-flight': { type: 'string' },
  pipelining: { type: 'string', short: 'p' },
  keepalive: { type: 'boolean', short: 'k' },
  method: { type: 'string', short: 'm' },
  header: { type: 'string', short: 'H', multiple: true },
  body: { type: 'string' },
  monitor: { type: 'string' },
  'connect-to': { type: 'string', multiple: true },
  resolve: { type: 'string', multiple: true },
  'unix-socket': { type: 'string' },
  'body-file': { type: 'string' },
  targets: { type: 'string' },
  'targets-format': { type: 'string' },
  'targets-order': { type: 'string' },
  seed: { type: 'string' },
  insecure: { type: 'boolean' },
  cacert: { type: 'string' },
  servername: { type: 'string' },
  'tls-min-version': { type: 'string' },
  http2: { type: 'boolean' },
  engine: { type: 'string' },
  threads: { type: 'string', short: 't' },
  timeout: { type: 'string' },
  warmup: { type: 'string' },
  slo: { type: 'string' },
  threshold: { type: 'string', multiple: true },
  interval: { type: 'string' },
  shard: { type: 'string' },
  'start-at': { type: 'string' },
  'start-on': { type: 'string' },
  'ready-file': { type: 'string' },
  shards: { type: 'string' },
  on: { type: 'string' },
  image: { type: 'string' },
  namespace: { type: 'string' },
  context: { type: 'string' },
  'node-selector': { type: 'string', multiple: true },
  'ready-timeout': { type: 'string' },
  'dry-run': { type: 'boolean' },
  format: { type: 'string' },
  json: { type: 'string' },
  csv: { type: 'string' },
  html: { type: 'string' },
  export: { type: 'string' },
  quiet: { type: 'boolean', short: 'q' },
  'keep-secrets': { type: 'boolean' },
  'fail-unless-clean': { type: 'boolean' },
  'allow-error-status': { type: 'boolean' },
  out: { type: 'string', multiple: true },
  'metrics-listen': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

function parseRunArgv(argv: readonly string[]) {
  return parseFlags({ args: [...argv], options: RUN_OPTIONS, allowPositionals: true, allowNegative: true });
}

export type Values = ReturnType<typeof parseRunArgv>['values'];

/** The parsed flags and URLs, kept for applyPreset(). */
export interface RunFlags {
  values: Values;
  positionals: string[];
}

/** The flags and URLs of `trebuchet run`; an unknown or malformed flag is a CliInputError. */
export function parseRunFlags(argv: readonly string[]): RunFlags {
  return parseRunArgv(argv);
}

/**
 * Which flag sets which scenario or plan field, so schema errors name the flag the user
 * typed (the first entry whose flag was given).
 */
export const FLAG_OF_PATH: readonly [RegExp, string][] = [
  [/^targets\.\d+\.url/, '<url>'],
  [/^targets\.\d+\.url/, '--target'],
  [/^targets\.\d+\.method/, '--method'],
  [/^targets\.\d+\.headers/, '--header'],
  [/^targets\.\d+\.body/, '--body'],
  [/^targets\.\d+\.monitor/, '--monitor'],
  [/^targets\.\d+\.connectTo/, '--connect-to'],
  [/^targets\.\d+\.connectTo/, '--resolve'],
  [/^targets\.\d+\.unixSocket/, '--unix-socket'],
  [/^targets\.\d+\.(requests|order)/, '--targets'],
  [/^targets$/, '<url>'],
  [/^load\.connections/, '--connections'],
  [/^load\.pipelining/, '--pipelining'],
  [/^load\.limit\.count/, '--requests'],
  [/^load\.limit\.seconds/, '--duration'],
  [/^load\.durationSeconds/, '--duration'],
  [/^load\.rate/, '--rate'],
  [/^load\.maxInFlight/, '--max-in-flight'],
  [/^load\.stages/, '--stages'],
  [/^options\.timeoutMs/, '--timeout'],
  [/^options\.warmupSeconds/, '--warmup'],
  [/^options\.sloMs/, '--slo'],
  [/^options\.thresholds/, '--threshold'],
  [/^options\.sampleIntervalMs/, '--interval'],
  [/^options\.tls\.caFile/, '--cacert'],
  [/^options\.tls\.servername/, '--servername'],
  [/^options\.tls\.minVersion/, '--tls-min-version'],
  [/^options\.engine/, '--engine'],
  [/^options\.workers/, '--threads'],
  [/^levels/, '--levels'],
  [/^repetitions/, '--repetitions'],
  [/^pauseSeconds/, '--pause'],
  [/^name/, '--name'],
];

/** The flags that were given, by their long name, for naming them in schema errors. */
export function givenFlags({ values, positionals }: RunFlags): Set<string> {
  const set = new Set(Object.keys(values).map((k) => `--${k === 'body-file' ? 'body' : k}`));
  if (positionals.length > 0) set.add('<url>');
  return set;
}

/** A schema issue of the scenario or plan the flags built, named by the flag that set the field. */
export function flagIssue(
  issue: FieldIssue,
  flags: RunFlags,
  what: string,
  flagOfPath: readonly [RegExp, string][] = FLAG_OF_PATH,
): CliInputError {
  const given = givenFlags(flags);
  const flag = flagOfPath.find(([re, f]) => re.test(issue.path) && given.has(f))?.[1];
  if (flag) return new CliInputError(flag, issue.message);
  const field = [what, issue.path].filter((part) => part !== '').join(' ');
  return new CliInputError(field || 'scenario', issue.message);
}

type WholeNumberFlag = 'connections' | 'pipelining' | 'requests' | 'max-in-flight' | 'repetitions';

/** A whole-number flag's value, when it was given. */
export function wholeNumberFlag(v: Values, key: WholeNumberFlag): number | undefined {
  const text = v[key];
  return text === undefined ? undefined : parseWholeNumber(`--${key}`, text);
}

type DurationFlag = 'duration' | 'timeout' | 'warmup' | 'slo' | 'interval' | 'pause';

/** A duration flag's value in seconds (a bare number is in `bareUnit`), when it was given. */
export function secondsFlag(v: Values, key: DurationFlag, bareUnit: 's' | 'ms'): number | undefined {
  const text = v[key];
  return text === undefined ? undefined : parseDurationSeconds(`--${key}`, text, bareUnit);
}

export interface LimitFlags {
  requests: number | undefined;
  seconds: number | undefined;
}

/** -n and -d, of which a run takes one at most. */
export function limitFlags(v: Values): LimitFlags {
  const requests = wholeNumberFlag(v, 'requests');
  const seconds = secondsFlag(v, 'duration', 's');
  if (requests !== undefined && seconds !== undefined) {
    throw new CliInputError('--requests', 'give either --requests or --duration, not both');
  }
  return { requests, seconds };
}

/** The closed model's limit: -n, else -d, else the base's (absent: the schema's default). */
export function closedLimit<B extends ClosedLimit | undefined>(
  { requests, seconds }: LimitFlags,
  base: B,
): ClosedLimit | B {
  if (requests !== undefined) return { kind: 'requests', count: requests };
  if (seconds !== undefined) return { kind: 'duration', seconds };
  return base;
}

/** The preset targets the URLs and --target flags point at. */
export function targetPointers(flags: RunFlags): TargetPointer[] {
  return [
    ...flags.positionals.map((url) => ({ name: null, url })),
    ...(flags.values.target ?? []).map((t) => parseTargetPointer('--target', t)),
  ];
}
