/**
 * A comparison preset's plan with `trebuchet run`'s flags applied: --levels, --repetitions,
 * --pause, the load's limit and the targets' request. Flags a comparison sets per cell or
 * level are refused with what to use instead.
 */
import { comparisonPlanSchema, type ComparisonPlan } from '../../../shared/comparison/plan.ts';
import type { Load } from '../../../shared/model/scenario.ts';
import { parseWith } from '../../../shared/model/validation.ts';
import type { FileIo } from '../files.ts';
import { checkInputFiles, optionsFromFlags, overrideRequest, requestFlags } from '../flag-overrides.ts';
import { pointPlanTargets } from '../presets/targets.ts';
import {
  closedLimit,
  flagIssue,
  limitFlags,
  secondsFlag,
  targetPointers,
  wholeNumberFlag,
  type RunFlags,
  type Values,
} from './flags.ts';
import { CliInputError } from '../values.ts';

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

export function planFromPreset(
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
  if (!parsed.ok) throw flagIssue(parsed.issues[0]!, flags, '--preset');
  checkInputFiles(parsed.value, io, '--preset');
  return { plan: parsed.value, notes: pointed.notes };
}
