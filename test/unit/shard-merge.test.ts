import { describe, expect, it } from 'vitest';
import { describeIssues, issuesOf } from '../../shared/model/validation.ts';
import { mergeBuckets, mergeCounts, mergePhases } from '../../shared/shards/merge.ts';
import { bucketCountsSchema, shardCountsSchema, type ShardCounts } from '../../shared/model/shard-facts.ts';
import { bucketTotal, EMPTY_BUCKETS } from '../helpers/buckets.ts';

const counts = (over: Partial<ShardCounts> & { total?: number; unsolicited?: number }): ShardCounts => ({
  requests: {
    total: over.total ?? 0,
    responses: over.total ?? 0,
    ok: over.total ?? 0,
    non2xx: 0,
    errors: 0,
    sloExceeded: 0,
    lengthMismatch: 0,
    unsolicited: over.unsolicited ?? 0,
    inFlightAtEnd: 0,
    late: 0,
  },
  sent: over.total ?? 0,
  dropped: 0,
  bytes: { inTotal: 0, inBody: 0, outBody: 0, outTotal: 0 },
  statusCodes: {},
  errors: [],
  serverSoftware: null,
  documentLength: null,
  ...over,
});

describe('merging shard reports', () => {
  it('adds bucket counts of equal indexes and keeps the extremes', () => {
    const a = { indexes: [1, 5, 900], counts: [2, 1, 4], minNonZero: 1, max: 905 };
    const b = { indexes: [0, 5, 2000], counts: [3, 6, 1], minNonZero: 5, max: 2010 };
    const m = mergeBuckets([a, EMPTY_BUCKETS, b]);
    expect(m).toEqual({ indexes: [0, 1, 5, 900, 2000], counts: [3, 2, 7, 4, 1], minNonZero: 1, max: 2010 });
    expect(bucketTotal(m)).toBe(bucketTotal(a) + bucketTotal(b));
    expect(mergeBuckets([])).toEqual(EMPTY_BUCKETS);
  });

  it('merges a part whose indexes do not ascend (another engine may send them so) to the same buckets', () => {
    const sorted = { indexes: [1, 5, 900], counts: [2, 1, 4], minNonZero: 1, max: 905 };
    const unsorted = { indexes: [2000, 5, 0, 5], counts: [1, 2, 3, 4], minNonZero: 5, max: 2010 };
    expect(mergeBuckets([sorted, unsorted])).toEqual({
      indexes: [0, 1, 5, 900, 2000],
      counts: [3, 2, 7, 4, 1],
      minNonZero: 1,
      max: 2010,
    });
  });

  it("adds the counts of a run's shards; errors by kind with the first message; the first shard's document", () => {
    const m = mergeCounts([
      counts({
        total: 334,
        statusCodes: { 200: 334 },
        errors: [{ kind: 'reset', count: 1, message: 'first' }],
      }),
      counts({
        total: 333,
        unsolicited: 3,
        statusCodes: { 200: 330, 500: 3 },
        documentLength: 612,
        serverSoftware: 'nginx',
      }),
      counts({
        total: 333,
        dropped: 2,
        documentLength: 700,
        errors: [
          { kind: 'timeout', count: 5, message: 'slow' },
          { kind: 'reset', count: 2, message: 'second' },
        ],
      }),
    ]);
    expect(m.requests.total).toBe(1000);
    expect(m.requests.unsolicited).toBe(3);
    expect(m.sent).toBe(1000);
    expect(m.dropped).toBe(2);
    expect(m.statusCodes).toEqual({ 200: 664, 500: 3 });
    expect(m.errors).toEqual([
      { kind: 'timeout', count: 5, message: 'slow' },
      { kind: 'reset', count: 3, message: 'first' },
    ]);
    expect([m.documentLength, m.serverSoftware]).toEqual([612, 'nginx']);
    expect(shardCountsSchema.safeParse(m).success).toBe(true);
  });

  it('adds phase buckets phase by phase, the reused connections and TLS use', () => {
    const b = (index: number, n: number) => ({
      indexes: [index],
      counts: [n],
      minNonZero: index,
      max: index,
    });
    const m = mergePhases([
      { buckets: { total: b(10, 3), dns: b(2, 1) }, reused: 2, tlsUsed: false },
      { buckets: { total: b(10, 4) }, reused: 5, tlsUsed: true },
    ]);
    expect(m).toEqual({ buckets: { total: b(10, 7), dns: b(2, 1) }, reused: 7, tlsUsed: true });
    expect(mergePhases([])).toBeNull();
  });

  it("checks a window's bucket arrays whole: whole numbers, counts from 1, both as long, naming the field", () => {
    const good = { indexes: [0, 5, 900], counts: [1, 2, 3], minNonZero: 1, max: 950 };
    expect(bucketCountsSchema.parse(good)).toEqual(good);
    const problem = (over: object): string => {
      const r = bucketCountsSchema.safeParse({ ...good, ...over });
      return r.success ? 'accepted' : describeIssues(issuesOf(r.error));
    };
    expect(problem({ indexes: [0, -1, 900] })).toMatch(/indexes: must be an array of whole numbers from 0/);
    expect(problem({ indexes: [0, 1.5, 900] })).toMatch(/indexes: must be an array of whole numbers from 0/);
    expect(problem({ counts: [1, 0, 3] })).toMatch(/counts: must be an array of whole numbers from 1/);
    expect(problem({ counts: '1,2,3' })).toMatch(/counts: must be an array of whole numbers from 1/);
    expect(problem({ counts: [1, 2] })).toMatch(/indexes and counts differ in length/);
  });
});
