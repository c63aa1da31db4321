/** Shard results of one plan, as `trebuchet run --shard` writes them, for tests of what merges them. */
import type { RunResult } from '../../shared/model/result.ts';
import { runResultSchema } from '../../shared/model/result.ts';
import type { ShardResult } from '../../shared/shards/combine.ts';
import type { ShardReport } from '../../shared/model/shard-facts.ts';
import { encodeHistogram, newHistogram } from '../../electron/engine/recording/histogram.ts';
import { EMPTY_BUCKETS } from './buckets.ts';
import { runResultFixture, sampleFixture } from './run-result.ts';

/** Latencies (us) over many buckets, a heavy tail. */
export function latencyValues(n: number, seed: number): number[] {
  let x = seed;
  return Array.from({ length: n }, () => {
    x = (x * 1_103_515_245 + 12_345) % 2 ** 31;
    return Math.max(1, Math.round((x / 2 ** 31) ** 6 * 2_000_000));
  });
}

export function shardReportOf(vs: readonly number[]): ShardReport {
  const h = newHistogram();
  for (const v of vs) h.recordValue(v);
  const n = vs.length;
  return {
    counts: {
      requests: {
        total: n,
        responses: n,
        ok: n,
        non2xx: 0,
        errors: 0,
        sloExceeded: 0,
        lengthMismatch: 0,
        unsolicited: 0,
        inFlightAtEnd: 0,
        late: 0,
      },
      sent: n,
      dropped: 0,
      bytes: { inTotal: n * 100, inBody: n * 5, outBody: 0, outTotal: n * 40 },
      statusCodes: { '200': n },
      errors: [],
      serverSoftware: 'nginx',
      documentLength: 5,
    },
    histogram: encodeHistogram(h),
    latencyRange: { minNonZero: h.minNonZeroValue, max: h.maxValue },
    lateness: EMPTY_BUCKETS,
    corrected: null,
    phases: null,
    stages: null,
    tls: null,
    httpVersion: '1.1',
    attackSeconds: null,
    waitSeconds: null,
    warnings: [],
  };
}

export const SHARD_START = Date.parse('2026-12-02T10:00:00Z');

/** Shard i of n of one plan, its load having begun offsetMs after T, its samples 1 s apart. */
export function shardResultFixture(
  i: number,
  n: number,
  vs: readonly number[],
  offsetMs: number,
  over: Partial<RunResult> = {},
) {
  const base = runResultFixture();
  const perSecond = Math.floor(vs.length / 2);
  const result: RunResult = {
    ...base,
    requests: { ...base.requests, total: vs.length, responses: vs.length, ok: vs.length, non2xx: 0 },
    statusCodes: { '200': vs.length },
    durationSeconds: 2,
    samples: [
      sampleFixture({
        seq: 0,
        elapsedSeconds: 1,
        requests: perSecond,
        totalRequests: perSecond,
        cpuPercent: 40,
      }),
      sampleFixture({
        seq: 1,
        elapsedSeconds: 2,
        requests: vs.length - perSecond,
        totalRequests: vs.length,
        cpuPercent: 60,
        final: true,
      }),
    ],
    shard: {
      index: i,
      count: n,
      planId: 'plan-a',
      planLoad: base.load,
      clock: {
        startAt: new Date(SHARD_START).toISOString(),
        startOffsetMs: offsetMs,
        host: `gen-${i}`,
        cores: 4,
      },
      gridStartAt: SHARD_START,
      report: shardReportOf(vs),
    },
    ...over,
  };
  return runResultSchema.parse(result) as ShardResult;
}
