/**
 * `--stages 30s:100,1m:1000,30s:0`: a staged load (shared/model/stages.ts). The targets are
 * connections in the closed model (the default) and req/s with --open; the stages set the
 * run's length, so the flags that set the level or the length are refused beside them.
 */
import { DEFAULTS } from '../../../shared/model/defaults.ts';
import type { Load } from '../../../shared/model/scenario.ts';
import { parseStagesText } from '../../../shared/model/stages.ts';
import { CliInputError } from '../values.ts';

/** The level and length flags a run was given (undefined or null when not given). */
export interface LevelFlags {
  connections: number | undefined;
  requests: number | undefined;
  seconds: number | undefined;
  rate: number | null;
  pipelining: number | undefined;
  maxInFlight: number | undefined;
  closed: boolean;
  open: boolean;
}

/**
 * The staged load the flags ask for: `--stages`, or a staged base scenario's stages when no
 * flag sets the level or the length; null for a fixed level.
 */
export function stagesFromFlags(text: string | undefined, flags: LevelFlags, base: Load | null): Load | null {
  if (text !== undefined) return stagedLoad(text, flags, base);
  if (flags.open) throw new CliInputError('--open', 'goes with --stages (--rate alone runs the open model)');
  if (!base?.stages) return null;
  const otherModel = base.model === 'open' ? flags.pipelining : flags.maxInFlight;
  const level = [flags.connections, flags.requests, flags.seconds, flags.rate ?? undefined, otherModel];
  if ((flags.closed && base.model === 'open') || level.some((f) => f !== undefined)) return null;
  return base.model === 'open'
    ? { ...base, maxInFlight: flags.maxInFlight ?? base.maxInFlight }
    : { ...base, pipelining: flags.pipelining ?? base.pipelining };
}

/** The staged load `--stages text` asks for, on the base scenario's model unless --open or --closed says. */
function stagedLoad(text: string, flags: LevelFlags, base: Load | null): Load {
  const parsed = parseStagesText(text);
  if (!parsed.ok) throw new CliInputError('--stages', parsed.message);
  if (flags.open && flags.closed)
    throw new CliInputError('--open', 'give either --open or --closed, not both');
  const open = flags.open || (!flags.closed && base?.model === 'open');
  const clashes: [string, unknown][] = [
    ['--connections', flags.connections],
    ['--requests', flags.requests],
    ['--duration', flags.seconds],
    ['--rate', flags.rate ?? undefined],
    [open ? '--pipelining' : '--max-in-flight', open ? flags.pipelining : flags.maxInFlight],
  ];
  const clash = clashes.find(([, value]) => value !== undefined)?.[0];
  if (clash) {
    const sets = open ? 'the rate (req/s) and the length' : 'the connections and the length';
    throw new CliInputError(clash, `cannot be given with --stages: the stages set ${sets} of the run`);
  }
  if (open) {
    const b = base?.model === 'open' ? base : null;
    return {
      model: 'open',
      rate: b?.rate ?? DEFAULTS.open.rate,
      durationSeconds: b?.durationSeconds ?? DEFAULTS.open.durationSeconds,
      maxInFlight: flags.maxInFlight ?? b?.maxInFlight ?? DEFAULTS.open.maxInFlight,
      stages: parsed.stages,
    };
  }
  const b = base?.model === 'closed' ? base : null;
  return {
    model: 'closed',
    connections: b?.connections ?? DEFAULTS.closed.connections,
    pipelining: flags.pipelining ?? b?.pipelining ?? DEFAULTS.closed.pipelining,
    limit: b?.limit ?? { kind: 'duration', seconds: DEFAULTS.closed.durationSeconds },
    rate: null,
    stages: parsed.stages,
  };
}
