import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HIGHEST_TRACKABLE_US, indexOf } from '../../electron/engine/recording/hdr-layout.ts';
import { encodeHistogram, newHistogram } from '../../electron/engine/recording/histogram.ts';
import { importIntoHistory, readImportTexts } from '../../electron/stores/history-import.ts';
import type { ImportFile } from '../../shared/records/import.ts';
import { openHistoryStore, type HistoryStore } from '../../electron/stores/history-store.ts';
import { histogramIssues } from '../../electron/stores/result-histograms.ts';
import { savedResultFromText } from '../../electron/stores/result-text.ts';
import type { RunResult } from '../../shared/model/result.ts';
import { BUCKET_INDEXES, resultArithmeticIssues } from '../../shared/records/result-checks.ts';
import { comparisonJson } from '../../shared/export/comparison.ts';
import { comparisonWithCaveats } from '../helpers/one-result.ts';
import { amendResult, runResultFixture, sampleFixture } from '../helpers/run-result.ts';
import { latencyValues, shardResultFixture } from '../helpers/shard-results.ts';

/** An import of files' texts, as history.import's command takes them. */
const importTexts = (
  history: Parameters<typeof importIntoHistory>[0],
  files: ImportFile[],
  appVersion: string,
) => importIntoHistory(history, readImportTexts(files), appVersion);

/*
 * A result's own arithmetic (shared/records/result-checks.ts, electron/stores/result-histograms.ts),
 * checked wherever a result is read: the fault kit's lying files (issue 33) are refused, each
 * naming the field and the two numbers that disagree.
 */

const messages = (r: RunResult) => resultArithmeticIssues(r).map((i) => `${i.path}: ${i.message}`);

/** A run of 400 requests, every count in agreement. */
const honest = (): RunResult =>
  amendResult(runResultFixture(), {
    requests: { total: 400, responses: 400, ok: 390, non2xx: 10, errors: 0 },
    statusCodes: { '200': 390, '503': 10 },
  });

describe("a result's arithmetic", () => {
  it('holds for what the engine writes', () => {
    expect(messages(honest())).toEqual([]);
    expect(messages(runResultFixture())).toEqual([]);
  });

  it('refuses a total of 2,200 over 400 responses and no errors', () => {
    expect(messages(amendResult(honest(), { requests: { total: 2200 } }))).toEqual([
      'requests.total: is 2,200, but responses and transport errors add up to 400 (400 + 0)',
    ]);
  });

  it('refuses status codes of 100,199 for 400 requests', () => {
    expect(messages(amendResult(honest(), { statusCodes: { '200': 100_199 } }))).toEqual([
      'statusCodes: add up to 100,199, not the 400 responses (requests.responses)',
    ]);
  });

  it('refuses more ok responses than the total', () => {
    expect(messages(amendResult(honest(), { requests: { ok: 500 } }))).toEqual([
      'requests.ok: is 500 with 0 slower than the SLO, more than the 400 responses (requests.responses)',
    ]);
  });

  it('refuses non-2xx, errors and SLO failures that are not the lists’', () => {
    expect(messages(amendResult(honest(), { requests: { non2xx: 3 } }))).toEqual([
      'requests.non2xx: is 3, but statusCodes hold 10 responses outside 2xx',
    ]);
    expect(
      messages(
        amendResult(honest(), {
          requests: { total: 405, errors: 5 },
          errors: [{ kind: 'refused', count: 4, message: 'connection refused' }],
        }),
      ),
    ).toEqual(['errors: list 4 transport errors, not the 5 of requests.errors']);
  });

  it('refuses times out of order: an end before the start, a sample before the one before it', () => {
    expect(messages(amendResult(honest(), { endedAt: '2024-12-31T23:59:59.000Z' }))).toEqual([
      'endedAt: is 2024-12-31T23:59:59.000Z, before the start (startedAt 2025-01-01T00:00:00.000Z)',
    ]);
    const samples = [
      sampleFixture({ seq: 0, elapsedSeconds: 2 }),
      sampleFixture({ seq: 1, elapsedSeconds: 1 }),
    ];
    expect(messages(amendResult(honest(), { samples }))).toEqual([
      'samples.1.elapsedSeconds: is 1, before the sample before it (2)',
    ]);
  });

  it('refuses a shard whose bucket index is 2^31 with a count of 1e15, and one whose report is not its result', () => {
    const shard = shardResultFixture(0, 2, latencyValues(400, 1), 1);
    expect(messages(shard)).toEqual([]);
    const report = shard.shard.report;
    const lying = {
      ...shard,
      shard: {
        ...shard.shard,
        report: { ...report, lateness: { indexes: [2 ** 31], counts: [1e15], minNonZero: 1, max: 2 ** 31 } },
      },
    };
    expect(messages(lying)).toEqual([
      'shard.report.lateness.indexes.0: is 2,147,483,648, past the last bucket (23,551)',
    ]);
    const many = { ...report, lateness: { indexes: [100], counts: [1e15], minNonZero: 100, max: 100 } };
    expect(messages({ ...shard, shard: { ...shard.shard, report: many } })).toEqual([
      'shard.report.lateness.counts: add up to 1,000,000,000,000,000 values, more than the 400 requests they are of',
    ]);
    const inflated = amendResult(shard, { requests: { total: 2200, responses: 2200, ok: 2200 } });
    expect(messages({ ...inflated, statusCodes: { '200': 2200 } })).toEqual([
      "shard.report.counts.requests.total: is 400, not the result's 2,200 (requests.total)",
      "shard.report.counts.requests.responses: is 400, not the result's 2,200 (requests.responses)",
      "shard.report.counts.requests.ok: is 400, not the result's 2,200 (requests.ok)",
    ]);
  });

  it('knows the engine’s bucket layout: the hour’s bucket is the last one', () => {
    expect(indexOf(HIGHEST_TRACKABLE_US)).toBeLessThan(BUCKET_INDEXES);
    expect(indexOf(HIGHEST_TRACKABLE_US)).toBeGreaterThanOrEqual(BUCKET_INDEXES - 1024);
  });
});

describe("a result's histograms against its counts", () => {
  const withHistogram = (values: number, responses: number): RunResult => {
    const h = newHistogram();
    for (let i = 0; i < values; i++) h.recordValue(1000 + i);
    return amendResult(honest(), {
      histogram: encodeHistogram(h),
      requests: { total: responses, responses, ok: responses - 10 },
      statusCodes: { '200': responses - 10, '503': 10 },
    });
  };

  it('hold one latency per response', () => {
    expect(histogramIssues(withHistogram(400, 400))).toEqual([]);
    expect(histogramIssues(withHistogram(399, 400), 'results.0')).toEqual([
      {
        path: 'results.0.histogram',
        message: 'holds 399 latencies, not the 400 responses (requests.responses)',
      },
    ]);
  });

  it('are looked at before they are decoded: a bomb or another layout is refused unread', () => {
    const frame = (inflated: Buffer): string => {
      const z = deflateSync(inflated);
      const head = Buffer.alloc(8);
      head.writeInt32BE(0x1c849314, 0);
      head.writeInt32BE(z.length, 4);
      return Buffer.concat([head, z]).toString('base64');
    };
    const bomb = frame(Buffer.alloc(50 * 1024 * 1024));
    expect(histogramIssues(amendResult(honest(), { histogram: bomb }))[0]?.message).toBe(
      'is not an HdrHistogram of at most 212,008 bytes inflated',
    );
    const header = Buffer.alloc(40);
    header.writeInt32BE(0x1c849303, 0);
    header.writeInt32BE(5, 12);
    header.writeBigInt64BE(1n, 16);
    header.writeBigInt64BE(2n ** 62n, 24);
    expect(histogramIssues(amendResult(honest(), { histogram: frame(header) }))[0]?.message).toBe(
      "records 5 significant digits from 1 to 4611686018427388000 us, not the 3 from 1 to 3600000000 a result's histogram has",
    );
    expect(histogramIssues(amendResult(honest(), { histogram: 'bm90IGEgaGlzdG9ncmFt' }))[0]?.message).toBe(
      'is not an HdrHistogram (V2, compressed, base64)',
    );
  });
});

describe('a lying file read back', () => {
  let dir: string;
  let store: HistoryStore;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'trebuchet-checks-'));
    store = await openHistoryStore({ dir });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is refused by report, diff and import alike, at the field, in its place in the file', () => {
    const comparison = comparisonWithCaveats();
    const lying = {
      ...comparison,
      outcomes: comparison.outcomes.map((o, i) =>
        i === 1
          ? { ...o, result: amendResult(o.result, { requests: { ok: o.result.requests.total + 1 } }) }
          : o,
      ),
    };
    const read = savedResultFromText(comparisonJson(lying));
    expect(read.ok).toBe(false);
    if (!read.ok)
      expect(read.message).toMatch(/^not a result Trebuchet reads: outcomes\.1\.result\.requests\.ok: is /);
  });

  it('in History’s import, shards included: the lying shard names its file and field, the others are not merged', async () => {
    const shards = [0, 1].map((i) => shardResultFixture(i, 2, latencyValues(400, i + 1), 1));
    const lying = amendResult(shards[1]!, { requests: { total: 2200 } });
    const outcome = await importTexts(
      store,
      [
        { name: 'shard-0.json', text: JSON.stringify(shards[0]) },
        { name: 'shard-1.json', text: JSON.stringify(lying) },
      ],
      '9.9.9',
    );
    expect(outcome.imported).toEqual([]);
    expect(outcome.problems.map((p) => p.message)).toEqual([
      "shard-1.json: not a result Trebuchet reads: requests.total: is 2,200, but responses and transport errors add up to 400 (400 + 0); shard.report.counts.requests.total: is 400, not the result's 2,200 (requests.total)",
      expect.stringMatching(/^shard 2 of 2 is missing/),
    ]);
  });
});
