/**
 * http_load's report layout (http_load 12mar2006, seed 004), each figure printed with C's %g
 * as http_load prints it:
 *
 *   49 fetches, 2 max parallel, 289884 bytes, in 10.0148 seconds
 *   5916 mean bytes/connection
 *   4.89274 fetches/sec, 28945.5 bytes/sec
 *   msecs/connect: 28.8932 mean, 44.243 max, 24.488 min
 *   msecs/first-response: 63.5362 mean, 81.624 max, 57.803 min
 *   HTTP response codes:
 *     code 200 -- 49
 *
 * http_load writes each failed fetch to stderr as it happens ("URL: Connection refused");
 * here they come first, one line per kind with its count. "bytes" are body bytes, as
 * http_load counts them. The connect and first-response times need the timing phases of
 * the native engine; another engine's report says they were not measured.
 */
import type { PhaseStats, RunResult } from '../model/result.ts';
import { concurrencyLevel, sortedStatusCodes } from '../verdict/run-figures.ts';
import { formatCG as g } from '../figures/units.ts';

/** http_load's "max parallel": the closed loop's concurrency, or the open model's peak in flight per tick. */
function maxParallel(r: RunResult): number {
  const concurrency = concurrencyLevel(r);
  if (concurrency !== null) return Math.min(concurrency, r.requests.total);
  return r.samples.reduce((max, s) => (s.warmup ? max : Math.max(max, s.inFlight)), 0);
}

function msecsLine(label: string, stats: PhaseStats | undefined, r: RunResult): string {
  if (!stats) return `msecs/${label}: not measured by this engine (${r.generator.engine})`;
  return `msecs/${label}: ${g(stats.mean)} mean, ${g(stats.max)} max, ${g(stats.min)} min`;
}

/** What http_load prints on stderr while it runs: why the run could not start, the failed fetches by kind. */
function errorLines(r: RunResult): string[] {
  const fetches = r.errors
    .filter((e) => e.kind !== 'slo' && e.kind !== 'timeout')
    .map((e) => `${r.target.url}: ${e.message} (${e.count} ${e.count === 1 ? 'time' : 'times'})`);
  return r.error ? [`${r.target.url}: ${r.error.message}`, ...fetches] : fetches;
}

export function formatHttpLoadReport(r: RunResult): string {
  const fetches = r.requests.total;
  const bytes = r.bytes.inBody;
  const seconds = r.durationSeconds;
  const lines = [
    ...errorLines(r),
    `${fetches} fetches, ${maxParallel(r)} max parallel, ${g(bytes)} bytes, in ${g(seconds)} seconds`,
  ];
  if (fetches > 0) lines.push(`${g(bytes / fetches)} mean bytes/connection`);
  if (seconds > 0) lines.push(`${g(fetches / seconds)} fetches/sec, ${g(bytes / seconds)} bytes/sec`);
  if (fetches > 0) {
    // http_load prints first-response times only when some fetch got a response.
    lines.push(msecsLine('connect', r.phases?.setup ?? r.phases?.connect, r));
    if (r.requests.responses > 0) lines.push(msecsLine('first-response', r.phases?.waiting, r));
    if (r.phases && r.options.keepAlive) {
      lines.push(
        '(keep-alive was on: a fetch on a reused connection counts 0 msecs/connect; http_load opens a connection per fetch)',
      );
    }
  }
  const timeouts = r.errors.find((e) => e.kind === 'timeout')?.count ?? 0;
  if (timeouts > 0) lines.push(`${timeouts} timeouts`);
  lines.push('HTTP response codes:');
  for (const code of sortedStatusCodes(r)) {
    lines.push(`  code ${code.padStart(3, '0')} -- ${r.statusCodes[code]}`);
  }
  return lines.join('\n') + '\n';
}
