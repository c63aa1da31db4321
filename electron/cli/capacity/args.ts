/**
 * `trebuchet capacity` arguments -> a validated capacity plan plus output choices, from URLs
 * or a preset (a capacity preset, or a comparison's targets and protocols, one search each).
 * The request, TLS and measuring flags are `trebuchet run`'s (run/args.ts); the goal and the
 * search's steps have flags of their own. Every error is a CliInputError naming the flag.
 */
import type { CapacitySearchInput } from '../../../shared/capacity/search.ts';
import { capacityPlanOfComparison } from '../../../shared/capacity/from-comparison.ts';
import {
  capacityPlanSchema,
  type CapacityPlan,
  type CapacityPlanInput,
  type CapacityTarget,
} from '../../../shared/capacity/plan.ts';
import type { Preset } from '../../../shared/records/presets.ts';
import { parseWith } from '../../../shared/model/validation.ts';
import type { MetricsOut } from '../../../shared/metrics/outs.ts';
import type { FileIo } from '../files.ts';
import { metricsOutFromFlags } from '../metrics/metrics-flags.ts';
import {
  checkInputFiles,
  newTargetFields,
  optionsFromFlags,
  overrideRequest,
  requestFlags,
} from '../flag-overrides.ts';
import { filesFromFlags, historyFromFlags, type HistoryOptions, type OutputFiles } from '../output-flags.ts';
import { pointPlanTargets, pointScenarioTargets, type TargetPointer } from '../presets/targets.ts';
import { parseFlags } from '../input/flags.ts';
import { FLAG_OF_PATH, flagIssue, RUN_OPTIONS, targetPointers, type Values } from '../run/flags.ts';
import { CliInputError, parseDurationSeconds, parseRate, parseWholeNumber } from '../values.ts';

const CAPACITY_OPTIONS = {
  preset: RUN_OPTIONS.preset,
  target: RUN_OPTIONS.target,
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
  'connect-to': RUN_OPTIONS['connect-to'],
  resolve: RUN_OPTIONS.resolve,
  'unix-socket': RUN_OPTIONS['unix-socket'],
  keepalive: RUN_OPTIONS.keepalive,
  http2: RUN_OPTIONS.http2,
  insecure: RUN_OPTIONS.insecure,
  cacert: RUN_OPTIONS.cacert,
  servername: RUN_OPTIONS.servername,
  'tls-min-version': RUN_OPTIONS['tls-min-version'],
  timeout: RUN_OPTIONS.timeout,
  threads: RUN_OPTIONS.threads,
  interval: RUN_OPTIONS.interval,
  format: RUN_OPTIONS.format,
  json: RUN_OPTIONS.json,
  csv: RUN_OPTIONS.csv,
  html: RUN_OPTIONS.html,
  export: RUN_OPTIONS.export,
  quiet: RUN_OPTIONS.quiet,
  save: RUN_OPTIONS.save,
  'data-dir': RUN_OPTIONS['data-dir'],
  'keep-secrets': RUN_OPTIONS['keep-secrets'],
  out: RUN_OPTIONS.out,
  'metrics-listen': RUN_OPTIONS['metrics-listen'],
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

export interface CapacityOutput extends OutputFiles {
  /** text (the default) or json, on stdout. */
  format: 'text' | 'json';
  quiet: boolean;
  keepSecrets: boolean;
}

interface Common {
  help: false;
  output: CapacityOutput;
  history: HistoryOptions;
  /** --out, --metrics-listen: where live metrics go. */
  metrics: MetricsOut;
}

/** `--preset ref`: found (files, stores) by the caller, then capacityFromPreset() makes the plan. */
export interface CapacityPresetRequest extends Common {
  kind: 'preset';
  ref: string;
  values: CapacityValues;
  pointers: TargetPointer[];
}

export type ParsedCapacity =
  { help: true } | (Common & { kind: 'plan'; plan: CapacityPlan; notes: string[] }) | CapacityPresetRequest;

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

/** The goal and steps as the flags set them, over a base search (a preset's) where they do not. */
function searchFromFlags(v: CapacityValues, base: CapacitySearchInput | undefined): CapacitySearchInput {
  const p99 = v.p99 === undefined ? base?.goal.p99Ms : parseDurationSeconds('--p99', v.p99, 'ms') * 1000;
  if (p99 === undefined) throw new CliInputError('--p99', 'give the latency goal, e.g. --p99 10 (ms)');
  const rate = (flag: '--start-rate' | '--max-rate', text: string | undefined) =>
    text === undefined ? undefined : parseRate(flag, text);
  return {
    goal: {
      p99Ms: p99,
      errorPercent: v.errors === undefined ? base?.goal.errorPercent : parsePercent('--errors', v.errors),
    },
    startRate: rate('--start-rate', v['start-rate']) ?? base?.startRate,
    maxRate: rate('--max-rate', v['max-rate']) ?? base?.maxRate,
    stepSeconds: v.step === undefined ? base?.stepSeconds : parseDurationSeconds('--step', v.step, 's'),
    warmupSeconds:
      v.warmup === undefined ? base?.warmupSeconds : parseDurationSeconds('--warmup', v.warmup, 's'),
  };
}

/** The plan: the flags over a base (a preset's plan, or nothing for URLs), validated. */
function planFromFlags(
  v: CapacityValues,
  io: FileIo,
  targets: readonly unknown[],
  base: CapacityPlanInput | null,
  positionals: readonly string[],
): CapacityPlan {
  const runValues: Values = v;
  // --warmup is the search's (each step's warm-up at its rate), not a run option here.
  const { warmupSeconds: _search, ...options } = optionsFromFlags(
    runValues,
    base?.options as Parameters<typeof optionsFromFlags>[1],
    io,
  );
  const input = {
    name: v.name ?? base?.name,
    targets,
    search: searchFromFlags(v, base?.search),
    maxInFlight:
      v['max-in-flight'] === undefined
        ? base?.maxInFlight
        : parseWholeNumber('--max-in-flight', v['max-in-flight']),
    options: { ...options, protocol: v.http2 ? 'h2' : (base?.options?.protocol ?? 'http1.1') },
  };
  const parsed = parseWith(capacityPlanSchema, input);
  if (!parsed.ok) {
    const where = base === null ? '' : '--preset';
    throw flagIssue(
      parsed.issues[0]!,
      { values: runValues, positionals: [...positionals] },
      where,
      CAPACITY_FLAG_OF_PATH,
    );
  }
  checkInputFiles(parsed.value, io, base === null ? '' : '--preset');
  return parsed.value;
}

function parseCapacityFlags(argv: readonly string[]) {
  return parseFlags({
    args: [...argv],
    options: CAPACITY_OPTIONS,
    allowPositionals: true,
    allowNegative: true,
  });
}

type CapacityValues = ReturnType<typeof parseCapacityFlags>['values'];

export function parseCapacityArgs(argv: readonly string[], io: FileIo): ParsedCapacity {
  const flags = parseCapacityFlags(argv);
  const { values: v, positionals } = flags;
  if (v.help) return { help: true };
  if (v.format !== undefined && v.format !== 'text' && v.format !== 'json') {
    throw new CliInputError('--format', `"${v.format}" is not one of text, json`);
  }
  // The run flags' parsers read what they know of these values; the rest stays ours.
  const runValues: Values = v;
  const common: Common = {
    help: false,
    output: {
      format: v.format === 'json' ? 'json' : 'text',
      ...filesFromFlags(v, io),
      quiet: v.quiet === true,
      keepSecrets: v['keep-secrets'] === true,
    },
    history: historyFromFlags(runValues, io),
    metrics: metricsOutFromFlags(v),
  };
  if (v.preset !== undefined) {
    const pointers = targetPointers({ values: runValues, positionals });
    return { ...common, kind: 'preset', ref: v.preset, values: v, pointers };
  }
  if (v.target !== undefined)
    throw new CliInputError('--target', 'points a --preset at your servers; give URLs alone');
  if (positionals.length === 0) throw new CliInputError('<url>', 'give at least one target URL, or --preset');
  const request = requestFlags(runValues, io);
  const targets = positionals.map((p) => {
    const { name, url } = targetOf(p);
    return { name, url, ...newTargetFields(request) };
  });
  return { ...common, kind: 'plan', plan: planFromFlags(v, io, targets, null, positionals), notes: [] };
}

/**
 * A `--preset` search once the preset is found: a capacity preset with the flags over its
 * plan, or a comparison preset as one search per target and protocol (its goal from --p99).
 * URLs and --target point it at the user's servers, as for trebuchet run.
 */
export function capacityFromPreset(
  request: CapacityPresetRequest,
  preset: Preset,
  io: FileIo,
): { plan: CapacityPlan; notes: string[] } {
  const { values: v, pointers } = request;
  const given = request.pointers.filter((p) => p.name === null).map((p) => p.url);
  const req = requestFlags(v satisfies Values, io);
  switch (preset.kind) {
    case 'run':
      throw new CliInputError(
        '--preset',
        `"${preset.name}" is a scenario: a capacity search takes a capacity or comparison preset`,
      );
    case 'capacity': {
      const pointed = pointScenarioTargets<CapacityTarget>('--target', preset.plan.targets, pointers);
      const targets = pointed.targets.map((t) => overrideRequest(t, req));
      return { plan: planFromFlags(v, io, targets, preset.plan, given), notes: pointed.notes };
    }
    case 'comparison': {
      const p = pointPlanTargets('--target', preset.plan.targets, preset.plan.protocols, pointers);
      const searches = capacityPlanOfComparison(
        { ...preset.plan, targets: p.targets, protocols: p.protocols },
        searchFromFlags(v, undefined),
      );
      const targets = (searches.targets as CapacityTarget[]).map((t) => overrideRequest(t, req));
      return { plan: planFromFlags(v, io, targets, searches, given), notes: p.notes };
    }
  }
}
