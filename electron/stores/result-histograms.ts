/**
 * A read result's encoded latency histograms against its counts: one latency is recorded per
 * response (electron/engine/recording/recorder.ts), so the histogram holds exactly `requests.responses`
 * values, and a shard's report's one its own. Each histogram is looked at before hdr-histogram-js
 * decodes it: inflated with a cap (a zlib bomb stops there) and its header read, so a histogram
 * claiming another layout (a range that would take gigabytes of counts) is refused unread. The
 * rest of a result's arithmetic is shared/records/result-checks.ts's.
 */
import zlib from 'node:zlib';
import type { RunResult } from '../../shared/model/result.ts';
import type { FieldIssue } from '../../shared/model/validation.ts';
import { formatCount } from '../../shared/figures/units.ts';
import { HIGHEST_TRACKABLE_US } from '../engine/recording/hdr-layout.ts';
import { decodeHistogram } from '../engine/recording/histogram.ts';

/** HdrHistogram's V2 compressed encoding: this cookie (its low nibble aside), the length, zlib data. */
const V2_COMPRESSED_COOKIE = 0x1c849304;
/** Our layout's encoding, inflated: a 40-byte header and at most 9 bytes per bucket (23,552 of them). */
const MAX_INFLATED_BYTES = 40 + 23_552 * 9;

/** Why an encoded histogram is not one of ours (its layout, or not a histogram at all); null when it is. */
function layoutProblem(encoded: string): string | null {
  const bytes = Buffer.from(encoded, 'base64');
  if (bytes.length < 8 || (bytes.readInt32BE(0) & ~0xf0) !== V2_COMPRESSED_COOKIE)
    return 'is not an HdrHistogram (V2, compressed, base64)';
  let inflated: Buffer;
  try {
    inflated = zlib.inflateSync(bytes.subarray(8, 8 + bytes.readInt32BE(4)), {
      maxOutputLength: MAX_INFLATED_BYTES,
    });
  } catch {
    return `is not an HdrHistogram of at most ${formatCount(MAX_INFLATED_BYTES)} bytes inflated`;
  }
  if (inflated.length < 40) return 'is an HdrHistogram cut short';
  const digits = inflated.readInt32BE(12);
  const lowest = Number(inflated.readBigInt64BE(16));
  const highest = Number(inflated.readBigInt64BE(24));
  if (digits < 1 || digits > 3 || lowest < 1 || highest > HIGHEST_TRACKABLE_US)
    return `records ${digits} significant digits from ${lowest} to ${highest} us, not the 3 from 1 to ${HIGHEST_TRACKABLE_US} a result's histogram has`;
  return null;
}

/** The values an encoded histogram holds, or why it cannot be read. */
function valuesIn(encoded: string): { count: number } | { problem: string } {
  const problem = layoutProblem(encoded);
  if (problem) return { problem };
  try {
    return { count: decodeHistogram(encoded).totalCount };
  } catch {
    return { problem: 'is not an HdrHistogram that can be read' };
  }
}

function histogramIssue(path: string, encoded: string, responses: number, of: string): FieldIssue[] {
  const held = valuesIn(encoded);
  if ('problem' in held) return [{ path, message: held.problem }];
  return held.count === responses
    ? []
    : [
        {
          path,
          message: `holds ${formatCount(held.count)} latencies, not the ${formatCount(responses)} responses (${of})`,
        },
      ];
}

/** Where a result's histograms disagree with its counts (`at`: its place in the file); none when they agree. */
export function histogramIssues(r: RunResult, at = ''): FieldIssue[] {
  const join = (field: string) => (at ? `${at}.${field}` : field);
  const issues: FieldIssue[] = [];
  if (r.histogram !== null)
    issues.push(
      ...histogramIssue(join('histogram'), r.histogram, r.requests.responses, 'requests.responses'),
    );
  const report = r.shard?.report;
  if (report && report.histogram !== null) {
    issues.push(
      ...histogramIssue(
        join('shard.report.histogram'),
        report.histogram,
        report.counts.requests.responses,
        'shard.report.counts.requests.responses',
      ),
    );
  }
  return issues;
}
