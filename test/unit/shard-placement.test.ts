import { describe, expect, it } from 'vitest';
import { splitLoad } from '../../shared/shards/plan.ts';
import { CpuAccount } from '../../electron/engine/cpu.ts';
import { backendOf, inWorkerThread } from '../../electron/engine/shards/links.ts';
import type { RunSpec } from '../../electron/engine/types.ts';
import { oneTarget, runSpecFixture } from '../helpers/engine.ts';

/*
 * Where the engine worker runs a run's shards (shards/links.ts backendOf): a run with one
 * worker keeps its shard beside the coordinator, unless its sends are due on a schedule, whose
 * sending thread must not do the coordinator's work at each tick.
 */

const spec = (load: NonNullable<Parameters<typeof oneTarget>[1]>['load']): RunSpec =>
  runSpecFixture(oneTarget('http://127.0.0.1:9/', { load }));

const closed = spec({ model: 'closed', connections: 4, limit: { kind: 'requests', count: 100 } });
const open = spec({ model: 'open', rate: 100, durationSeconds: 1 });
const capped = spec({ model: 'closed', connections: 4, rate: 100, limit: { kind: 'duration', seconds: 1 } });

const placed = (s: RunSpec, workers: number) =>
  splitLoad(s.load, workers).map((shard) => backendOf(shard, s, [new CpuAccount()]));

describe("where the engine worker runs a run's shards", () => {
  it("keeps an unscheduled run's first shard in its own thread, so -n 1 starts no second thread", () => {
    const [only] = placed(closed, 1);
    expect(only).not.toBe(inWorkerThread);
    expect(only!.startMarginMs).toBe(0);
    const [first, second] = placed(closed, 2);
    expect(first).not.toBe(inWorkerThread);
    expect(second).toBe(inWorkerThread);
  });

  it("gives every shard of a scheduled run a thread away from the coordinator's, one worker or several", () => {
    for (const s of [open, capped]) {
      expect(placed(s, 1)).toEqual([inWorkerThread]);
      expect(placed(s, 2)).toEqual([inWorkerThread, inWorkerThread]);
    }
  });
});
