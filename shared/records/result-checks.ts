/**
 * A result's own arithmetic, checked wherever a result is read back (report, diff, History's
 * import and its files, merge): a schema says each number is a count, not that the counts
 * agree. A file that contradicts itself (a total of 2,200 over 400 responses, status codes
 * adding up to 100,199 of 400 requests, a bucket index of 2^31 holding 1e15 latencies, more
 * ok responses than responses) would be reported, compared and merged as if it were a
 * measurement; it is refused, each issue naming the field and the two numbers that disagree.
 * What the engine writes always holds these (electron/engine/recording/recorder.ts counts them so). Pure.
 */
import type { BucketCounts, ShardReport } from '../model/shard-facts.ts';
import { formatCount } from '../figures/units.ts';
import type { RunResult } from '../model/result.ts';
import type { FieldIssue } from '../model/validation.ts';

/**
 * Counts indexes of the latency buckets (HdrHistogram's layout, 3 significant digits, values up
 * to an hour in us: electron/engine/recording/histogram.ts COUNTS_LENGTH): an index past it is no bucket.
 */
export const BUCKET_INDEXES = 23 * 1024;

const n = (value: number): string => formatCount(value);
const sum = (values: Iterable<number>): number => {
  let total = 0;
  for (const v of values) total += v;
  return total;
};
const join = (at: string, field: string): string => (at ? `${at}.${field}` : field);

/** A response outside 200-299 (ab's Non-2xx), by its status code as a result's key. */
const outside2xx = (code: string): boolean => !/^2\d\d$/.test(code);

/** The request counts of a result or a shard's report against each other and the status codes. */
function countIssues(
  at: string,
  q: {
    total: number;
    responses: number;
    ok: number;
    non2xx: number;
    errors: number;
    sloExceeded: number;
    lengthMismatch?: number;
  },
  statusCodes: Record<string, number>,
  errors: readonly { kind: string; count: number }[],
): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const req = (field: string) => join(at, `requests.${field}`);
  if (q.total !== q.responses + q.errors) {
    issues.push({
      path: req('total'),
      message: `is ${n(q.total)}, but responses and transport errors add up to ${n(q.responses + q.errors)} (${n(q.responses)} + ${n(q.errors)})`,
    });
  }
  if (q.ok + q.sloExceeded > q.responses) {
    issues.push({
      path: req('ok'),
      message: `is ${n(q.ok)} with ${n(q.sloExceeded)} slower than the SLO, more than the ${n(q.responses)} responses (${req('responses')})`,
    });
  }
  for (const field of ['non2xx', 'lengthMismatch'] as const) {
    const value = q[field];
    if (value !== undefined && value > q.responses)
      issues.push({ path: req(field), message: `is ${n(value)}, more than the ${n(q.responses)} responses` });
  }
  const codes = sum(Object.values(statusCodes));
  if (codes !== q.responses) {
    issues.push({
      path: join(at, 'statusCodes'),
      message: `add up to ${n(codes)}, not the ${n(q.responses)} responses (${req('responses')})`,
    });
  } else {
    const outside = sum(Object.entries(statusCodes).flatMap(([code, c]) => (outside2xx(code) ? [c] : [])));
    if (outside !== q.non2xx) {
      issues.push({
        path: req('non2xx'),
        message: `is ${n(q.non2xx)}, but statusCodes hold ${n(outside)} responses outside 2xx`,
      });
    }
  }
  const transport = sum(errors.filter((e) => e.kind !== 'slo').map((e) => e.count));
  if (transport !== q.errors) {
    issues.push({
      path: join(at, 'errors'),
      message: `list ${n(transport)} transport errors, not the ${n(q.errors)} of ${req('errors')}`,
    });
  }
  const slo = sum(errors.filter((e) => e.kind === 'slo').map((e) => e.count));
  if (slo !== q.sloExceeded) {
    issues.push({
      path: join(at, 'errors'),
      message: `list ${n(slo)} responses slower than the SLO, not the ${n(q.sloExceeded)} of ${req('sloExceeded')}`,
    });
  }
  return issues;
}

/** Buckets in the layout's range, ascending, and holding no more values than `most` (the requests they can be of). */
function bucketIssues(at: string, b: BucketCounts, most: number): FieldIssue[] {
  for (let i = 0; i < b.indexes.length; i++) {
    const index = b.indexes[i]!;
    if (index >= BUCKET_INDEXES)
      return [
        {
          path: `${at}.indexes.${i}`,
          message: `is ${n(index)}, past the last bucket (${n(BUCKET_INDEXES - 1)})`,
        },
      ];
    if (i > 0 && index <= b.indexes[i - 1]!)
      return [
        {
          path: `${at}.indexes.${i}`,
          message: `is ${n(index)}, not above the index before it (${n(b.indexes[i - 1]!)})`,
        },
      ];
  }
  const values = sum(b.counts);
  return values > most
    ? [
        {
          path: `${at}.counts`,
          message: `add up to ${n(values)} values, more than the ${n(most)} requests they are of`,
        },
      ]
    : [];
}

/** A shard's report (merge adds these): its counts, and every histogram kept as buckets. */
function reportIssues(at: string, r: ShardReport): FieldIssue[] {
  const c = r.counts;
  const issues = countIssues(`${at}.counts`, c.requests, c.statusCodes, c.errors);
  // Every latency is of a request sent or finished; a scheduled send's lateness too.
  const most = Math.max(c.requests.total, c.sent) + c.requests.inFlightAtEnd + c.dropped;
  const buckets: [string, BucketCounts][] = [[`${at}.lateness`, r.lateness]];
  if (r.corrected) buckets.push([`${at}.corrected`, r.corrected]);
  for (const [phase, b] of Object.entries(r.phases?.buckets ?? {}))
    if (b) buckets.push([`${at}.phases.buckets.${phase}`, b]);
  for (const [i, s] of (r.stages ?? []).entries())
    if (s.latency) buckets.push([`${at}.stages.${i}.latency`, s.latency]);
  for (const [i, row] of (r.urls?.rows ?? []).entries())
    buckets.push([`${at}.urls.rows.${i}.latency`, row.latency]);
  for (const [path, b] of buckets) issues.push(...bucketIssues(path, b, most));
  return issues;
}

/** Times that must come in order: the start before the end, each sample after the one before. */
function timeIssues(at: string, r: RunResult): FieldIssue[] {
  const started = Date.parse(r.startedAt);
  const ended = Date.parse(r.endedAt);
  if (Number.isNaN(started)) return [{ path: join(at, 'startedAt'), message: 'is not a date and time' }];
  if (Number.isNaN(ended)) return [{ path: join(at, 'endedAt'), message: 'is not a date and time' }];
  if (ended < started)
    return [
      { path: join(at, 'endedAt'), message: `is ${r.endedAt}, before the start (startedAt ${r.startedAt})` },
    ];
  for (let i = 1; i < r.samples.length; i++) {
    const s = r.samples[i]!;
    const before = r.samples[i - 1]!;
    if (s.seq <= before.seq)
      return [
        {
          path: join(at, `samples.${i}.seq`),
          message: `is ${s.seq}, not after the sample before it (${before.seq})`,
        },
      ];
    if (s.elapsedSeconds < before.elapsedSeconds) {
      return [
        {
          path: join(at, `samples.${i}.elapsedSeconds`),
          message: `is ${s.elapsedSeconds}, before the sample before it (${before.elapsedSeconds})`,
        },
      ];
    }
  }
  return [];
}

/** Where one result contradicts itself (`at`: its place in the file, e.g. "outcomes.2.result"); none when it adds up. */
export function resultArithmeticIssues(r: RunResult, at = ''): FieldIssue[] {
  const issues = [...countIssues(at, r.requests, r.statusCodes, r.errors), ...timeIssues(at, r)];
  if (r.shard) {
    const report = r.shard.report;
    issues.push(...reportIssues(join(at, 'shard.report'), report));
    // A shard's result is its report's counts: merge adds the report's, which must be the ones shown.
    for (const field of ['total', 'responses', 'ok', 'errors'] as const) {
      if (report.counts.requests[field] !== r.requests[field]) {
        issues.push({
          path: join(at, `shard.report.counts.requests.${field}`),
          message: `is ${n(report.counts.requests[field])}, not the result's ${n(r.requests[field])} (requests.${field})`,
        });
      }
    }
  }
  return issues;
}

/** Every result of a saved file, each at its place: a run's list, a comparison's cells, a search's steps. */
export function resultsArithmeticIssues(results: readonly { result: RunResult; at: string }[]): FieldIssue[] {
  return results.flatMap(({ result, at }) => resultArithmeticIssues(result, at));
}
