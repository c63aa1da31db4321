import { urlRowPlan, type UrlTable } from '../../shared/model/url-table.ts';
import type { ErrorKind } from '../../shared/model/result.ts';
import type { UrlCounts, UrlCountsRow } from '../../shared/shards/merge.ts';
import { HIGHEST_TRACKABLE_US, indexOf, recordedStats, ValueRecorder } from './histogram.ts';

/*
 * The per-URL counts of a target with a list of requests (shared/model/url-table.ts gives
 * the rows): the clients name the list entry each finished request carried, and it is
 * counted in its row. A row's latencies are kept as sparse HdrHistogram buckets (a map of the
 * used ones), not a 180 KB typed array: a thousand rows stay small.
 */

interface Row {
  requests: number;
  bytesIn: number;
  status: Map<number, number>;
  errors: Map<ErrorKind, number>;
  latency: Map<number, number>;
  minNonZero: number;
  max: number;
}

const emptyRow = (): Row => ({
  requests: 0,
  bytesIn: 0,
  status: new Map(),
  errors: new Map(),
  latency: new Map(),
  minNonZero: Infinity,
  max: -1,
});

export class UrlRecorder {
  readonly #plan: ReturnType<typeof urlRowPlan>;
  readonly #rows: Row[];

  constructor(list: readonly { method: string; url: string }[]) {
    this.#plan = urlRowPlan(list);
    this.#rows = this.#plan.rows.map(emptyRow);
  }

  /** A response to the list's `request`-th entry (call for measured requests only). */
  response(request: number, status: number, latencyUs: number, totalBytes: number): void {
    const row = this.#rows[this.#plan.rowOf[request]!];
    if (row === undefined) return;
    row.requests++;
    row.bytesIn += totalBytes;
    row.status.set(status, (row.status.get(status) ?? 0) + 1);
    const v = Math.min(HIGHEST_TRACKABLE_US, Math.max(1, latencyUs));
    const at = indexOf(v);
    row.latency.set(at, (row.latency.get(at) ?? 0) + 1);
    if (v < row.minNonZero) row.minNonZero = v;
    if (v > row.max) row.max = v;
  }

  /** The list's `request`-th entry failed without a response. */
  failed(request: number, kind: ErrorKind): void {
    const row = this.#rows[this.#plan.rowOf[request]!];
    if (row === undefined) return;
    row.requests++;
    row.errors.set(kind, (row.errors.get(kind) ?? 0) + 1);
  }

  /** The counts as a shard's report carries them. */
  counts(): UrlCounts {
    const rows = this.#rows.map((r, i): UrlCountsRow => {
      const indexes = [...r.latency.keys()].sort((a, b) => a - b);
      return {
        request: this.#plan.rows[i]!,
        requests: r.requests,
        statusCodes: Object.fromEntries([...r.status].map(([s, n]) => [String(s), n])),
        errors: Object.fromEntries(r.errors),
        bytesIn: r.bytesIn,
        latency: {
          indexes,
          counts: indexes.map((at) => r.latency.get(at)!),
          minNonZero: r.minNonZero === Infinity ? null : r.minNonZero,
          max: r.max < 0 ? null : r.max,
        },
      };
    });
    return { rows, folded: this.#plan.folded };
  }
}

/** The result's per-URL table from merged counts: each row's p50, p99 and max from its own buckets. */
export function urlTable(counts: UrlCounts): UrlTable {
  const scratch = new ValueRecorder();
  const rows = counts.rows.map((r) => {
    scratch.addBuckets(r.latency);
    const s = recordedStats(scratch, [50, 99]);
    scratch.clear();
    return {
      request: r.request,
      requests: r.requests,
      statusCodes: r.statusCodes,
      errors: r.errors,
      bytesIn: r.bytesIn,
      latency: s === null ? null : { p50: s.percentiles['50']!, p99: s.percentiles['99']!, max: s.max },
    };
  });
  return { rows, folded: counts.folded };
}
