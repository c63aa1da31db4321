import { describe, expect, it } from 'vitest';
import { REPORT_PERCENTILES } from '../../shared/model/defaults.ts';
import type { RunResult } from '../../shared/model/result.ts';
import { runResultSchema } from '../../shared/model/result.ts';
import { alignedSamples, shardSet, type ShardResult } from '../../shared/shards/combine.ts';
import type { ShardReport } from '../../shared/shards/merge.ts';
import { runVerdict } from '../../shared/verdict/verdict.ts';
import { formatTextReport } from '../../shared/format/report.ts';
import { runHtmlReport } from '../../shared/format/html-report.ts';
import {
  encodeHistogram,
  latencyStats,
  newHistogram,
  decodeHistogram,
} from '../../electron/engine/histogram.ts';
import { mergeShardResults } from '../../electron/engine/shards/merged-result.ts';
import { mergeReports } from '../../electron/engine/shards/results.ts';
import { EMPTY_BUCKETS } from '../helpers/buckets.ts';
import { runResultFixture, sampleFixture } from '../helpers/run-result.ts';

/** Latencies (us) over many buckets, a heavy tail. */
function values(n: number, seed: number): number[] {
  let x = seed;
  return Array.from({ length: n }, () => {
    x = (x * 1_103_515_245 + 12_345) % 2 ** 31;
    return Math.max(1, Math.round((x / 2 ** 31) ** 6 * 2_000_000));
  });
}

function reportOf(vs: readonly number[]): ShardReport {
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

const T = Date.parse('2026-12-02T10:00:00Z');

/** Shard i of n of one plan, its load having begun offsetMs after T, its samples 1 s apart. */
function shard(i: number, n: number, vs: readonly number[], offsetMs: number, over: Partial<RunResult> = {}) {
  const base = runResultFixture();
  const perSecond = Math.floor(vs.length / 2);
  const result: RunResult = {
    ...base,
    requests: { ...base.requests, total: vs.length, responses: vs.length, ok: vs.length, non2xx: 0 },
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
      clock: { startAt: new Date(T).toISOString(), startOffsetMs: offsetMs, host: `gen-${i}`, cores: 4 },
      gridStartAt: T,
      report: reportOf(vs),
    },
    ...over,
  };
  return runResultSchema.parse(result) as ShardResult;
}

const file = (result: RunResult, name: string) => ({ file: name, result });

describe('the shard files of one plan (shardSet)', () => {
  const parts = [0, 1, 2].map((i) => shard(i, 3, values(10, i + 1), 1));

  it('takes every shard once, in index order, whatever the files’ order', () => {
    const set = shardSet([file(parts[2]!, 'c.json'), file(parts[0]!, 'a.json'), file(parts[1]!, 'b.json')]);
    expect(set.ok && set.shards.map((s) => s.shard.index)).toEqual([0, 1, 2]);
  });

  it('refuses a result that is not a shard’s, naming the file', () => {
    const set = shardSet([file(parts[0]!, 'a.json'), file(runResultFixture(), 'whole.json')]);
    expect(set).toEqual({
      ok: false,
      message: "whole.json is not a shard's result (trebuchet run --shard i/N writes one)",
    });
  });

  it('refuses shards of another plan, naming the file and both plans', () => {
    const other = shard(1, 3, values(10, 9), 1);
    other.shard.planId = 'plan-b';
    const set = shardSet([file(parts[0]!, 'a.json'), file(other, 'other.json'), file(parts[2]!, 'c.json')]);
    expect(set).toEqual({
      ok: false,
      message:
        'other.json is shard 1/3 of plan plan-b, not of plan plan-a (3 shards) as a.json: the files are of different plans',
    });
  });

  it('refuses a missing index and an index given twice, naming the files', () => {
    expect(shardSet([file(parts[0]!, 'a.json'), file(parts[1]!, 'b.json')])).toEqual({
      ok: false,
      message: 'shard 2 of 3 is missing (a.json is 0, b.json is 1): merge every shard of the plan',
    });
    expect(
      shardSet([file(parts[0]!, 'a.json'), file(parts[1]!, 'b.json'), file(parts[1]!, 'b2.json')]),
    ).toEqual({
      ok: false,
      message: 'b2.json and b.json are both shard 1/3',
    });
  });
});

describe('merging shard results (mergeShardResults)', () => {
  const parts = [values(5000, 1), values(3000, 2), values(7, 3)];
  const shards = parts.map((vs, i) => shard(i, 3, vs, [2, 5, 4][i]!));

  it('gives the percentiles of one histogram fed every value, and every count added', () => {
    const merged = runResultSchema.parse(mergeShardResults(shards));
    const one = newHistogram();
    for (const v of parts.flat()) one.recordValue(v);
    const stats = latencyStats(one, REPORT_PERCENTILES)!;
    for (const p of REPORT_PERCENTILES) {
      expect(merged.latency!.percentiles[String(p)]).toBe(
        Math.min(stats.percentiles[String(p)]!, one.maxValue / 1000),
      );
    }
    expect(merged.latency!.min).toBe(Math.min(...parts.flat()) / 1000);
    expect(merged.latency!.max).toBe(Math.max(...parts.flat()) / 1000);
    expect(merged.requests.total).toBe(8007);
    expect(merged.statusCodes).toEqual({ '200': 8007 });
    expect(merged.bytes.inTotal).toBe(800_700);
    expect(decodeHistogram(merged.histogram!).totalCount).toBe(8007);
    // The samples, aligned on the common start: each tick's counts and CPU added.
    expect(merged.samples.map((s) => [s.seq, s.elapsedSeconds, s.requests, s.cpuPercent])).toEqual([
      [0, 1, 2500 + 1500 + 3, 120],
      [1, 2, 2500 + 1500 + 4, 180],
    ]);
    expect(merged.samples.at(-1)!.totalRequests).toBe(8007);
    expect(merged.shards!.map((r) => [r.index, r.host, r.requests, r.startOffsetMs])).toEqual([
      [0, 'gen-0', 5000, 2],
      [1, 'gen-1', 3000, 5],
      [2, 'gen-2', 7, 4],
    ]);
    expect(merged.shard).toBeUndefined();
    // 3 ms apart: no note.
    expect(runVerdict(merged).caveats.map((c) => c.code)).not.toContain('shards-apart');
    expect(formatTextReport(merged)).toMatch(/^ {2}1 +gen-1 \(4 cores\) +3,000 /m);
    const html = runHtmlReport([merged]);
    expect(html).toContain('<h4>Shards</h4>');
    expect(html).toMatch(/data-testid="run-1-shards"[\s\S]*gen-2 \(4 cores\)[\s\S]*<\/table>/);
  });

  it('is client-bound when any shard ran flat out, and notes shards that began more than 10 ms apart', () => {
    const flat = shard(1, 3, parts[1]!, 16, {
      generator: {
        ...shards[1]!.generator,
        saturated: true,
        workers: [{ cpuPercentMean: 99, cpuPercentMax: 100, saturated: true }],
      },
    });
    const merged = mergeShardResults([shards[0]!, flat, shards[2]!]);
    const verdict = runVerdict(merged);
    expect(verdict.state).toBe('client-bound');
    const apart = verdict.caveats.find((c) => c.code === 'shards-apart');
    expect(apart?.message).toContain('began 14.0 ms apart (more than 10 ms)');
  });

  it('times an open run’s attack on the wall clock: earliest shard’s first send to the last send of any', () => {
    const a = shard(0, 2, parts[0]!, 0, { attackSeconds: 2, waitSeconds: 0.01 });
    const b = shard(1, 2, parts[1]!, 5, { attackSeconds: 2, waitSeconds: 0.002 });
    b.shard.gridStartAt = T + 5;
    const merged = mergeShardResults([a, b]);
    expect(merged.attackSeconds).toBeCloseTo(2.005, 9);
    expect(merged.waitSeconds).toBeCloseTo(0.005, 9);
    expect(merged.durationSeconds).toBeCloseTo(2.01, 9);
  });

  it('names the shard, as --shard does, in a warning only one shard gave', () => {
    const warned = shard(1, 3, parts[1]!, 5);
    warned.shard.report = {
      ...warned.shard.report,
      warnings: [{ code: 'rate-not-reached', message: 'the rate was not reached' }],
    };
    const merged = mergeShardResults([shards[0]!, warned, shards[2]!]);
    expect(merged.warnings.map((w) => w.message)).toContain('shard 1/3: the rate was not reached');
  });

  it('places a shard that began a tick late on the later places', () => {
    const late = shard(1, 2, parts[1]!, 1000, {});
    late.shard.gridStartAt = T + 1000;
    const aligned = alignedSamples([shard(0, 2, parts[0]!, 0), late]);
    expect(aligned.map((s) => [s.elapsedSeconds, s.requests])).toEqual([
      [1, 2500],
      [2, 2500 + 1500],
      [3, 1500],
    ]);
    expect(aligned.map((s) => s.final)).toEqual([undefined, undefined, true]);
  });
});

describe("a machine's engine workers' reports as its one report (mergeReports)", () => {
  it('holds the histogram of all their values and their counts added', () => {
    const a = values(2000, 4);
    const b = values(1000, 5);
    const r = mergeReports([reportOf(a), reportOf(b)]);
    const one = newHistogram();
    for (const v of [...a, ...b]) one.recordValue(v);
    expect(encodeHistogram(decodeHistogram(r.histogram!))).toBe(
      encodeHistogram(decodeHistogram(encodeHistogram(one))),
    );
    expect(r.counts.requests.total).toBe(3000);
    expect(r.latencyRange).toEqual({ minNonZero: Math.min(...a, ...b), max: Math.max(...a, ...b) });
  });
});
