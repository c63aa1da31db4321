/**
 * `trebuchet run` arguments -> a validated Scenario plus output choices. Flags mirror ab and
 * vegeta; a scenario file gives the base and flags override it. Every error is a
 * CliInputError naming the flag or the scenario field.
 */
import { isAbsolute, dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULTS } from '../../shared/defaults.ts';
import type { Body, Header, Load, Scenario, Threshold } from '../../shared/scenario.ts';
import { scenarioSchema } from '../../shared/scenario.ts';
import type { FieldIssue } from '../../shared/validation.ts';
import { parseWith } from '../../shared/validation.ts';
import {
  CliInputError,
  parseDurationSeconds,
  parseHeader,
  parseRate,
  parseThreshold,
  parseWholeNumber,
} from './values.ts';

export const REPORT_FORMATS = ['text', 'ab', 'vegeta', 'json'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export interface OutputOptions {
  format: ReportFormat;
  /** Write the result(s) as JSON here. */
  jsonFile: string | null;
  /** Base path for the CSV files (see csvPaths). */
  csvFile: string | null;
  /** No progress lines on stderr. */
  quiet: boolean;
}

export interface RunCommand {
  scenario: Scenario;
  output: OutputOptions;
}

/** What argument parsing needs from the outside world (tests pass fakes). */
export interface ArgsIo {
  cwd: string;
  readFile(path: string): string;
  isFile(path: string): boolean;
  isDirectory(path: string): boolean;
}

export const RUN_OPTIONS = {
  scenario: { type: 'string' },
  name: { type: 'string' },
  connections: { type: 'string', short: 'c' },
  requests: { type: 'string', short: 'n' },
  duration: { type: 'string', short: 'd' },
  rate: { type: 'string' },
  closed: { type: 'boolean' },
  'max-in-flight': { type: 'string' },
  pipelining: { type: 'string', short: 'p' },
  keepalive: { type: 'boolean', short: 'k' },
  method: { type: 'string', short: 'm' },
  header: { type: 'string', short: 'H', multiple: true },
  body: { type: 'string' },
  'body-file': { type: 'string' },
  insecure: { type: 'boolean' },
  cacert: { type: 'string' },
  servername: { type: 'string' },
  http2: { type: 'boolean' },
  engine: { type: 'string' },
  timeout: { type: 'string' },
  warmup: { type: 'string' },
  slo: { type: 'string' },
  threshold: { type: 'string', multiple: true },
  interval: { type: 'string' },
  format: { type: 'string' },
  json: { type: 'string' },
  csv: { type: 'string' },
  quiet: { type: 'boolean', short: 'q' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Values = ReturnType<typeof parseRunFlags>['values'];

function parseRunFlags(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    options: RUN_OPTIONS,
    allowPositionals: true,
    allowNegative: true,
    strict: true,
  });
}

/** Which flag sets which scenario field, so schema errors name the flag the user typed. */
const FLAG_OF_PATH: readonly [RegExp, string][] = [
  [/^targets\.\d+\.url/, '<url>'],
  [/^targets\.\d+\.method/, '--method'],
  [/^targets\.\d+\.headers/, '--header'],
  [/^targets\.\d+\.body/, '--body'],
  [/^targets$/, '<url>'],
  [/^load\.connections/, '--connections'],
  [/^load\.pipelining/, '--pipelining'],
  [/^load\.limit\.count/, '--requests'],
  [/^load\.limit\.seconds/, '--duration'],
  [/^load\.durationSeconds/, '--duration'],
  [/^load\.rate/, '--rate'],
  [/^load\.maxInFlight/, '--max-in-flight'],
  [/^options\.timeoutMs/, '--timeout'],
  [/^options\.warmupSeconds/, '--warmup'],
  [/^options\.sloMs/, '--slo'],
  [/^options\.thresholds/, '--threshold'],
  [/^options\.sampleIntervalMs/, '--interval'],
  [/^options\.tls\.caFile/, '--cacert'],
  [/^options\.tls\.servername/, '--servername'],
  [/^options\.engine/, '--engine'],
  [/^name/, '--name'],
];

function flagIssue(issue: FieldIssue, setByFlag: ReadonlySet<string>): CliInputError {
  const flag = FLAG_OF_PATH.find(([re]) => re.test(issue.path))?.[1];
  if (flag && setByFlag.has(flag)) return new CliInputError(flag, issue.message);
  return new CliInputError(issue.path || 'scenario', issue.message);
}

function readScenarioFile(path: string, io: ArgsIo): Scenario {
  const file = resolve(io.cwd, path);
  if (!io.isFile(file)) throw new CliInputError('--scenario', `no such file: ${file}`);
  let json: unknown;
  try {
    json = JSON.parse(io.readFile(file));
  } catch (e) {
    throw new CliInputError('--scenario', `${file} is not valid JSON (${(e as Error).message})`);
  }
  const parsed = parseWith(scenarioSchema, json);
  if (!parsed.ok) {
    const first = parsed.issues[0]!;
    const rest = parsed.issues.length > 1 ? ` (and ${parsed.issues.length - 1} more)` : '';
    throw new CliInputError(`--scenario ${first.path || '(root)'}`, `${first.message}${rest}`);
  }
  // Paths inside the file are relative to the file, not to wherever the CLI was started.
  const base = dirname(file);
  const rel = (p: string) => (isAbsolute(p) ? p : resolve(base, p));
  const s = parsed.value;
  return {
    ...s,
    targets: s.targets.map((t) =>
      t.body.kind === 'file' ? { ...t, body: { kind: 'file', path: rel(t.body.path) } } : t,
    ),
    options: {
      ...s.options,
      tls: { ...s.options.tls, caFile: s.options.tls.caFile && rel(s.options.tls.caFile) },
    },
  };
}

function existingFile(flag: string, path: string, io: ArgsIo): string {
  const abs = resolve(io.cwd, path);
  if (!io.isFile(abs)) throw new CliInputError(flag, `no such file: ${abs}`);
  return abs;
}

function bodyFromFlags(v: Values, io: ArgsIo): Body | null {
  if (v.body !== undefined && v['body-file'] !== undefined) {
    throw new CliInputError('--body', 'give either --body or --body-file, not both');
  }
  if (v.body !== undefined) return { kind: 'text', text: v.body };
  if (v['body-file'] !== undefined)
    return { kind: 'file', path: existingFile('--body-file', v['body-file'], io) };
  return null;
}

/** Headers from -H replace same-named ones from the file (case-insensitively) and add the rest. */
function mergeHeaders(base: readonly Header[], extra: readonly Header[]): Header[] {
  const names = new Set(extra.map((h) => h.name.toLowerCase()));
  return [...base.filter((h) => !names.has(h.name.toLowerCase())), ...extra];
}

function loadFromFlags(v: Values, base: Load | null): Load {
  const rate = v.rate === undefined ? null : parseRate('--rate', v.rate);
  const connections =
    v.connections === undefined ? undefined : parseWholeNumber('--connections', v.connections);
  const pipelining = v.pipelining === undefined ? undefined : parseWholeNumber('--pipelining', v.pipelining);
  const requests = v.requests === undefined ? undefined : parseWholeNumber('--requests', v.requests);
  const seconds = v.duration === undefined ? undefined : parseDurationSeconds('--duration', v.duration, 's');
  const maxInFlight =
    v['max-in-flight'] === undefined ? undefined : parseWholeNumber('--max-in-flight', v['max-in-flight']);

  if (requests !== undefined && seconds !== undefined) {
    throw new CliInputError('--requests', 'give either --requests or --duration, not both');
  }
  const closedFlag =
    v.closed === true || connections !== undefined || pipelining !== undefined || requests !== undefined;
  const open = rate !== null ? v.closed !== true : !closedFlag && base?.model === 'open';

  if (open) {
    const closedOnly = { '--requests': requests, '--connections': connections, '--pipelining': pipelining };
    const clash = Object.entries(closedOnly).find(([, value]) => value !== undefined)?.[0];
    if (clash) {
      const instead =
        clash === '--requests' ? '; the open model runs for -d seconds' : ', or use --max-in-flight';
      throw new CliInputError(
        clash,
        `belongs to the closed model, but --rate without --closed runs the open model (add --closed for a closed loop capped at that rate${instead})`,
      );
    }
    const b = base?.model === 'open' ? base : null;
    return {
      model: 'open',
      rate: rate ?? b?.rate ?? DEFAULTS.open.rate,
      durationSeconds: seconds ?? b?.durationSeconds ?? DEFAULTS.open.durationSeconds,
      maxInFlight: maxInFlight ?? b?.maxInFlight ?? DEFAULTS.open.maxInFlight,
    };
  }
  if (maxInFlight !== undefined) {
    throw new CliInputError(
      '--max-in-flight',
      'caps the open model only (use it with --rate, without --closed)',
    );
  }
  const b = base?.model === 'closed' ? base : null;
  return {
    model: 'closed',
    connections: connections ?? b?.connections ?? DEFAULTS.closed.connections,
    pipelining: pipelining ?? b?.pipelining ?? DEFAULTS.closed.pipelining,
    limit:
      requests !== undefined
        ? { kind: 'requests', count: requests }
        : seconds !== undefined
          ? { kind: 'duration', seconds }
          : (b?.limit ?? { kind: 'duration', seconds: DEFAULTS.closed.durationSeconds }),
    rate: rate ?? b?.rate ?? null,
  };
}

/** An output file path whose folder exists, so a long run does not end in a write error. */
function outputFile(flag: string, path: string | undefined, io: ArgsIo): string | null {
  if (path === undefined) return null;
  const abs = resolve(io.cwd, path);
  if (!io.isDirectory(dirname(abs))) throw new CliInputError(flag, `folder does not exist: ${dirname(abs)}`);
  if (io.isDirectory(abs)) throw new CliInputError(flag, `${abs} is a folder; give a file name`);
  return abs;
}

function outputFromFlags(v: Values, io: ArgsIo): OutputOptions {
  const format = v.format ?? 'text';
  if (!(REPORT_FORMATS as readonly string[]).includes(format)) {
    throw new CliInputError('--format', `"${format}" is not one of ${REPORT_FORMATS.join(', ')}`);
  }
  return {
    format: format as ReportFormat,
    jsonFile: outputFile('--json', v.json, io),
    csvFile: outputFile('--csv', v.csv, io),
    quiet: v.quiet === true,
  };
}

/** The flags that were given, by their long name, for naming them in schema errors. */
function givenFlags(v: Values, positionals: readonly string[]): Set<string> {
  const set = new Set(Object.keys(v).map((k) => `--${k === 'body-file' ? 'body' : k}`));
  if (positionals.length > 0) set.add('<url>');
  return set;
}

export type ParsedRun = { help: true } | ({ help: false } & RunCommand);

export function parseRunArgs(argv: readonly string[], io: ArgsIo): ParsedRun {
  let flags: ReturnType<typeof parseRunFlags>;
  try {
    flags = parseRunFlags(argv);
  } catch (e) {
    // node:util's messages already name the option ("Unknown option '--foo'").
    const message = (e as Error).message;
    const flag = /'(-[^']*?)(?:[ ,'])/.exec(message)?.[1] ?? 'arguments';
    throw new CliInputError(flag, message);
  }
  const { values: v, positionals } = flags;
  if (v.help) return { help: true };

  const output = outputFromFlags(v, io);
  const base = v.scenario === undefined ? null : readScenarioFile(v.scenario, io);
  if (!base && positionals.length === 0) {
    throw new CliInputError('<url>', 'give at least one target URL, or --scenario file.json');
  }

  const body = bodyFromFlags(v, io);
  const headers = (v.header ?? []).map((h) => parseHeader('--header', h));
  const method = v.method?.toUpperCase();
  const targets = (base ? base.targets : []).map((t) => ({
    ...t,
    ...(method ? { method } : {}),
    headers: mergeHeaders(t.headers, headers),
    ...(body ? { body } : {}),
  }));
  const fromUrls = positionals.map((url) => ({
    name: '',
    url,
    // A body without -m is a POST, as with ab -p.
    method: method ?? (body ? 'POST' : DEFAULTS.method),
    headers,
    body: body ?? { kind: 'none' as const },
  }));

  const o = base?.options;
  const thresholds: Threshold[] | undefined = v.threshold?.map((t) => parseThreshold('--threshold', t));
  const input = {
    version: base?.version,
    name: v.name ?? base?.name,
    targets: positionals.length > 0 ? fromUrls : targets,
    load: loadFromFlags(v, base?.load ?? null),
    options: {
      keepAlive: v.keepalive ?? o?.keepAlive,
      protocol: v.http2 === undefined ? o?.protocol : v.http2 ? 'h2' : 'http1.1',
      engine: v.engine ?? o?.engine,
      timeoutMs:
        v.timeout === undefined
          ? o?.timeoutMs
          : Math.round(parseDurationSeconds('--timeout', v.timeout, 's') * 1000),
      warmupSeconds:
        v.warmup === undefined ? o?.warmupSeconds : parseDurationSeconds('--warmup', v.warmup, 's'),
      sloMs: v.slo === undefined ? o?.sloMs : parseDurationSeconds('--slo', v.slo, 'ms') * 1000,
      thresholds: thresholds ?? o?.thresholds,
      tls: {
        verify: v.insecure === undefined ? o?.tls.verify : !v.insecure,
        caFile: v.cacert === undefined ? (o?.tls.caFile ?? null) : existingFile('--cacert', v.cacert, io),
        servername: v.servername ?? o?.tls.servername ?? null,
      },
      sampleIntervalMs:
        v.interval === undefined
          ? o?.sampleIntervalMs
          : Math.round(parseDurationSeconds('--interval', v.interval, 'ms') * 1000),
    },
  };
  const parsed = parseWith(scenarioSchema, input);
  if (!parsed.ok) throw flagIssue(parsed.issues[0]!, givenFlags(v, positionals));
  return { help: false, scenario: parsed.value, output };
}
