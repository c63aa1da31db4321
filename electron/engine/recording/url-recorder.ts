import { urlRowPlan, type UrlTable } from '../../../shared/model/url-table.ts';
import type { ErrorKind } from '../../../shared/model/result.ts';
import type { UrlCounts, UrlCountsRow } from '../../../shared/model/shard-facts.ts';
import { HIGHEST_TRACKABLE_US, indexOf } from './hdr-layout.ts';
import { recordedStats, ValueRecorder } from './histogram.ts';

/*
 * The per-URL counts of a target with a list of requests (shared/model/url-table.ts gives
 * the rows): the clients name the list entry each finished request carried, and it is
 * counted in its row. A row's latencies are kept compact: a map of the buckets it used (not a
 * 180 KB typed array), at 2 significant digits (HdrHistogram's layout with 256 sub-buckets:
 * within 1/128 of the value, exact up to 255 us), so a row holds a few hundred entries and
 * never more than about 3,300 whatever the run's length. The run's own histogram keeps 3 digits.
 * A row also keeps its first 2xx body's length: with a list, ab's "Length" check compares each
 * response with its own URL's first, as ab run on each URL would (pages of a list differ in
 * length; against the list's first page every other page would fail).
 */

/** The 2-digit bucket of a value (us, an integer): 0-255 one per us, then 128 steps per doubling. */
function coarseIndex(v: number): number {
  const bucket = v < 256 ? 0 : 24 - Math.clz32(v);
  return (bucket << 7) + (v >>> bucket);
}

/** The highest value of 2-digit bucket c (hdr's highestEquivalentValue, as a percentile reports it). */
function coarseHighest(c: number): number {
  const bucket = (c >> 7) - 1;
  if (bucket <= 0) return c;
  return ((c & 127) + 128) * 2 ** bucket + 2 ** bucket - 1;
}

interface Row {
  requests: number;
  bytesIn: number;
  /** The first measured 2xx body's length; null until one came (and always for the "every other" row). */
  documentLength: number | null;
  status: Map<number, number>;
  errors: Map<ErrorKind, number>;
  latency: Map<number, number>;
  minNonZero: number;
  max: number;
}

const emptyRow = (): Row => ({
  requests: 0,
  bytesIn: 0,
  documentLength: null,
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

  /**
   * The body length a response to the list's `request`-th entry is checked against (ab's
   * Length): its row's first; null before it came, and for the "every other" row (many URLs).
   */
  documentLength(request: number): number | null {
    return this.#rows[this.#plan.rowOf[request]!]?.documentLength ?? null;
  }

  /** A response to the list's `request`-th entry (call for measured requests only). */
  response(request: number, status: number, latencyUs: number, bodyBytes: number, totalBytes: number): void {
    const at = this.#plan.rowOf[request]!;
    const row = this.#rows[at];
    if (row === undefined) return;
    row.requests++;
    row.bytesIn += totalBytes;
    if (row.documentLength === null && status >= 200 && status < 300 && this.#plan.rows[at] !== null)
      row.documentLength = bodyBytes;
    row.status.set(status, (row.status.get(status) ?? 0) + 1);
    const v = Math.min(HIGHEST_TRACKABLE_US, Math.max(1, latencyUs));
    const bucket = coarseIndex(v);
    row.latency.set(bucket, (row.latency.get(bucket) ?? 0) + 1);
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
      // Each 2-digit bucket as the 3-digit bucket of its highest value: the layout every
      // histogram of a report has, so rows merge and summarize as the run's do.
      const coarse = [...r.latency.keys()].sort((a, b) => a - b);
      const indexes = coarse.map((c) => indexOf(Math.min(coarseHighest(c), HIGHEST_TRACKABLE_US)));
      return {
        request: this.#plan.rows[i]!,
        requests: r.requests,
        statusCodes: Object.fromEntries([...r.status].map(([s, n]) => [String(s), n])),
        errors: Object.fromEntries(r.errors),
        bytesIn: r.bytesIn,
        latency: {
          indexes,
          counts: coarse.map((c) => r.latency.get(c)!),
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
    const max = r.latency.max;
    // A bucket stands at its highest value, which may lie above the row's exact max: the
    // recorder reads up to the top, and the percentiles are capped at that max after.
    scratch.addBuckets({ ...r.latency, max: max === null ? null : HIGHEST_TRACKABLE_US });
    const s = recordedStats(scratch, [50, 99]);
    scratch.clear();
    const capped = (ms: number) => Math.min(ms, max! / 1000);
    return {
      request: r.request,
      requests: r.requests,
      statusCodes: r.statusCodes,
      errors: r.errors,
      bytesIn: r.bytesIn,
      latency:
        s === null || max === null
          ? null
          : { p50: capped(s.percentiles['50']!), p99: capped(s.percentiles['99']!), max: max / 1000 },
    };
  });
  return { rows, folded: counts.folded };
}
