import { describe, expect, it } from 'vitest';
import { loadSchema, runOptionsSchema, type Load } from '../../shared/model/scenario.ts';
import {
  evenShares,
  placeWithin,
  requestedWorkers,
  splitLoad,
  usableWorkers,
  type Shard,
} from '../../shared/shards/plan.ts';
import type { Stage } from '../../shared/model/stages.ts';
import { describeIssues, parseWith } from '../../shared/model/validation.ts';
import { fixedRateSchedule, stagedSchedule } from '../../electron/engine/native/drivers/open-schedule.ts';

const closed = (over: object = {}): Load => loadSchema.parse({ model: 'closed', ...over });
const open = (over: object = {}): Load => loadSchema.parse({ model: 'open', ...over });

/**
 * The send times (ms after the common start) of a shard's schedule, as the open driver takes
 * them from it: request j at offset + its due time, every one due before the duration's end.
 */
function sendTimes(shard: Shard, durationMs: number): number[] {
  const schedule = fixedRateSchedule(shard.load.rate!);
  const total = schedule.countBefore(durationMs - shard.offsetMs);
  return Array.from({ length: total }, (_, j) => shard.offsetMs + schedule.dueAt(j));
}

describe('worker count', () => {
  it("'auto' leaves a core to a server on the same machine, and is at least 1", () => {
    expect(requestedWorkers('auto', { cores: 2, sameMachine: true })).toBe(1);
    expect(requestedWorkers('auto', { cores: 8, sameMachine: true })).toBe(7);
    expect(requestedWorkers('auto', { cores: 8, sameMachine: false })).toBe(8);
    expect(requestedWorkers('auto', { cores: 1, sameMachine: true })).toBe(1);
    expect(requestedWorkers(3, { cores: 1, sameMachine: true })).toBe(3);
  });

  it('never leaves a shard without connections, slots, requests or 1 req/s', () => {
    expect(usableWorkers(closed({ connections: 2 }), 4)).toBe(2);
    expect(usableWorkers(closed({ connections: 10, limit: { kind: 'requests', count: 3 } }), 8)).toBe(3);
    expect(usableWorkers(open({ rate: 1000, maxInFlight: 2 }), 4)).toBe(2);
    expect(usableWorkers(open({ rate: 1.5 }), 4)).toBe(1);
    expect(usableWorkers(closed({ connections: 100, rate: 3 }), 4)).toBe(3);
    expect(usableWorkers(closed({ connections: 100 }), 4)).toBe(4);
  });

  it('splits a staged load across workers, never leaving a shard without a connection or a request', () => {
    const stages = [
      { durationSeconds: 2, target: 200 },
      { durationSeconds: 2, target: 200 },
    ];
    expect(usableWorkers(open({ rate: 200, stages }), 4)).toBe(4);
    expect(usableWorkers(closed({ connections: 100, stages }), 4)).toBe(4);
    expect(splitLoad(open({ rate: 200, stages }), 4)).toHaveLength(4);
    // The peak target, not the unused connections field, caps a closed plan; a plan of 3
    // planned requests gives at most 3 shards of one each.
    const small = [{ durationSeconds: 2, target: 3 }];
    expect(usableWorkers(closed({ connections: 100, stages: small }), 8)).toBe(3);
    expect(usableWorkers(closed({ connections: 1, stages }), 8)).toBe(8);
    expect(usableWorkers(open({ maxInFlight: 100, stages: [{ durationSeconds: 1, target: 6 }] }), 8)).toBe(3);
  });

  it('is a scenario option: auto by default, a whole number from 1 to 256', () => {
    expect(runOptionsSchema.parse({}).workers).toBe('auto');
    expect(runOptionsSchema.parse({ workers: 4 }).workers).toBe(4);
    for (const bad of [0, 2.5, 257, 'many']) {
      const r = parseWith(runOptionsSchema, { workers: bad });
      expect(r.ok).toBe(false);
      if (!r.ok) expect(describeIssues(r.issues)).toMatch(/^workers: workers must be/);
    }
  });
});

describe('splitting a load into shards', () => {
  it('splits connections as evenly as they go, larger shares first', () => {
    expect(evenShares(10, 3)).toEqual([4, 3, 3]);
    const shards = splitLoad(closed({ connections: 10 }), 3);
    expect(shards.map((s) => s.load.model === 'closed' && s.load.connections)).toEqual([4, 3, 3]);
    expect(shards.map((s) => [s.index, s.count, s.offsetMs])).toEqual([
      [0, 3, 0],
      [1, 3, 0],
      [2, 3, 0],
    ]);
    // A duration is every shard's: each runs for the whole of it.
    for (const s of shards)
      expect(s.load.model === 'closed' && s.load.limit).toEqual({ kind: 'duration', seconds: 10 });
  });

  it('splits a request count exactly: -n 1000 -t 3 sends 1000', () => {
    const shards = splitLoad(closed({ connections: 10, limit: { kind: 'requests', count: 1000 } }), 3);
    const counts = shards.map((s) =>
      s.load.model === 'closed' && s.load.limit.kind === 'requests' ? s.load.limit.count : 0,
    );
    expect(counts).toEqual([334, 333, 333]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(1000);
  });

  it('keeps one worker the load as it is', () => {
    const load = open({ rate: 20_000, maxInFlight: 500 });
    expect(splitLoad(load, 1)).toEqual([{ index: 0, count: 1, offsetMs: 0, arrivalPhase: 0, load }]);
  });

  it('interleaves the shards of a rate so the merged sends are the one-worker schedule', () => {
    for (const [rate, workers, durationMs] of [
      [1000, 2, 2000],
      [1000, 3, 1000],
      [333, 4, 1500],
      [7, 2, 1000],
    ] as const) {
      const shards = splitLoad(open({ rate, maxInFlight: 100, durationSeconds: durationMs / 1000 }), workers);
      expect(shards).toHaveLength(workers);
      expect(shards.reduce((a, s) => a + s.load.rate!, 0)).toBeCloseTo(rate, 9);
      const merged = shards.flatMap((s) => sendTimes(s, durationMs)).sort((a, b) => a - b);
      const interval = 1000 / rate;
      // As many as one worker sends, each at its own time: gaps all equal to the interval.
      expect(merged).toHaveLength(Math.ceil((durationMs * rate) / 1000 - 1e-9));
      merged.forEach((t, i) => expect(t).toBeCloseTo(i * interval, 6));
    }
  });

  it('splits the in-flight cap of an open load and the rate cap of a closed one', () => {
    const o = splitLoad(open({ rate: 900, maxInFlight: 1001 }), 2);
    expect(o.map((s) => s.load.model === 'open' && [s.load.rate, s.load.maxInFlight, s.offsetMs])).toEqual([
      [450, 501, 0],
      [450, 500, 1000 / 900],
    ]);
    const c = splitLoad(closed({ connections: 4, rate: 100 }), 2);
    expect(c.map((s) => [s.load.rate, s.offsetMs])).toEqual([
      [50, 0],
      [50, 10],
    ]);
  });

  it("splits each stage's connections exactly, with the same stage times in every shard", () => {
    const stages = [
      { durationSeconds: 1, target: 10 },
      { durationSeconds: 2, target: 7 },
      { durationSeconds: 0, target: 1 },
      { durationSeconds: 1.5, target: 0 },
    ];
    for (const workers of [2, 3, 4]) {
      const shards = splitLoad(closed({ connections: 1, rate: 90, stages }), workers);
      expect(shards).toHaveLength(workers);
      for (const [i, stage] of stages.entries()) {
        const targets = shards.map((s) => s.load.stages![i]!);
        expect(targets.every((t) => t.durationSeconds === stage.durationSeconds)).toBe(true);
        expect(targets.reduce((a, t) => a + t.target, 0)).toBe(stage.target);
        expect(
          Math.max(...targets.map((t) => t.target)) - Math.min(...targets.map((t) => t.target)),
        ).toBeLessThanOrEqual(1);
      }
      // The rate cap is split as an unstaged closed load's is; the stage plan has no phase.
      expect(shards.map((s) => [s.load.rate, s.arrivalPhase])).toEqual(shards.map(() => [90 / workers, 0]));
      for (const s of shards) expect(loadSchema.safeParse(s.load).success).toBe(true);
    }
    expect(splitLoad(closed({ stages }), 3).map((s) => s.load.stages!.map((t) => t.target))).toEqual([
      [4, 3, 1, 0],
      [3, 2, 0, 0],
      [3, 2, 0, 0],
    ]);
  });

  it("splits each stage's rate evenly and interleaves the shards' arrivals into the one-worker plan's, ramps included", () => {
    const stages = [
      { durationSeconds: 2, target: 200 },
      { durationSeconds: 1, target: 200 },
      { durationSeconds: 1.5, target: 35 },
      { durationSeconds: 0, target: 90 },
      { durationSeconds: 1, target: 90 },
    ];
    const times = (plan: readonly Stage[], phase: number): number[] => {
      const schedule = stagedSchedule(plan, phase);
      const out: number[] = [];
      for (let k = 0; Number.isFinite(schedule.dueAt(k)); k++) out.push(schedule.dueAt(k));
      return out;
    };
    const one = times(stages, 0);
    for (const workers of [2, 3, 4]) {
      const shards = splitLoad(open({ maxInFlight: 101, stages }), workers);
      expect(shards).toHaveLength(workers);
      for (const [i, stage] of stages.entries()) {
        const parts = shards.map((s) => s.load.stages![i]!);
        expect(parts.every((p) => p.durationSeconds === stage.durationSeconds)).toBe(true);
        expect(parts.reduce((a, p) => a + p.target, 0)).toBeCloseTo(stage.target, 9);
      }
      // No time offset (the stage boundaries are every shard's), a phase of index/count instead.
      expect(shards.map((s) => [s.offsetMs, s.arrivalPhase])).toEqual(shards.map((_, k) => [0, k / workers]));
      // Request i of the merged plan is request floor(i/n) of shard i mod n, at the one-worker time.
      const perShard = shards.map((s) => times(s.load.stages!, s.arrivalPhase));
      expect(perShard.reduce((a, t) => a + t.length, 0)).toBe(one.length);
      one.forEach((t, i) => expect(perShard[i % workers]![Math.floor(i / workers)]).toBeCloseTo(t, 6));
      // Each shard's schedule answers "how many are due by t" as its due times say.
      shards.forEach((s, k) => {
        const schedule = stagedSchedule(s.load.stages!, s.arrivalPhase);
        for (const ms of [0, 1, 700, 2000, 3333, 5500]) {
          expect(schedule.dueBy(ms)).toBe(perShard[k]!.filter((t) => t <= ms + 1e-6).length);
        }
      });
      for (const s of shards) expect(loadSchema.safeParse(s.load).success).toBe(true);
    }
  });

  it('gives shards that are valid loads of their own', () => {
    for (const s of splitLoad(
      closed({ connections: 7, limit: { kind: 'requests', count: 5 }, rate: 2.5 }),
      8,
    )) {
      expect(loadSchema.safeParse(s.load).success).toBe(true);
    }
  });
});

describe("a machine's shard split again into its workers (placeWithin)", () => {
  it('interleaves every worker of every machine into the one-worker schedule of a rate', () => {
    const load = open({ rate: 600, durationSeconds: 2, maxInFlight: 120 });
    const one = sendTimes(splitLoad(load, 1)[0]!, 2000);
    expect(one).toHaveLength(1200);
    for (const [machines, workers] of [
      [2, 3],
      [3, 2],
      [3, 1],
    ] as const) {
      const all = splitLoad(load, machines).flatMap((machine) =>
        placeWithin(machine, splitLoad(machine.load, workers)).flatMap((w) => sendTimes(w, 2000)),
      );
      all.sort((a, b) => a - b);
      expect(all).toHaveLength(1200);
      all.forEach((t, i) => expect(t).toBeCloseTo(one[i]!, 6));
    }
  });

  it('places a staged open load’s arrivals of every worker of every machine into the plan’s', () => {
    const stages: Stage[] = [
      { durationSeconds: 2, target: 60 },
      { durationSeconds: 1, target: 30 },
    ];
    const times = (plan: readonly Stage[], phase: number): number[] => {
      const schedule = stagedSchedule(plan, phase);
      const out: number[] = [];
      for (let k = 0; Number.isFinite(schedule.dueAt(k)); k++) out.push(schedule.dueAt(k));
      return out;
    };
    const one = times(stages, 0);
    const load = open({ maxInFlight: 60, stages });
    const all = splitLoad(load, 3).flatMap((machine) =>
      placeWithin(machine, splitLoad(machine.load, 2)).flatMap((w) => times(w.load.stages!, w.arrivalPhase)),
    );
    all.sort((a, b) => a - b);
    expect(all).toHaveLength(one.length);
    all.forEach((t, i) => expect(t).toBeCloseTo(one[i]!, 6));
  });
});
