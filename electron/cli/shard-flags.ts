/**
 * `trebuchet run --shard i/N --start-at T`: one machine's shard of a plan split across
 * machines (shared/shards/plan.ts, the split the engine's workers use), started at a
 * wall-clock time. The flags' text is read here; the plan's split and id in placementFor.
 */
import { loadCrypto } from '../engine/builtins.ts';
import type { Scenario } from '../../shared/model/scenario.ts';
import { splitLoad, usableWorkers } from '../../shared/shards/plan.ts';
import type { SpecPlacement } from '../engine/types.ts';
import { CliInputError } from './values.ts';

/** A start this far past is refused: the shards told it would not start together. */
export const STALE_START_MS = 1000;
/** A start further ahead than this is taken for a typo. */
const FURTHEST_START_MS = 24 * 3600 * 1000;

export interface ShardRequest {
  /** 0-based, as a Kubernetes Indexed Job's JOB_COMPLETION_INDEX. */
  index: number;
  count: number;
  /** The common start, epoch ms. */
  startAt: number;
}

/** RFC 3339: a date, a time with seconds, an optional fraction, and Z or an offset. */
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** --start-at's text as epoch ms; refused when more than STALE_START_MS past at `now`. */
export function parseStartAt(text: string, now: number): number {
  const at = RFC3339.test(text.trim()) ? Date.parse(text.trim().replace(' ', 'T')) : NaN;
  if (Number.isNaN(at)) {
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

/** --shard's "i/N": 0 <= i < N. */
export function parseShard(text: string): { index: number; count: number } {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (!m || count < 1 || index >= count) {
    throw new CliInputError('--shard', `"${text}" is not i/N with 0 <= i < N (e.g. 0/3, 1/3, 2/3)`);
  }
  return { index, count };
}

/** --shard and --start-at, which go together; null when neither is given. */
export function shardFromFlags(v: { shard?: string; 'start-at'?: string }, now: number): ShardRequest | null {
  if (v.shard === undefined && v['start-at'] === undefined) return null;
  if (v.shard === undefined)
    throw new CliInputError('--start-at', 'goes with --shard i/N (a shard of a plan)');
  const place = parseShard(v.shard);
  if (v['start-at'] === undefined) {
    throw new CliInputError('--shard', 'needs --start-at <RFC 3339 time>, the same for every shard');
  }
  return { ...place, startAt: parseStartAt(v['start-at'], now) };
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
      startAt: request.startAt,
    },
  };
}
