/**
 * The coordinator at scale (issue 35): 100 process links, each a scripted shard
 * (test/helpers/scripted-shard.js: a real process speaking the engine's shard messages over its
 * pipes, no load sent), started together once all are ready and merged live. Every place holds
 * every link's window, once; the totals add up; the run's percentiles are those of every value
 * recorded (two kinds of shard, fast and slow: the run's p99 is neither kind's). What this costs
 * the coordinator per tick per link is measured by test/bench/shards-scale.ts.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Sample } from '../../shared/model/result.ts';
import { scenarioSchema } from '../../shared/model/scenario.ts';
import { REPORT_PERCENTILES } from '../../shared/model/defaults.ts';
import { latencyStats } from '../../electron/engine/recording/histogram.ts';
import { shardedTarget } from '../../electron/jobs/sharded-target.ts';
import { scriptedShards } from '../helpers/shard-script.ts';

const LINKS = 100;
const SECONDS = 3;
const dir = mkdtempSync(join(tmpdir(), 'trebuchet-scale-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the coordinator over 100 process links', () => {
  it("merges every link's windows live: each place once, with all of them; the totals and percentiles of every value", async () => {
    const script = scriptedShards(SECONDS);
    writeFileSync(join(dir, 'script.json'), JSON.stringify(script.script));
    const scenario = scenarioSchema.parse({
      targets: [{ url: 'http://127.0.0.1:9/', monitor: { kind: 'off' } }],
      load: { model: 'closed', connections: LINKS, limit: { kind: 'duration', seconds: SECONDS } },
    });
    const samples: Sample[] = [];
    const target = shardedTarget(
      { count: LINKS, readyTimeoutSeconds: 600, kubernetes: null },
      {
        processCommand: [
          process.execPath,
          resolve(import.meta.dirname, '../helpers/scripted-shard.js'),
          join(dir, 'script.json'),
        ],
        // What is measured is the merge: a hundred processes on a busy machine may stall for seconds.
        processSilenceMs: 600_000,
      },
    );
    const run = target(
      scenario,
      0,
      {
        started: () => undefined,
        sample: (s) => samples.push(s),
        reading: () => undefined,
        machine: () => undefined,
      },
      { runId: 'scale', appVersion: '0.0.0-test' },
    );
    const result = (await run.done)!;
    expect(result.status, result.error?.message).toBe('completed');
    expect(result.shards).toHaveLength(LINKS);
    // One Sample a place, each holding every link's window of it.
    const perTick = (LINKS / 2) * (script.windowRequests[0]! + script.windowRequests[1]!);
    expect(samples.map((s) => s.seq)).toEqual([0, 1, 2]);
    expect(samples.map((s) => s.requests)).toEqual([perTick, perTick, perTick]);
    expect(result.requests.total).toBe(SECONDS * perTick);

    // Every value in one histogram: the run's percentiles are theirs, exactly.
    const expected = latencyStats(script.union(LINKS), REPORT_PERCENTILES)!;
    for (const p of ['50', '90', '99', '99.9'])
      expect(result.latency!.percentiles[p]).toBe(expected.percentiles[p]);
    expect(result.latency!.percentiles['99']).not.toBe(script.kindP99[0]);
    expect(result.latency!.percentiles['99']).not.toBe(script.kindP99[1]);
    expect(result.generator.coordinatorCpuSeconds).toBeGreaterThan(0);
  }, 600_000);
});
