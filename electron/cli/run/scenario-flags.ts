/**
 * A scenario from `trebuchet run`'s flags over a base: a scenario file, a scenario preset, or
 * none. Flags set what they name; the rest comes from the base, else from the schema's
 * defaults (shared/model/defaults.ts), so nothing here repeats a default.
 */
import { dirname, resolve } from 'node:path';
import {
  SCENARIO_VERSION,
  scenarioSchema,
  type Load,
  type LoadInput,
  type Scenario,
} from '../../../shared/model/scenario.ts';
import { describeIssues, newerVersionIssue, parseWith, type Parsed } from '../../../shared/model/validation.ts';
import { pathsRelativeTo, readJsonFile, type FileIo } from '../files.ts';
import {
  checkInputFiles,
  newTargetFields,
  optionsFromFlags,
  overrideRequest,
  requestFlags,
} from '../flag-overrides.ts';
import {
  closedLimit,
  flagIssue,
  limitFlags,
  wholeNumberFlag,
  type RunFlags,
  type Values,
} from './flags.ts';
import { stagesFromFlags } from './stages-flag.ts';
import { targetsFromFlags } from './targets-flags.ts';
import { CliInputError, parseRate } from '../values.ts';

/** `--scenario file.json`, validated, its relative paths taken from the file's folder. */
export function readScenarioFile(path: string, io: FileIo): Scenario {
  const file = resolve(io.cwd, path);
  const input = readJsonFile('--scenario', file, io);
  const newer = newerVersionIssue(input, 'scenario file', SCENARIO_VERSION);
  const parsed: Parsed<Scenario> = newer ? { ok: false, issues: [newer] } : parseWith(scenarioSchema, input);
  if (!parsed.ok) {
    // Every issue, the first after the flag: three typos are fixed in one go, not three runs.
    const [first, ...rest] = parsed.issues;
    const more = rest.length > 0 ? `; ${describeIssues(rest)}` : '';
    throw new CliInputError(`--scenario ${first!.path || '(root)'}`, `${first!.message}${more}`);
  }
  return { ...parsed.value, ...pathsRelativeTo(dirname(file), parsed.value) };
}

/** The load model and its figures: --rate without --closed is the open model, as in vegeta. */
function loadFromFlags(v: Values, base: Load | null): LoadInput {
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
      rate: rate ?? b?.rate,
      durationSeconds: seconds ?? b?.durationSeconds,
      maxInFlight: maxInFlight ?? b?.maxInFlight,
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
    connections: connections ?? b?.connections,
    pipelining: pipelining ?? b?.pipelining,
    limit: closedLimit(limit, b?.limit),
    rate: rate ?? b?.rate,
  };
}

/**
 * A scenario from flags over a base (a scenario file or preset, or none). URLs given here
 * (`flags.positionals`) are new targets that replace the base's; otherwise the base's targets
 * take -m, -H, --body.
 */
export function scenarioFromFlags(
  flags: RunFlags,
  base: Scenario | null,
  io: FileIo,
  what: string,
): Scenario {
  const { values: v, positionals } = flags;
  const request = requestFlags(v, io);
  const targets = (base ? base.targets : []).map((t) => overrideRequest(t, request));
  const list = targetsFromFlags(v, io.cwd, (p) => io.readTargets(p));
  if (list && positionals.length > 0)
    throw new CliInputError('--targets', 'give URLs or --targets, not both');
  if (list && request.method !== undefined)
    throw new CliInputError('--method', 'a list of requests takes each method from its --targets file');
  const fromUrls = list
    ? [{ ...list, ...newTargetFields(request) }]
    : positionals.map((url) => ({ url, ...newTargetFields(request) }));
  const o = base?.options;
  const input = {
    version: base?.version,
    name: v.name ?? base?.name,
    targets: positionals.length > 0 || list ? fromUrls : targets,
    load: loadFromFlags(v, base?.load ?? null),
    options: {
      ...optionsFromFlags(v, o, io),
      protocol: v.http2 === undefined ? o?.protocol : v.http2 ? 'h2' : 'http1.1',
    },
  };
  const parsed = parseWith(scenarioSchema, input);
  if (!parsed.ok) throw flagIssue(parsed.issues[0]!, flags, what);
  checkInputFiles(parsed.value, io, what);
  return parsed.value;
}
