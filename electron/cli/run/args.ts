/**
 * `trebuchet run` arguments -> a validated Scenario or comparison plan plus output choices.
 * Flags mirror ab and vegeta (flags.ts); a scenario file or a preset gives the base and
 * flags override it (scenario-flags.ts, plan-flags.ts). Every error is a CliInputError naming
 * the flag or the scenario field.
 */
import type { ComparisonPlan } from '../../../shared/comparison/plan.ts';
import type { Preset } from '../../../shared/records/presets.ts';
import type { Scenario } from '../../../shared/model/scenario.ts';
import type { MetricsOut } from '../../../shared/metrics/outs.ts';
import type { FileIo } from '../files.ts';
import { metricsOutFromFlags } from '../metrics/metrics-flags.ts';
import {
  historyFromFlags,
  outputFromFlags,
  type HistoryOptions,
  type OutputOptions,
} from '../output-flags.ts';
import { planFromPreset } from './plan-flags.ts';
import { pointScenarioTargets } from '../presets/targets.ts';
import { parseRunFlags, targetPointers, type RunFlags, type Values } from './flags.ts';
import { readScenarioFile, scenarioFromFlags } from './scenario-flags.ts';
import { distributedFromFlags, type DistributedRequest } from './distributed-flags.ts';
import { shardFromFlags, type ShardRequest } from './shard-flags.ts';
import { CliInputError } from '../values.ts';

interface CommandCommon {
  output: OutputOptions;
  history: HistoryOptions;
  /** --out, --metrics-listen: where live metrics go. */
  metrics: MetricsOut;
  /** --shard i/N (--start-at T | --start-on ...): this machine's shard of the plan; null for a whole run. */
  shard: ShardRequest | null;
  /** --shards N --on local|kubernetes: the whole plan as N shards, coordinated here; null for a run here. */
  distributed: DistributedRequest | null;
  /** What a preset run changed beyond the given values (targets left out), for stderr. */
  notes: string[];
}

/** A run of one scenario (its targets one after another), or a comparison preset's matrix. */
export type RunCommand = CommandCommon &
  ({ kind: 'run'; scenario: Scenario } | { kind: 'comparison'; plan: ComparisonPlan });

/** `--preset ref`: the preset is found (files, stores) by the caller, then applyPreset() finishes the command. */
export interface PresetRequest {
  kind: 'preset';
  ref: string;
  output: OutputOptions;
  history: HistoryOptions;
  metrics: MetricsOut;
  shard: ShardRequest | null;
  distributed: DistributedRequest | null;
  flags: RunFlags;
}

/** Flags that mean nothing for a preset run of a scenario or comparison. */
const COMPARISON_ONLY: readonly [keyof Values, string][] = [
  ['levels', '--levels'],
  ['repetitions', '--repetitions'],
  ['pause', '--pause'],
];

/** Finishes a `--preset` command once the preset is found: its scenario or plan with the flags applied. */
export function applyPreset(request: PresetRequest, preset: Preset, io: FileIo): RunCommand {
  const common = {
    output: request.output,
    history: request.history,
    metrics: request.metrics,
    shard: request.shard,
    distributed: request.distributed,
  };
  if (preset.kind === 'capacity') {
    throw new CliInputError(
      '--preset',
      `"${preset.name}" is a capacity search: trebuchet capacity --preset runs it`,
    );
  }
  if (preset.kind === 'comparison') {
    if (request.output.jsonStream)
      throw new CliInputError(
        '--json',
        `- (a line per tick) is for a scenario; "${preset.name}" is a comparison`,
      );
    if (request.shard)
      throw new CliInputError('--shard', `"${preset.name}" is a comparison: a shard runs one scenario`);
    if (request.distributed)
      throw new CliInputError('--shards', `"${preset.name}" is a comparison: shards run one scenario`);
    if (request.flags.values.targets !== undefined)
      throw new CliInputError(
        '--targets',
        `"${preset.name}" is a comparison: a list of requests goes in a scenario`,
      );
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
    kind: 'run',
    // The URLs pointed at the preset's targets: they are not new targets here.
    scenario: scenarioFromFlags({ values: v, positionals: [] }, base, io, '--preset'),
    notes: pointed.notes,
  };
}

/**
 * A shard started by a coordinator (--start-on) speaks to it on stdout, and its figures are
 * the coordinator's result: no report, file or history of its own.
 */
function refuseOutputs(v: RunFlags['values']): void {
  for (const flag of ['json', 'csv', 'html', 'export', 'format', 'save'] as const) {
    if (v[flag] !== undefined)
      throw new CliInputError(
        `--${flag}`,
        "goes with a run's own result; a shard started with --start-on reports to its coordinator, whose result it is",
      );
  }
}

export type ParsedRun = { help: true } | ({ help: false } & (RunCommand | PresetRequest));

export function parseRunArgs(argv: readonly string[], io: FileIo): ParsedRun {
  const flags = parseRunFlags(argv);
  const { values: v, positionals } = flags;
  if (v.help) return { help: true };

  const output = outputFromFlags(v, io);
  const history = historyFromFlags(v, io);
  const metrics = metricsOutFromFlags(v);
  const shard = shardFromFlags(v, Date.now());
  if (shard && shard.start.kind !== 'at') refuseOutputs(v);
  const distributed = distributedFromFlags(v);
  if (v.preset !== undefined) {
    if (v.scenario !== undefined)
      throw new CliInputError('--preset', 'give either --preset or --scenario, not both');
    if (v.preset.trim() === '') throw new CliInputError('--preset', 'is empty');
    return {
      help: false,
      kind: 'preset',
      ref: v.preset,
      output,
      history,
      metrics,
      shard,
      distributed,
      flags,
    };
  }
  for (const [key, flag] of [...COMPARISON_ONLY, ['target', '--target'] as const]) {
    if (v[key] !== undefined) throw new CliInputError(flag, 'goes with --preset');
  }
  const base = v.scenario === undefined ? null : readScenarioFile(v.scenario, io);
  if (!base && positionals.length === 0 && v.targets === undefined) {
    throw new CliInputError(
      '<url>',
      'give at least one target URL, or --targets FILE, or --scenario file.json, or --preset',
    );
  }
  const scenario = scenarioFromFlags(flags, base, io, v.scenario === undefined ? '' : '--scenario');
  return { help: false, kind: 'run', scenario, output, history, metrics, shard, distributed, notes: [] };
}
