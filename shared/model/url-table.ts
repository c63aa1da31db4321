import { z } from 'zod';
import { LIMITS } from './defaults.ts';
import { errorKindSchema } from './result-parts.ts';

/*
 * A run's per-URL table (a target with a list of requests): which row each request of the list
 * is counted in, and the table a result carries. A row is one distinct METHOD URL, not one
 * list entry: a URL written several times to weigh it (http_load's habit) is one row, as a
 * server's access log counts it; a POST and a GET of one URL are two. Requests of one METHOD
 * URL that differ by headers or body share its row. Pure.
 */

const count = z.number().int().nonnegative();
const ms = z.number().nonnegative();

/** A row's request: its method and URL; null for the row that counts every request past the table's bound. */
export const urlRowRequestSchema = z.strictObject({ method: z.string(), url: z.string() }).nullable();
export type UrlRowRequest = z.infer<typeof urlRowRequestSchema>;

/** A row's counts, the same in a shard's report (with buckets) and in a result (with percentiles). */
export const urlRowCounts = {
  request: urlRowRequestSchema,
  /** Requests finished (responses and errors), as the run's requests.total counts them. */
  requests: count,
  statusCodes: z.record(z.string(), count),
  /** Requests that failed without a response, by kind. */
  errors: z.partialRecord(errorKindSchema, count),
  /** Bytes received, headers included (the run's bytes.inTotal). */
  bytesIn: count,
};

/** One row of the table in a result: what its requests got, warm-up excluded. */
export const urlRowSchema = z.strictObject({
  ...urlRowCounts,
  /** Latency of the row's responses in ms, from its own histogram; null when none came back. */
  latency: z.strictObject({ p50: ms, p99: ms, max: ms }).nullable(),
});
export type UrlRow = z.infer<typeof urlRowSchema>;

export const urlTableSchema = z.strictObject({
  /** In list order of each METHOD URL's first appearance; the "every other" row last. */
  rows: z.array(urlRowSchema).max(LIMITS.urlRows.max),
  /** Distinct METHOD URLs counted in the "every other" row (0: every one has its own). */
  folded: count,
});
export type UrlTable = z.infer<typeof urlTableSchema>;

/** Where each request of a list is counted: rows[rowOf[j]] for the list's j-th request. */
export interface UrlRowPlan {
  rows: UrlRowRequest[];
  rowOf: number[];
  folded: number;
}

/** The row key of a request (and of the "every other" row). */
export function urlRowKey(request: UrlRowRequest): string {
  return request === null ? '' : `${request.method} ${request.url}`;
}

/**
 * The rows of a list: one per distinct METHOD URL in order of first appearance, at most
 * `max`; past that, the last row counts every other one. The same list gives the same rows
 * in every worker and on every machine, so their counts merge row by row.
 */
export function urlRowPlan(
  list: readonly { method: string; url: string }[],
  max: number = LIMITS.urlRows.max,
): UrlRowPlan {
  const distinct = new Map<string, number>();
  const firsts: UrlRowRequest[] = [];
  const keyOf = list.map((r) => {
    const key = urlRowKey(r);
    let at = distinct.get(key);
    if (at === undefined) {
      at = distinct.size;
      distinct.set(key, at);
      firsts.push({ method: r.method, url: r.url });
    }
    return at;
  });
  if (firsts.length <= max) return { rows: firsts, rowOf: keyOf, folded: 0 };
  const kept = max - 1;
  return {
    rows: [...firsts.slice(0, kept), null],
    rowOf: keyOf.map((d) => Math.min(d, kept)),
    folded: firsts.length - kept,
  };
}
