import { PHASES, type ErrorEntry, type ErrorKind } from '../model/result-parts.ts';
import type {
  BucketCounts,
  PhaseBuckets,
  ShardCounts,
  StageCounts,
  UrlCounts,
  UrlCountsRow,
} from '../model/shard-facts.ts';
import { urlRowKey } from '../model/url-table.ts';

/**
 * How reports of several shards (engine workers, machines) add up to one: counts added,
 * histograms' buckets added, so the merge is exact. The reports' shapes are
 * shared/model/shard-facts.ts's. Pure.
 */

const lowest = (a: number | null, b: number | null): number | null =>
  a === null ? b : b === null ? a : Math.min(a, b);
const highest = (a: number | null, b: number | null): number | null =>
  a === null ? b : b === null ? a : Math.max(a, b);

/** Whether indexes ascend strictly, as ValueRecorder.buckets() gives them. */
function ascending(indexes: readonly number[]): boolean {
  for (let i = 1; i < indexes.length; i++) if (indexes[i]! <= indexes[i - 1]!) return false;
  return true;
}

type Counts = Pick<BucketCounts, 'indexes' | 'counts'>;

/** Two lists of buckets with ascending indexes as one, in one pass. */
function mergeAscending(a: Counts, b: Counts): Counts {
  const indexes: number[] = [];
  const counts: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.indexes.length || j < b.indexes.length) {
    const x = i < a.indexes.length ? a.indexes[i]! : Infinity;
    const y = j < b.indexes.length ? b.indexes[j]! : Infinity;
    indexes.push(Math.min(x, y));
    counts.push((x <= y ? a.counts[i++]! : 0) + (y <= x ? b.counts[j++]! : 0));
  }
  return { indexes, counts };
}

/**
 * The buckets of all the parts' values together. Parts whose indexes ascend (every engine's)
 * are merged as sorted lists: the coordinator does this at every tick, on the CPU the load's
 * sends may share, and a map with a sort took 2-12 ms for a busy second's 5,000 buckets.
 */
export function mergeBuckets(parts: readonly BucketCounts[]): BucketCounts {
  let minNonZero: number | null = null;
  let max: number | null = null;
  for (const p of parts) {
    minNonZero = lowest(minNonZero, p.minNonZero);
    max = highest(max, p.max);
  }
  if (parts.every((p) => ascending(p.indexes))) {
    let merged: Counts = { indexes: [], counts: [] };
    for (const p of parts) merged = mergeAscending(merged, p);
    return { ...merged, minNonZero, max };
  }
  const byIndex = new Map<number, number>();
  for (const p of parts) {
    for (let i = 0; i < p.indexes.length; i++) {
      const at = p.indexes[i]!;
      byIndex.set(at, (byIndex.get(at) ?? 0) + p.counts[i]!);
    }
  }
  const indexes = [...byIndex.keys()].sort((a, b) => a - b);
  return { indexes, counts: indexes.map((i) => byIndex.get(i)!), minNonZero, max };
}

function addRecords<K extends string>(
  parts: readonly Partial<Record<K, number>>[],
): Partial<Record<K, number>> {
  const out: Partial<Record<K, number>> = {};
  for (const p of parts) {
    for (const [k, n] of Object.entries(p) as [K, number][]) out[k] = (out[k] ?? 0) + n;
  }
  return out;
}

function addFields<T extends Record<string, number>>(parts: readonly T[]): T {
  const out: Record<string, number> = {};
  for (const p of parts) for (const [k, n] of Object.entries(p)) out[k] = (out[k] ?? 0) + n;
  return out as T;
}

/** Error entries by kind added up, each with the first shard's message, most frequent first. */
function mergeErrors(parts: readonly ErrorEntry[][]): ErrorEntry[] {
  const byKind = new Map<ErrorKind, ErrorEntry>();
  for (const entries of parts) {
    for (const e of entries) {
      const seen = byKind.get(e.kind);
      if (seen) seen.count += e.count;
      else byKind.set(e.kind, { ...e });
    }
  }
  return [...byKind.values()].sort((a, b) => b.count - a.count);
}

/**
 * The shards' counts as one run's: every count added; the document facts from the first
 * shard (in order) that saw a measured response. lengthMismatch is each shard's against its
 * own first response, which is the run's when the document's length does not vary.
 */
export function mergeCounts(parts: readonly ShardCounts[]): ShardCounts {
  const first = parts.find((p) => p.documentLength !== null) ?? null;
  return {
    requests: addFields(parts.map((p) => p.requests)),
    sent: parts.reduce((a, p) => a + p.sent, 0),
    dropped: parts.reduce((a, p) => a + p.dropped, 0),
    bytes: addFields(parts.map((p) => p.bytes)),
    statusCodes: addRecords(parts.map((p) => p.statusCodes)) as Record<string, number>,
    errors: mergeErrors(parts.map((p) => p.errors)),
    serverSoftware:
      first?.serverSoftware ?? parts.find((p) => p.serverSoftware !== null)?.serverSoftware ?? null,
    documentLength: first?.documentLength ?? null,
  };
}

/** Phases of several shards as one's: each phase's buckets added. */
export function mergePhases(parts: readonly PhaseBuckets[]): PhaseBuckets | null {
  if (parts.length === 0) return null;
  const buckets: PhaseBuckets['buckets'] = {};
  for (const phase of PHASES) {
    const of = parts.flatMap((p) => (p.buckets[phase] ? [p.buckets[phase]] : []));
    if (of.length > 0) buckets[phase] = mergeBuckets(of);
  }
  return {
    buckets,
    reused: parts.reduce((a, p) => a + p.reused, 0),
    tlsUsed: parts.some((p) => p.tlsUsed),
  };
}

/**
 * The shards' stage rows as one run's, stage by stage (every shard has the same stages):
 * counts added, latency buckets added, so a row is what one histogram of the stage's values gives.
 */
export function mergeStageCounts(parts: readonly (readonly StageCounts[])[]): StageCounts[] {
  const stages = Math.max(0, ...parts.map((p) => p.length));
  return Array.from({ length: stages }, (_, i) => {
    const rows = parts.flatMap((p) => (p[i] ? [p[i]] : []));
    const latencies = rows.flatMap((r) => (r.latency ? [r.latency] : []));
    return {
      requests: rows.reduce((a, r) => a + r.requests, 0),
      errors: rows.reduce((a, r) => a + r.errors, 0),
      non2xx: rows.reduce((a, r) => a + r.non2xx, 0),
      latency: latencies.length > 0 ? mergeBuckets(latencies) : null,
    };
  });
}

function addInto(into: Record<string, number>, from: Record<string, number | undefined>): void {
  for (const [k, n] of Object.entries(from)) into[k] = (into[k] ?? 0) + (n ?? 0);
}

/**
 * Several shards' per-URL counts as one's: rows of the same METHOD URL added (in order of
 * first appearance, the "every other" row last), latency buckets added. Null when no part has any.
 */
export function mergeUrlCounts(parts: readonly (UrlCounts | null | undefined)[]): UrlCounts | null {
  const known = parts.filter((p): p is UrlCounts => p !== null && p !== undefined);
  if (known.length === 0) return null;
  if (known.length === 1) return known[0]!;
  const byKey = new Map<string, { row: UrlCountsRow; latencies: UrlCountsRow['latency'][] }>();
  for (const part of known) {
    for (const r of part.rows) {
      const key = urlRowKey(r.request);
      const seen = byKey.get(key);
      if (seen === undefined) {
        byKey.set(key, {
          row: { ...r, statusCodes: { ...r.statusCodes }, errors: { ...r.errors } },
          latencies: [r.latency],
        });
        continue;
      }
      seen.row.requests += r.requests;
      seen.row.bytesIn += r.bytesIn;
      addInto(seen.row.statusCodes, r.statusCodes);
      addInto(seen.row.errors, r.errors);
      seen.latencies.push(r.latency);
    }
  }
  const rows = [...byKey.values()].map(({ row, latencies }) => ({
    ...row,
    latency: mergeBuckets(latencies),
  }));
  const other = rows.findIndex((r) => r.request === null);
  if (other >= 0) rows.push(...rows.splice(other, 1));
  return { rows, folded: Math.max(...known.map((p) => p.folded)) };
}
