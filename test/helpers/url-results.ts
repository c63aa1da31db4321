/** A result of a target with a list of requests, its per-URL table filled in, for formatter and UI tests. */
import type { RunResult } from '../../shared/model/result.ts';
import { runResultSchema } from '../../shared/model/result.ts';
import type { UrlRow } from '../../shared/model/url-table.ts';
import { runResultFixture } from './run-result.ts';

const ORIGIN = 'http://127.0.0.1:8080';

/**
 * `count` rows (/u0, /u1, …: row i answered 100 + i times, 200 except five 404s on /u1 and
 * two timeouts on /u2), and with `folded` an "every other" row of that many URLs; the run's
 * totals are the rows' sums, measured over 2 s.
 */
export function listResultFixture(count: number, folded = 0): RunResult {
  const rows: UrlRow[] = Array.from({ length: count }, (_, i) => {
    const requests = 100 + i;
    const errors = i === 2 ? { timeout: 2 } : {};
    const failed = i === 2 ? 2 : 0;
    const statusCodes: Record<string, number> =
      i === 1 ? { 200: requests - 5, 404: 5 } : { 200: requests - failed };
    return {
      request: { method: 'GET', url: `${ORIGIN}/u${i}` },
      requests,
      statusCodes,
      errors,
      bytesIn: requests * (250 + i * 1000),
      latency: { p50: 1 + i / 10, p99: 5 + i / 10, max: 9 + i / 10 },
    };
  });
  if (folded > 0) {
    rows.push({
      request: null,
      requests: 50,
      statusCodes: { 200: 50 },
      errors: {},
      bytesIn: 50 * 300,
      latency: { p50: 2, p99: 4, max: 6 },
    });
  }
  const total = rows.reduce((a, r) => a + r.requests, 0);
  const errors = rows.reduce((a, r) => a + (r.errors.timeout ?? 0), 0);
  const statusCodes: Record<string, number> = {};
  for (const r of rows)
    for (const [c, n] of Object.entries(r.statusCodes)) statusCodes[c] = (statusCodes[c] ?? 0) + n;
  const base = runResultFixture();
  return runResultSchema.parse({
    ...base,
    durationSeconds: 2,
    target: {
      ...base.target,
      url: `${ORIGIN}/u0`,
      requests: rows.flatMap((r) =>
        r.request ? [{ method: 'GET', url: r.request.url, headers: [], body: { kind: 'none' } }] : [],
      ),
    },
    requests: {
      ...base.requests,
      total,
      responses: total - errors,
      ok: statusCodes['200']!,
      non2xx: statusCodes['404'] ?? 0,
      errors,
    },
    statusCodes,
    errors:
      errors > 0 ? [{ kind: 'timeout', count: errors, message: 'no complete response within 5000 ms' }] : [],
    bytes: { ...base.bytes, inTotal: rows.reduce((a, r) => a + r.bytesIn, 0) },
    urls: { rows, folded },
  });
}
