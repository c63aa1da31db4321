import { describe, expect, it } from 'vitest';
import { REPORT_PERCENTILES } from '../../shared/model/defaults.ts';
import type { RunResult } from '../../shared/model/result.ts';
import { runResultSchema } from '../../shared/model/result.ts';
import { alignedSamples, shardSet } from '../../shared/shards/combine.ts';
import { runVerdict } from '../../shared/verdict/verdict.ts';
import { formatTextReport } from '../../shared/format/report.ts';
import { runHtmlReport } from '../../shared/format/html-report.ts';
import {
  encodeHistogram,
  latencyStats,
  newHistogram,
  decodeHistogram,
} from '../../electron/engine/recording/histogram.ts';
import { mergeShardResults } from '../../electron/engine/shards/merged-result.ts';
import { mergeReports } from '../../electron/engine/shards/results.ts';
import { runResultFixture } from '../helpers/run-result.ts';
import { latencyValues, SHARD_START, shardReportOf, shardResultFixture } from '../helpers/shard-results.ts';

const file = (result: RunResult, name: string) => ({ file: name, result });

describe('the shard files of one plan (shardSet)', () => {
  const parts = [0, 1, 2].map((i) => shardResultFixture(i, 3, latencyValues(10, i + 1), 1));

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
    const other = shardResultFixture(1, 3, latencyValues(10, 9), 1);
    other.shard.planId = 'plan-b';
    const set = shardSet([file(parts[0]!, 'a.json'), file(other, 'other.json'), file(parts[2]!, 'c.json')]);
    expect(set).toEqual({
      ok: false,
      message:
        'other.json is shard 2/3 of plan plan-b, not of plan plan-a (3 shards) as a.json: the files are of different plans',
    });
  });

  it('refuses a missing index and an index given twice, naming the files and counting from 1 as --shard does', () => {
    expect(shardSet([file(parts[0]!, 'a.json'), file(parts[1]!, 'b.json')])).toEqual({
      ok: false,
      message: 'shard 3 of 3 is missing (a.json is 1, b.json is 2): merge every shard of the plan',
    });
    expect(
      shardSet([file(parts[0]!, 'a.json'), file(parts[1]!, 'b.json'), file(parts[1]!, 'b2.json')]),
    ).toEqual({
      ok: false,
      message: 'b2.json and b.json are both shard 2/3',
    });
  });
});

describe('merging shard results (mergeShardResults)', () => {
  const parts = [latencyValues(5000, 1), latencyValues(3000, 2), latencyValues(7, 3)];
  const shards = parts.map((vs, i) => shardResultFixture(i, 3, vs, [2, 5, 4][i]!));

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
    // Numbered from 1, as --shard counts.
    expect(formatTextReport(merged)).toMatch(/^ {2}2 +gen-1 \(4 cores\) +3,000 /m);
    const html = runHtmlReport([merged]);
    expect(html).toContain('<h4>Shards</h4>');
    expect(html).toMatch(/data-testid="run-1-shards"[\s\S]*gen-2 \(4 cores\)[\s\S]*<\/table>/);
  });

  it('is client-bound when any shard ran flat out, and notes shards that began more than 10 ms apart', () => {
    const flat = shardResultFixture(1, 3, parts[1]!, 16, {
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
    const a = shardResultFixture(0, 2, parts[0]!, 0, { attackSeconds: 2, waitSeconds: 0.01 });
    const b = shardResultFixture(1, 2, parts[1]!, 5, { attackSeconds: 2, waitSeconds: 0.002 });
    b.shard.gridStartAt = SHARD_START + 5;
    const merged = mergeShardResults([a, b]);
    expect(merged.attackSeconds).toBeCloseTo(2.005, 9);
    expect(merged.waitSeconds).toBeCloseTo(0.005, 9);
    expect(merged.durationSeconds).toBeCloseTo(2.01, 9);
  });

  it('names the shard, as --shard does, in a warning only one shard gave', () => {
    const warned = shardResultFixture(1, 3, parts[1]!, 5);
    warned.shard.report = {
      ...warned.shard.report,
      warnings: [{ code: 'rate-not-reached', message: 'the rate was not reached' }],
    };
    const merged = mergeShardResults([shards[0]!, warned, shards[2]!]);
    expect(merged.warnings.map((w) => w.message)).toContain('shard 2/3: the rate was not reached');
  });

  it('keeps the machines’ warm phases as one: pools added, the slowest time, the longest round trip', () => {
    const a = shardResultFixture(0, 2, parts[0]!, 0, {
      warm: { seconds: 0.4, wanted: 60, ready: 60, roundTripMs: 0.3 },
    });
    const b = shardResultFixture(1, 2, parts[1]!, 5, {
      warm: { seconds: 2.5, wanted: 50, ready: 45, roundTripMs: 0.9 },
    });
    const merged = runResultSchema.parse(mergeShardResults([a, b]));
    expect(merged.warm).toEqual({ seconds: 2.5, wanted: 110, ready: 105, roundTripMs: 0.9 });
    expect(merged.warnings.map((w) => w.message)).toContain(
      'the warm connections were not all open after 2.5 s: 105 of 110; the schedule started anyway, and its first requests may wait for connections to open',
    );
    // Shards that had no warm phase (closed model) give a merged result without one.
    expect(mergeShardResults(shards).warm).toBeUndefined();
  });

  it('places a shard that began a tick late on the later places', () => {
    const late = shardResultFixture(1, 2, parts[1]!, 1000, {});
    late.shard.gridStartAt = SHARD_START + 1000;
    const aligned = alignedSamples([shardResultFixture(0, 2, parts[0]!, 0), late]);
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
    const a = latencyValues(2000, 4);
    const b = latencyValues(1000, 5);
    const r = mergeReports([shardReportOf(a), shardReportOf(b)]);
    const one = newHistogram();
    for (const v of [...a, ...b]) one.recordValue(v);
    expect(encodeHistogram(decodeHistogram(r.histogram!))).toBe(
      encodeHistogram(decodeHistogram(encodeHistogram(one))),
    );
    expect(r.counts.requests.total).toBe(3000);
    expect(r.latencyRange).toEqual({ minNonZero: Math.min(...a, ...b), max: Math.max(...a, ...b) });
  });
});
