/**
 * `trebuchet run` arguments -> a validated Scenario or comparison plan plus output choices.
 * Flags mirror ab and vegeta; a scenario file or a preset gives the base and flags override
 * it. Every error is a CliInputError naming the flag or the scenario field.
 */
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { comparisonPlanSchema, type ComparisonPlan } from '../../shared/comparison.ts';
import { DEFAULTS } from '../../shared/defaults.ts';
import type { Monitor } from '../../shared/monitor.ts';
import type { Preset } from '../../shared/presets.ts';
import type { Body, ClosedLimit, Header, Load, Scenario, Threshold } from '../../shared/scenario.ts';
import { scenarioSchema } from '../../shared/scenario.ts';
import type { FieldIssue } from '../../shared/validation.ts';
import { parseWith } from '../../shared/validation.ts';
import { inputFilesOf, type InputFileKind } from '../engine/input-files.ts';
import { pathsRelativeTo, readJsonFile, type FileIo } from './files.ts';
import {
  parseTargetPointer,
  pointPlanTargets,
  pointScenarioTargets,
  type TargetPointer,
} from './preset-targets.ts';
import {
  CliInputError,
  parseDataDir,
  parseDurationSeconds,
  parseHeader,
  parseMonitor,
  parseRate,
  parseThreshold,
  parseWholeNumber,
} from './values.ts';
import { stagesFromFlags } from './stages-flag.ts';

const REPORT_FORMATS = ['text', 'ab', 'vegeta', 'http_load', 'jmeter', 'json'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export interface OutputOptions {
  /** --format; null when not given (a run prints text, a comparison its plan's layout). */
  format: ReportFormat | null;
  /** Write the result(s) as JSON here. */
  jsonFile: string | null;
  /** Base path for the CSV files (see csvPaths). */
  csvFile: string | null;
  /** Write the self-contained HTML report here. */
  htmlFile: string | null;
  /** No progress lines on stderr. */
  quiet: boolean;
  /** Keep secret header values in the report and the files (--keep-secrets); cleared by default. */
  keepSecrets: boolean;
}

/** Where `--save` keeps runs: the data directory of `trebuchet serve --data-dir` (the stores' default when undefined). */
export interface HistoryOptions {
  save: boolean;
  dataDir: string | undefined;
}

interface CommandCommon {
  output: OutputOptions;
  history: HistoryOptions;
  /** What a preset run changed beyond the given values (targets left out), for stderr. */
  notes: string[];
}

/** A run of one scenario (its targets one after another), or a comparison preset's matrix. */
export type RunCommand = CommandCommon &
  ({ kind: 'scenario'; scenario: Scenario } | { kind: 'comparison'; plan: ComparisonPlan });

/** `--preset ref`: the preset is found (files, stores) by the caller, then applyPreset() finishes the command. */
export interface PresetRequest {
  kind: 'preset';
  ref: string;
  output: OutputOptions;
  history: HistoryOptions;
  flags: RunFlags;
}

/** The parsed flags and URLs, kept for applyPreset(). */
export interface RunFlags {
  values: Values;
  positionals: string[];
}

const RUN_OPTIONS = {
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
  'body-file': { type: 'string' },
  insecure: { type: 'boolean' },
  cacert: { type: 'string' },
  servername: { type: 'string' },
  'tls-min-version': { type: 'string' },
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
  html: { type: 'string' },
  quiet: { type: 'boolean', short: 'q' },
  'keep-secrets': { type: 'boolean' },
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

/**
 * Which flag sets which scenario or plan field, so schema errors name the flag the user
 * typed (the first entry whose flag was given).
 */
const FLAG_OF_PATH: readonly [RegExp, string][] = [
  [/^targets\.\d+\.url/, '<url>'],
  [/^targets\.\d+\.url/, '--target'],
  [/^targets\.\d+\.method/, '--method'],
  [/^targets\.\d+\.headers/, '--header'],
  [/^targets\.\d+\.body/, '--body'],
  [/^targets\.\d+\.monitor/, '--monitor'],
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
  [/^levels/, '--levels'],
  [/^repetitions/, '--repetitions'],
  [/^pauseSeconds/, '--pause'],
  [/^name/, '--name'],
];

function flagIssue(issue: FieldIssue, setByFlag: ReadonlySet<string>, what: string): CliInputError {
  const flag = FLAG_OF_PATH.find(([re, f]) => re.test(issue.path) && setByFlag.has(f))?.[1];
  if (flag) return new CliInputError(flag, issue.message);
  const field = [what, issue.path].filter((part) => part !== '').join(' ');
  return new CliInputError(field || 'scenario', issue.message);
}

function readScenarioFile(path: string, io: FileIo): Scenario {
  const file = existingFile('--scenario', path, io);
  const parsed = parseWith(scenarioSchema, readJsonFile('--scenario', file, io));
  if (!parsed.ok) {
    const first = parsed.issues[0]!;
    const rest = parsed.issues.length > 1 ? ` (and ${parsed.issues.length - 1} more)` : '';
    throw new CliInputError(`--scenario ${first.path || '(root)'}`, `${first.message}${rest}`);
  }
  return { ...parsed.value, ...pathsRelativeTo(dirname(file), parsed.value) };
}

function existingFile(flag: string, path: string, io: FileIo): string {
  const abs = resolve(io.cwd, path);
  if (io.isDirectory(abs)) throw new CliInputError(flag, `${abs} is a folder, not a file`);
  if (!io.isFile(abs)) throw new CliInputError(flag, `no such file: ${abs}`);
  return abs;
}

/** A body or CA file given by a flag, checked as the engine will read it. */
function inputFile(flag: string, path: string, io: FileIo, kind: InputFileKind): string {
  const abs = resolve(io.cwd, path);
  const problem = io.inputFileProblem(abs, kind);
  if (problem) throw new CliInputError(flag, `${abs} ${problem}`);
  return abs;
}

/** The body and CA files a scenario or plan file names, checked as the engine will read them. */
function checkInputFiles(s: Parameters<typeof inputFilesOf>[0], io: FileIo, what: string): void {
  for (const { field, file, kind } of inputFilesOf(s)) {
    const problem = io.inputFileProblem(file, kind);
    if (problem) throw new CliInputError(`${what} ${field}`.trim(), `${file} ${problem}`);
  }
}

function bodyFromFlags(v: Values, io: FileIo): Body | null {
  if (v.body !== undefined && v['body-file'] !== undefined) {
    throw new CliInputError('--body', 'give either --body or --body-file, not both');
  }
  if (v.body !== undefined) return { kind: 'text', text: v.body };
  if (v['body-file'] !== undefined)
    return { kind: 'file', path: inputFile('--body-file', v['body-file'], io, 'body') };
  return null;
}

/** Headers from -H replace same-named ones from the file (case-insensitively) and add the rest. */
function mergeHeaders(base: readonly Header[], extra: readonly Header[]): Header[] {
  const names = new Set(extra.map((h) => h.name.toLowerCase()));
  return [...base.filter((h) => !names.has(h.name.toLowerCase())), ...extra];
}

type WholeNumberFlag = 'connections' | 'pipelining' | 'requests' | 'max-in-flight' | 'repetitions';

/** A whole-number flag's value, when it was given. */
function wholeNumberFlag(v: Values, key: WholeNumberFlag): number | undefined {
  const text = v[key];
  return text === undefined ? undefined : parseWholeNumber(`--${key}`, text);
}

type DurationFlag = 'duration' | 'timeout' | 'warmup' | 'slo' | 'interval' | 'pause';

/** A duration flag's value in seconds (a bare number is in `bareUnit`), when it was given. */
function secondsFlag(v: Values, key: DurationFlag, bareUnit: 's' | 'ms'): number | undefined {
  const text = v[key];
  return text === undefined ? undefined : parseDurationSeconds(`--${key}`, text, bareUnit);
}

interface LimitFlags {
  requests: number | undefined;
  seconds: number | undefined;
}

/** -n and -d, of which a run takes one at most. */
function limitFlags(v: Values): LimitFlags {
  const requests = wholeNumberFlag(v, 'requests');
  const seconds = secondsFlag(v, 'duration', 's');
  if (requests !== undefined && seconds !== undefined) {
    throw new CliInputError('--requests', 'give either --requests or --duration, not both');
  }
  return { requests, seconds };
}

/** The closed model's limit: -n, else -d, else the base's. */
function closedLimit({ requests, seconds }: LimitFlags, base: ClosedLimit): ClosedLimit {
  if (requests !== undefined) return { kind: 'requests', count: requests };
  if (seconds !== undefined) return { kind: 'duration', seconds };
  return base;
}

function loadFromFlags(v: Values, base: Load | null): Load {
  const rate = v.rate === undefined ? null : parseRate('--rate', v.rate);
  const connections = wholeNumberFlag(v, 'connections');
  const pipelining = wholeNumberFlag(v, 'pipelining');
  const limit = limitFlags(v);
  const { requests, seconds } = limit;
  const maxInFlight = wholeNumberFlag(v, 'max-in-flight');
  const levels = { connections, requests, seconds, rate, pipelining, maxInFlight };
  const staged = stagesFromFlags(
    v.stages,
    { ...levels, closed: v.closed === true, open: v.open === true },
    base,
  );
  if (staged) return staged;

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
    limit: closedLimit(limit, b?.limit ?? { kind: 'duration', seconds: DEFAULTS.closed.durationSeconds }),
    rate: rate ?? b?.rate ?? null,
  };
}

/** An output file path whose folder exists, so a long run does not end in a write error. */
function outputFile(flag: string, path: string | undefined, io: FileIo): string | null {
  if (path === undefined) return null;
  const abs = resolve(io.cwd, path);
  if (!io.isDirectory(dirname(abs))) throw new CliInputError(flag, `folder does not exist: ${dirname(abs)}`);
  if (io.isDirectory(abs)) throw new CliInputError(flag, `${abs} is a folder; give a file name`);
  return abs;
}

function outputFromFlags(v: Values, io: FileIo): OutputOptions {
  const format = v.format ?? null;
  if (format !== null && !(REPORT_FORMATS as readonly string[]).includes(format)) {
    throw new CliInputError('--format', `"${format}" is not one of ${REPORT_FORMATS.join(', ')}`);
  }
  return {
    format: format as ReportFormat | null,
    jsonFile: outputFile('--json', v.json, io),
    csvFile: outputFile('--csv', v.csv, io),
    htmlFile: outputFile('--html', v.html, io),
    quiet: v.quiet === true,
    keepSecrets: v['keep-secrets'] === true,
  };
}

/** The flags that were given, by their long name, for naming them in schema errors. */
function givenFlags(v: Values, positionals: readonly string[]): Set<string> {
  const set = new Set(Object.keys(v).map((k) => `--${k === 'body-file' ? 'body' : k}`));
  if (positionals.length > 0) set.add('<url>');
  return set;
}

function historyFromFlags(v: Values, io: FileIo): HistoryOptions {
  return { save: v.save === true, dataDir: parseDataDir(v['data-dir'], io.cwd) };
}

/** -m, -H, --body and --monitor as they change a target of a file or preset. */
interface RequestFlags {
  method: string | undefined;
  headers: Header[];
  body: Body | null;
  monitor: Monitor | null;
}

function requestFlags(v: Values, io: FileIo): RequestFlags {
  return {
    method: v.method?.toUpperCase(),
    headers: (v.header ?? []).map((h) => parseHeader('--header', h)),
    body: bodyFromFlags(v, io),
    monitor: v.monitor === undefined ? null : parseMonitor('--monitor', v.monitor),
  };
}

function overrideRequest<T extends { method: string; headers: Header[]; body: Body; monitor: Monitor }>(
  t: T,
  r: RequestFlags,
): Omit<T, 'method'> & { method: string } {
  return {
    ...t,
    ...(r.method ? { method: r.method } : {}),
    headers: mergeHeaders(t.headers, r.headers),
    ...(r.body ? { body: r.body } : {}),
    ...(r.monitor ? { monitor: r.monitor } : {}),
  };
}

/** The run options as flags change them (the protocol aside: a comparison sets it per cell). */
function optionsFromFlags(v: Values, o: Omit<Scenario['options'], 'protocol'> | undefined, io: FileIo) {
  const thresholds: Threshold[] | undefined = v.threshold?.map((t) => parseThreshold('--threshold', t));
  const timeout = secondsFlag(v, 'timeout', 's');
  const slo = secondsFlag(v, 'slo', 'ms');
  const interval = secondsFlag(v, 'interval', 'ms');
  return {
    keepAlive: v.keepalive ?? o?.keepAlive,
    engine: v.engine ?? o?.engine,
    timeoutMs: timeout === undefined ? o?.timeoutMs : Math.round(timeout * 1000),
    warmupSeconds: secondsFlag(v, 'warmup', 's') ?? o?.warmupSeconds,
    sloMs: slo === undefined ? o?.sloMs : slo * 1000,
    thresholds: thresholds ?? o?.thresholds,
    tls: {
      verify: v.insecure === undefined ? o?.tls.verify : !v.insecure,
      caFile: v.cacert === undefined ? (o?.tls.caFile ?? null) : inputFile('--cacert', v.cacert, io, 'ca'),
      servername: v.servername ?? o?.tls.servername ?? null,
      minVersion: v['tls-min-version'] ?? o?.tls.minVersion,
    },
    sampleIntervalMs: interval === undefined ? o?.sampleIntervalMs : Math.round(interval * 1000),
  };
}

/**
 * A scenario from flags over a base (a scenario file or preset, or none). URLs given here
 * are new targets that replace the base's; otherwise the base's targets take -m, -H, --body.
 */
function scenarioFromFlags(
  v: Values,
  positionals: readonly string[],
  base: Scenario | null,
  io: FileIo,
  what: string,
): Scenario {
  const request = requestFlags(v, io);
  const targets = (base ? base.targets : []).map((t) => overrideRequest(t, request));
  const fromUrls = positionals.map((url) => ({
    name: '',
    url,
    // A body without -m is a POST, as with ab -p.
    method: request.method ?? (request.body ? 'POST' : DEFAULTS.method),
    headers: request.headers,
    body: request.body ?? { kind: 'none' as const },
    ...(request.monitor ? { monitor: request.monitor } : {}),
  }));
  const o = base?.options;
  const input = {
    version: base?.version,
    name: v.name ?? base?.name,
    targets: positionals.length > 0 ? fromUrls : targets,
    load: loadFromFlags(v, base?.load ?? null),
    options: {
      ...optionsFromFlags(v, o, io),
      protocol: v.http2 === undefined ? o?.protocol : v.http2 ? 'h2' : 'http1.1',
    },
  };
  const parsed = parseWith(scenarioSchema, input);
  if (!parsed.ok) throw flagIssue(parsed.issues[0]!, givenFlags(v, positionals), what);
  checkInputFiles(parsed.value, io, what);
  return parsed.value;
}

/** `--levels 10,100,1000`: connections (closed model) or rates (open model). */
function parseLevels(text: string): number[] {
  const parts = text.split(',').map((p) => p.trim());
  if (parts.some((p) => !/^(\d+(\.\d+)?|\.\d+)$/.test(p))) {
    throw new CliInputError('--levels', `"${text}" is not a list of numbers (e.g. 10,100,1000)`);
  }
  return parts.map(Number);
}

/** Flags that a comparison sets per cell or level, with what to use instead. */
const NOT_FOR_COMPARISONS: readonly [keyof Values, string, string][] = [
  ['connections', '--connections', 'a comparison sets connections per level: use --levels'],
  ['rate', '--rate', 'a comparison sets the rate per level: use --levels'],
  ['closed', '--closed', "a comparison keeps its preset's load model"],
  ['http2', '--http2', 'a comparison sets the protocol per cell (http, https or h2 in the preset)'],
];

/** A comparison plan's load with -n, -d, -p and --max-in-flight applied. */
function planLoad(v: Values, load: Load): Load {
  const limit = limitFlags(v);
  if (load.model === 'open') {
    if (limit.requests !== undefined) {
      throw new CliInputError('--requests', "the preset's load is the open model, which runs for -d seconds");
    }
    if (v.pipelining !== undefined) {
      throw new CliInputError(
        '--pipelining',
        "belongs to the closed model; the preset's load is the open model",
      );
    }
    return {
      ...load,
      durationSeconds: limit.seconds ?? load.durationSeconds,
      maxInFlight: wholeNumberFlag(v, 'max-in-flight') ?? load.maxInFlight,
    };
  }
  if (v['max-in-flight'] !== undefined) {
    throw new CliInputError(
      '--max-in-flight',
      "caps the open model only; the preset's load is the closed model",
    );
  }
  return {
    ...load,
    pipelining: wholeNumberFlag(v, 'pipelining') ?? load.pipelining,
    limit: closedLimit(limit, load.limit),
  };
}

function targetPointers(flags: RunFlags): TargetPointer[] {
  return [
    ...flags.positionals.map((url) => ({ name: null, url })),
    ...(flags.values.target ?? []).map((t) => parseTargetPointer('--target', t)),
  ];
}

function planFromPreset(
  plan: ComparisonPlan,
  flags: RunFlags,
  io: FileIo,
): { plan: ComparisonPlan; notes: string[] } {
  const v = flags.values;
  for (const [key, flag, why] of NOT_FOR_COMPARISONS) {
    if (v[key] !== undefined) throw new CliInputError(flag, why);
  }
  const pointed = pointPlanTargets('--target', plan.targets, plan.protocols, targetPointers(flags));
  const request = requestFlags(v, io);
  const input = {
    ...plan,
    name: v.name ?? plan.name,
    targets: pointed.targets.map((t) => overrideRequest(t, request)),
    protocols: pointed.protocols,
    load: planLoad(v, plan.load),
    levels: v.levels === undefined ? plan.levels : parseLevels(v.levels),
    repetitions: wholeNumberFlag(v, 'repetitions') ?? plan.repetitions,
    pauseSeconds: secondsFlag(v, 'pause', 's') ?? plan.pauseSeconds,
    options: optionsFromFlags(v, plan.options, io),
  };
  const parsed = parseWith(comparisonPlanSchema, input);
  if (!parsed.ok) throw flagIssue(parsed.issues[0]!, givenFlags(v, flags.positionals), '--preset');
  checkInputFiles(parsed.value, io, '--preset');
  return { plan: parsed.value, notes: pointed.notes };
}

/** Flags that mean nothing for a preset run of a scenario or comparison. */
const COMPARISON_ONLY: readonly [keyof Values, string][] = [
  ['levels', '--levels'],
  ['repetitions', '--repetitions'],
  ['pause', '--pause'],
];

/** Finishes a `--preset` command once the preset is found: its scenario or plan with the flags applied. */
export function applyPreset(request: PresetRequest, preset: Preset, io: FileIo): RunCommand {
  const common = { output: request.output, history: request.history };
  if (preset.kind === 'comparison') {
    const { plan, notes } = planFromPreset(preset.plan, request.flags, io);
    return { ...common, kind: 'comparison', plan, notes };
  }
  const v = request.flags.values;
  for (const [key, flag] of COMPARISON_ONLY) {
    if (v[key] !== undefined)
      throw new CliInputError(flag, `"${preset.name}" is a scenario, not a comparison`);
  }
  const pointed = pointScenarioTargets('--target', preset.scenario.targets, targetPointers(request.flags));
  const base: Scenario = { ...preset.scenario, targets: pointed.targets };
  return {
    ...common,
    kind: 'scenario',
    scenario: scenarioFromFlags(v, [], base, io, '--preset'),
    notes: pointed.notes,
  };
}

export type ParsedRun = { help: true } | ({ help: false } & (RunCommand | PresetRequest));

export function parseRunArgs(argv: readonly string[], io: FileIo): ParsedRun {
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
  const history = historyFromFlags(v, io);
  if (v.preset !== undefined) {
    if (v.scenario !== undefined)
      throw new CliInputError('--preset', 'give either --preset or --scenario, not both');
    if (v.preset.trim() === '') throw new CliInputError('--preset', 'is empty');
    return { help: false, kind: 'preset', ref: v.preset, output, history, flags: { values: v, positionals } };
  }
  for (const [key, flag] of [...COMPARISON_ONLY, ['target', '--target'] as const]) {
    if (v[key] !== undefined) throw new CliInputError(flag, 'goes with --preset');
  }
  const base = v.scenario === undefined ? null : readScenarioFile(v.scenario, io);
  if (!base && positionals.length === 0) {
    throw new CliInputError('<url>', 'give at least one target URL, or --scenario file.json, or --preset');
  }
  const scenario = scenarioFromFlags(v, positionals, base, io, v.scenario === undefined ? '' : '--scenario');
  return { help: false, kind: 'scenario', scenario, output, history, notes: [] };
}
