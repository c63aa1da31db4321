/**
 * Runs a load generator as a child process and reads its figures, for the benchmark and
 * for cross-checks against reference tools (wrk, autocannon's CLI, ab, h2load). The child's
 * CPU time (user + system, all threads) comes from bash's `times` builtin, which reports the
 * resource usage of the shell's finished children: no extra package needed.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const AUTOCANNON_BIN = resolve(import.meta.dirname, '../../node_modules/.bin/autocannon');

export interface Measured {
  stdout: string;
  stderr: string;
  exitCode: number | null;
  /** CPU seconds the command used (user + system, every thread and child). */
  cpuSeconds: number;
  wallSeconds: number;
}

/** "0m2.345s" -> 2.345 */
function bashTime(text: string): number {
  const m = /^(\d+)m([\d.]+)s$/.exec(text.trim());
  if (!m) throw new Error(`unexpected bash times output: ${text}`);
  return Number(m[1]) * 60 + Number(m[2]);
}

/** Runs `command args...` under bash and measures its CPU time. Killed after timeoutMs. */
export async function runMeasured(
  command: string,
  args: readonly string[],
  timeoutMs: number,
  env: Record<string, string> = {},
): Promise<Measured> {
  const dir = mkdtempSync(join(tmpdir(), 'trebuchet-times-'));
  const timesFile = join(dir, 'times');
  const started = process.hrtime.bigint();
  try {
    const child = spawn(
      'bash',
      ['-c', '"$@"; rc=$?; times > "$TIMES_OUT"; exit $rc', 'bash', command, ...args],
      {
        env: { ...process.env, ...env, TIMES_OUT: timesFile },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    const exitCode = await new Promise<number | null>((res, rej) => {
      child.once('error', rej);
      child.once('close', (code) => res(code));
    });
    clearTimeout(timer);
    const wallSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    // Line 1: the shell itself; line 2: its children (the tool), as "user sys".
    const children = readFileSync(timesFile, 'utf8').trim().split('\n')[1] ?? '';
    const [user = '', sys = ''] = children.trim().split(/\s+/);
    return { stdout, stderr, exitCode, cpuSeconds: bashTime(user) + bashTime(sys), wallSeconds };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What every generator's run boils down to. */
export interface LoadFigures {
  requests: number;
  seconds: number;
  requestsPerSecond: number;
  /** Non-2xx responses plus transport errors, as the tool reports them. */
  errors: number;
}

const num = (text: string | undefined, what: string, output: string): number => {
  const n = Number(text);
  if (text === undefined || !Number.isFinite(n)) throw new Error(`cannot read ${what} from:\n${output}`);
  return n;
};

const SECONDS_OF: Record<string, number> = { us: 1e-6, ms: 1e-3, s: 1, m: 60 };

/** wrk: "124888 requests in 1.10s, 28.47MB read", "Requests/sec: 113540.22", optional error lines. */
export function parseWrk(output: string): LoadFigures {
  const m = /(\d+) requests in ([\d.]+)(us|ms|s|m),/.exec(output);
  const requests = num(m?.[1], 'wrk requests', output);
  const seconds = num(m?.[2], 'wrk duration', output) * SECONDS_OF[m![3]!]!;
  const rps = num(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1], 'wrk Requests/sec', output);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  const socketErrors = socket ? socket.slice(1).reduce((a, b) => a + Number(b), 0) : 0;
  return { requests, seconds, requestsPerSecond: rps, errors: non2xx + socketErrors };
}

/** autocannon --json: requests.total over duration (its own mean is per-second samples). */
export function parseAutocannonJson(output: string): LoadFigures {
  const start = output.indexOf('{');
  const json = JSON.parse(output.slice(start)) as {
    duration: number;
    requests: { total: number };
    errors: number;
    timeouts: number;
    non2xx: number;
  };
  const requests = json.requests.total;
  return {
    requests,
    seconds: json.duration,
    requestsPerSecond: requests / json.duration,
    errors: json.errors + json.non2xx,
  };
}

/** ab: "Complete requests", "Time taken for tests", "Requests per second", failures. */
export function parseAb(output: string): LoadFigures {
  const requests = num(/Complete requests:\s+(\d+)/.exec(output)?.[1], 'ab Complete requests', output);
  const seconds = num(/Time taken for tests:\s+([\d.]+) seconds/.exec(output)?.[1], 'ab time taken', output);
  const rps = num(/Requests per second:\s+([\d.]+)/.exec(output)?.[1], 'ab Requests per second', output);
  const failed = Number(/Failed requests:\s+(\d+)/.exec(output)?.[1] ?? 0);
  const non2xx = Number(/Non-2xx responses:\s+(\d+)/.exec(output)?.[1] ?? 0);
  return { requests, seconds, requestsPerSecond: rps, errors: failed + non2xx };
}

/** h2load: "finished in 8.00s, 12345.67 req/s", "requests: N total, ... N succeeded, N failed, N errored". */
export function parseH2load(output: string): LoadFigures {
  const fin = /finished in ([\d.]+)(us|ms|s|m), ([\d.]+) req\/s/.exec(output);
  const seconds = num(fin?.[1], 'h2load duration', output) * SECONDS_OF[fin![2]!]!;
  const rps = num(fin?.[3], 'h2load req/s', output);
  const req =
    /requests: (\d+) total, \d+ started, (\d+) done, (\d+) succeeded, (\d+) failed, (\d+) errored/.exec(
      output,
    );
  const done = num(req?.[2], 'h2load requests done', output);
  const status = /status codes: (\d+) 2xx/.exec(output);
  const ok2xx = num(status?.[1], 'h2load 2xx count', output);
  return { requests: done, seconds, requestsPerSecond: rps, errors: done - ok2xx };
}
