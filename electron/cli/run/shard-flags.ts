/**
 * `trebuchet run --shard i/N`: one machine's shard of a plan split across machines
 * (shared/shards/plan.ts, the split the engine's workers use), counted from 1 as Playwright,
 * Jest and Vitest count theirs (1/3 ... 3/3). It starts at a wall-clock time (`--start-at T`,
 * machines started by hand) or when a coordinator says (`--start-on stdin`, a local process;
 * `--start-on job/NAME`, a Kubernetes pod watching its Job). The flags' text is read here; the
 * plan's split and id in placementFor.
 */
import { loadCrypto } from '../../engine/builtins.ts';
import type { Scenario } from '../../../shared/model/scenario.ts';
import { splitLoad, usableWorkers } from '../../../shared/shards/plan.ts';
import { rfc3339Ms } from '../../../shared/shards/start-time.ts';
import type { SpecPlacement } from '../../engine/types.ts';
import { CliInputError } from '../values.ts';

/** A start this far past is refused: the shards told it would not start together. */
export const STALE_START_MS = 1000;
/** A start further ahead than this is taken for a typo. */
const FURTHEST_START_MS = 24 * 3600 * 1000;

/** Where a shard's start comes from. */
export type ShardStart =
  /** --start-at T: the common start, epoch ms. */
  | { kind: 'at'; at: number }
  /** --start-on stdin: its coordinator's messages on stdin (a local process). */
  | { kind: 'stdin' }
  /** --start-on job/NAME: the Job's trebuchet.dev/go annotation (a pod). */
  | { kind: 'job'; job: string };

export interface ShardRequest {
  /** 0-based, as the split and a shard's result hold it (the flag's i less one). */
  index: number;
  count: number;
  start: ShardStart;
  /** --ready-file: written once the shard is ready for its coordinator's go (a pod's readiness probe). */
  readyFile: string | null;
}

/** --start-at's text as epoch ms; refused when more than STALE_START_MS past at `now`. */
export function parseStartAt(text: string, now: number): number {
  const at = rfc3339Ms(text);
  if (at === null) {
    throw new CliInputError('--start-at', `"${text}" is not an RFC 3339 time (e.g. 2026-12-02T10:00:00Z)`);
  }
  if (at < now - STALE_START_MS) {
    throw new CliInputError(
      '--start-at',
      `${text} is ${((now - at) / 1000).toFixed(1)} s past: give a start still ahead (shards told a start already gone would not start together)`,
    );
  }
  if (at > now + FURTHEST_START_MS) throw new CliInputError('--start-at', `${text} is more than a day ahead`);
  return at;
}

/** --shard's "i/N", 1 <= i <= N, as the 0-based index and the count. */
export function parseShard(text: string): { index: number; count: number } {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  const i = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (m && i === 0 && count >= 1) {
    throw new CliInputError('--shard', `"${text}": the count starts at 1 (1/${count} ... ${count}/${count})`);
  }
  if (!m || count < 1 || i > count) {
    throw new CliInputError('--shard', `"${text}" is not i/N with 1 <= i <= N (e.g. 1/3, 2/3, 3/3)`);
  }
  return { index: i - 1, count };
}

/** A Job's name (a DNS-1123 label) in --start-on job/NAME. */
const JOB_NAME = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

function parseStartOn(text: string): ShardStart {
  const t = text.trim();
  if (t === 'stdin') return { kind: 'stdin' };
  const job = /^job\/(.+)$/.exec(t)?.[1];
  if (job !== undefined && JOB_NAME.test(job)) return { kind: 'job', job };
  throw new CliInputError(
    '--start-on',
    `"${text}" is not stdin or job/NAME (a Job's name: lower case, digits, -)`,
  );
}

/** --shard with --start-at or --start-on (and --ready-file); null when none is given. */
export function shardFromFlags(
  v: { shard?: string; 'start-at'?: string; 'start-on'?: string; 'ready-file'?: string },
  now: number,
): ShardRequest | null {
  if (v.shard === undefined) {
    for (const flag of ['start-at', 'start-on', 'ready-file'] as const) {
      if (v[flag] !== undefined)
        throw new CliInputError(`--${flag}`, 'goes with --shard i/N (a shard of a plan)');
    }
    return null;
  }
  const place = parseShard(v.shard);
  if (v['start-at'] !== undefined && v['start-on'] !== undefined)
    throw new CliInputError(
      '--start-on',
      'give either --start-at (a time) or --start-on (a coordinator), not both',
    );
  if (v['start-at'] === undefined && v['start-on'] === undefined) {
    throw new CliInputError(
      '--shard',
      'needs --start-at <RFC 3339 time>, the same for every shard (or --start-on stdin|job/NAME, for a coordinator)',
    );
  }
  if (v['ready-file'] !== undefined && v['start-on'] === undefined)
    throw new CliInputError('--ready-file', 'goes with --start-on (a shard waiting for its go)');
  const readyFile = v['ready-file']?.trim() || null;
  if (v['start-at'] !== undefined)
    return { ...place, start: { kind: 'at', at: parseStartAt(v['start-at'], now) }, readyFile };
  return { ...place, start: parseStartOn(v['start-on']!), readyFile };
}

/** Object keys sorted at every depth, so equal plans give equal text whatever their key order. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
  );
}

/**
 * The plan's id: a hash of what every shard must agree on (target, load, options but the
 * engine workers, which each machine picks for its cores, and the shard count).
 */
export function planIdOf(scenario: Scenario, count: number): string {
  const { workers: _own, ...options } = scenario.options;
  const text = JSON.stringify(canonical({ targets: scenario.targets, load: scenario.load, options, count }));
  return loadCrypto().createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/**
 * The scenario this machine runs (its share of the load) and its placement in the plan;
 * refused when the plan has other than one target or cannot make N shards with load.
 */
export interface Placed {
  scenario: Scenario;
  placement: SpecPlacement;
}

export function placementFor(scenario: Scenario, request: ShardRequest): Placed {
  if (scenario.targets.length !== 1) {
    throw new CliInputError(
      '--shard',
      `a shard runs one target; the scenario has ${scenario.targets.length}`,
    );
  }
  const most = usableWorkers(scenario.load, request.count);
  if (most < request.count) {
    throw new CliInputError(
      '--shard',
      `this load splits into at most ${most} shard(s) with load each (connections, requests or rate), not ${request.count}`,
    );
  }
  const shard = splitLoad(scenario.load, request.count)[request.index]!;
  return {
    scenario: { ...scenario, load: shard.load },
    placement: {
      shard: {
        index: shard.index,
        count: shard.count,
        offsetMs: shard.offsetMs,
        arrivalPhase: shard.arrivalPhase,
      },
      planId: planIdOf(scenario, request.count),
      planLoad: scenario.load,
      ...(request.start.kind === 'at' ? { startAt: request.start.at } : {}),
    },
  };
}
