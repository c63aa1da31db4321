/**
 * A coordinated-omission-correct reference for the open model (issue 24 item 5): wrk2, which
 * Debian does not package, used when the WRK2 environment variable gives its binary (built
 * from github.com/giltene/wrk2), or else when a `wrk2` is on the PATH. Its latencies count
 * from each request's scheduled time, as Trebuchet's open model does.
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { runMeasured } from '../helpers/reference-tools.ts';
import { placed } from './pinning.ts';

/** The first executable `name` in the PATH's folders, or null. */
function onPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {
      // not in this folder
    }
  }
  return null;
}

export const WRK2 = process.env.WRK2 || onPath('wrk2');

/** What the bench says when no CO-correct reference is set. */
export const NO_WRK2 =
  'No CO-correct reference: no wrk2 found (set WRK2 to a wrk2 binary, WRK2=/path/to/wrk2/wrk npm run bench, or put one named wrk2 on the PATH) for its p50/p99/p99.9 and CPU at the same rates.';

export interface Wrk2Figures {
  requestsPerSecond: number;
  /** Responses it counted ("N requests in 5.00s"): short runs send under the rate asked (its warm-up). */
  requests: number;
  p50: number | null;
  p99: number | null;
  p999: number | null;
  cpuSeconds: number;
}

const UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

/** wrk2 --latency's "Latency Distribution" line for a percentile ("99.000%    3.51ms"), in ms. */
export function wrk2Percentile(out: string, percentile: string): number | null {
  const m = new RegExp(`^\\s*${percentile.replace('.', '\\.')}%\\s+([\\d.]+)(us|ms|s|m)\\b`, 'm').exec(out);
  return m ? Number(m[1]) * UNIT_MS[m[2]!]! : null;
}

/** wrk2's count of responses ("  49993 requests in 5.00s, 12.34MB read"); null when it printed none. */
export function wrk2Requests(out: string): number | null {
  const m = /^\s*(\d+) requests in /m.exec(out);
  return m ? Number(m[1]) : null;
}

/** wrk2 at `rate` req/s for `seconds` with `connections`, one thread (as wrk -t1 elsewhere). */
export async function runWrk2(
  url: string,
  rate: number,
  seconds: number,
  connections = 100,
): Promise<Wrk2Figures> {
  if (!WRK2) throw new Error(NO_WRK2);
  const args = ['-t1', `-c${connections}`, `-d${seconds}s`, `-R${rate}`, '--latency', url];
  const m = await runMeasured(...placed(WRK2, args), (seconds + 60) * 1000);
  if (m.exitCode !== 0) throw new Error(`wrk2 exited ${m.exitCode}: ${m.stderr.trim()}`);
  const rps = /^Requests\/sec:\s+([\d.]+)/m.exec(m.stdout);
  return {
    requestsPerSecond: rps ? Number(rps[1]) : Number.NaN,
    requests: wrk2Requests(m.stdout) ?? Number.NaN,
    p50: wrk2Percentile(m.stdout, '50.000'),
    p99: wrk2Percentile(m.stdout, '99.000'),
    p999: wrk2Percentile(m.stdout, '99.900'),
    cpuSeconds: m.cpuSeconds,
  };
}
