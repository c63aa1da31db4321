import { describe, expect, it } from 'vitest';
import { scenarioSchema, type Scenario } from '../../shared/model/scenario.ts';
import {
  parseShard,
  parseStartAt,
  placementFor,
  planIdOf,
  shardFromFlags,
} from '../../electron/cli/run/shard-flags.ts';

const scenario = (over: object = {}): Scenario =>
  scenarioSchema.parse({
    targets: [{ url: 'http://127.0.0.1:8080/' }],
    load: { model: 'closed', connections: 4, limit: { kind: 'requests', count: 10 } },
    ...over,
  });

const NOW = Date.parse('2026-12-02T10:00:00Z');
const AT = { kind: 'at', at: NOW } as const;

describe('--shard i/N', () => {
  it('counts from 1, as Playwright, Jest and Vitest do: 1/3 is the first of three', () => {
    expect(parseShard('1/3')).toEqual({ index: 0, count: 3 });
    expect(parseShard(' 3/3 ')).toEqual({ index: 2, count: 3 });
    expect(parseShard('1/1')).toEqual({ index: 0, count: 1 });
  });

  it('refuses 0/N saying the count starts at 1', () => {
    expect(() => parseShard('0/3')).toThrow('--shard: "0/3": the count starts at 1 (1/3 ... 3/3)');
  });

  it('refuses an index outside 1..N or another shape, naming the flag', () => {
    for (const bad of ['4/3', '1/0', '-1/3', '1', 'a/b', '1/3/4', '']) {
      expect(() => parseShard(bad)).toThrow(`--shard: "${bad}" is not i/N with 1 <= i <= N`);
    }
  });
});

describe('--start-at', () => {
  it('reads RFC 3339 times, Z or an offset, fractions of a second', () => {
    expect(parseStartAt('2026-12-02T10:00:05Z', NOW)).toBe(NOW + 5000);
    expect(parseStartAt('2026-12-02T11:00:05.250+01:00', NOW)).toBe(NOW + 5250);
    // Less than a second past still starts (at once).
    expect(parseStartAt('2026-12-02T09:59:59.500Z', NOW)).toBe(NOW - 500);
  });

  it('refuses a time more than a second past, saying how far', () => {
    expect(() => parseStartAt('2026-12-02T09:59:58.500Z', NOW)).toThrow(
      '--start-at: 2026-12-02T09:59:58.500Z is 1.5 s past',
    );
  });

  it('refuses what is not RFC 3339, and a start more than a day ahead', () => {
    for (const bad of [
      'tomorrow',
      '2026-12-02T10:00Z',
      '2026-12-02',
      '1796170072000',
      '2026-12-02T10:00:00',
    ]) {
      expect(() => parseStartAt(bad, NOW)).toThrow(`--start-at: "${bad}" is not an RFC 3339 time`);
    }
    expect(() => parseStartAt('2026-12-03T10:00:01Z', NOW)).toThrow('is more than a day ahead');
  });

  it('goes with --shard, and --shard with it or with --start-on', () => {
    expect(shardFromFlags({}, NOW)).toBeNull();
    expect(shardFromFlags({ shard: '2/2', 'start-at': '2026-12-02T10:00:03Z' }, NOW)).toEqual({
      index: 1,
      count: 2,
      start: { kind: 'at', at: NOW + 3000 },
      readyFile: null,
    });
    expect(() => shardFromFlags({ 'start-at': '2026-12-02T10:00:03Z' }, NOW)).toThrow(
      '--start-at: goes with --shard',
    );
    expect(() => shardFromFlags({ shard: '1/2' }, NOW)).toThrow('--shard: needs --start-at');
  });
});

describe('--start-on', () => {
  it("waits for a coordinator's go on stdin, or on a Job's annotation, with a ready file", () => {
    expect(shardFromFlags({ shard: '1/2', 'start-on': 'stdin' }, NOW)).toEqual({
      index: 0,
      count: 2,
      start: { kind: 'stdin' },
      readyFile: null,
    });
    expect(
      shardFromFlags({ shard: '2/2', 'start-on': 'job/trebuchet-r1', 'ready-file': '/tmp/ready' }, NOW),
    ).toEqual({ index: 1, count: 2, start: { kind: 'job', job: 'trebuchet-r1' }, readyFile: '/tmp/ready' });
  });

  it('refuses another source, a start time beside it, a ready file without it', () => {
    expect(() => shardFromFlags({ shard: '1/2', 'start-on': 'job/Bad_Name' }, NOW)).toThrow(
      '--start-on: "job/Bad_Name" is not stdin or job/NAME',
    );
    expect(() => shardFromFlags({ shard: '1/2', 'start-on': 'now' }, NOW)).toThrow('--start-on: "now"');
    expect(() =>
      shardFromFlags({ shard: '1/2', 'start-on': 'stdin', 'start-at': '2026-12-02T10:00:03Z' }, NOW),
    ).toThrow('--start-on: give either --start-at (a time) or --start-on (a coordinator), not both');
    expect(() =>
      shardFromFlags({ shard: '1/2', 'start-at': '2026-12-02T10:00:03Z', 'ready-file': '/tmp/r' }, NOW),
    ).toThrow('--ready-file: goes with --start-on');
    expect(() => shardFromFlags({ 'start-on': 'stdin' }, NOW)).toThrow('--start-on: goes with --shard');
  });
});

describe("a shard's plan", () => {
  it('has one id whatever the key order or the machine’s worker count, another for another plan', () => {
    const a = scenario();
    const reordered = scenarioSchema.parse(
      JSON.parse(JSON.stringify({ options: a.options, load: a.load, targets: a.targets })),
    );
    expect(planIdOf(reordered, 3)).toBe(planIdOf(a, 3));
    expect(planIdOf({ ...a, options: { ...a.options, workers: 7 } }, 3)).toBe(planIdOf(a, 3));
    expect(planIdOf(a, 3)).toMatch(/^[0-9a-f]{16}$/);
    expect(planIdOf(a, 2)).not.toBe(planIdOf(a, 3));
    expect(planIdOf(scenario({ load: { model: 'closed', connections: 5 } }), 3)).not.toBe(planIdOf(a, 3));
  });

  it('runs its exact share: connections and -n split as the engine’s workers split them', () => {
    const shares = [0, 1, 2].map((index) =>
      placementFor(scenario(), { index, count: 3, start: AT, readyFile: null }),
    );
    expect(shares.map((s) => s.scenario.load)).toMatchObject([
      { connections: 2, limit: { kind: 'requests', count: 4 } },
      { connections: 1, limit: { kind: 'requests', count: 3 } },
      { connections: 1, limit: { kind: 'requests', count: 3 } },
    ]);
    expect(shares[2]!.placement).toMatchObject({
      shard: { index: 2, count: 3, offsetMs: 0, arrivalPhase: 0 },
      planId: planIdOf(scenario(), 3),
      planLoad: scenario().load,
      startAt: NOW,
    });
    // A rate: each its third, placed 1/600 s apart.
    const rate = scenario({ load: { model: 'open', rate: 600, durationSeconds: 2 } });
    const r1 = placementFor(rate, { index: 1, count: 3, start: AT, readyFile: null });
    expect(r1.scenario.load).toMatchObject({ model: 'open', rate: 200 });
    expect(r1.placement.shard.offsetMs).toBeCloseTo(1000 / 600, 9);
  });

  it('has no start time when its coordinator gives it', () => {
    const placed = placementFor(scenario(), {
      index: 1,
      count: 2,
      start: { kind: 'stdin' },
      readyFile: null,
    });
    expect(placed.placement.startAt).toBeUndefined();
    expect(placed.placement.shard).toMatchObject({ index: 1, count: 2 });
  });

  it('refuses more shards than the load can give load to, and a scenario of two targets', () => {
    expect(() => placementFor(scenario(), { index: 0, count: 5, start: AT, readyFile: null })).toThrow(
      '--shard: this load splits into at most 4 shard(s)',
    );
    const two = scenario({ targets: [{ url: 'http://127.0.0.1:1/' }, { url: 'http://127.0.0.1:2/' }] });
    expect(() => placementFor(two, { index: 0, count: 2, start: AT, readyFile: null })).toThrow(
      '--shard: a shard runs one target; the scenario has 2',
    );
  });
});
