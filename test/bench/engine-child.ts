/**
 * One scenario run as a run job (electron/jobs/run.ts, as the hosts run it) in a process of its own, so the benchmark measures the
 * engine's CPU time and memory the way it measures the reference tools' (a process each).
 * Argument: a JSON ScenarioInput with one target. Prints one JSON line (EngineOutcome).
 */
import { runRunner } from '../../electron/jobs/run.ts';
import { startTarget } from '../../electron/jobs/target-run.ts';
import type { RunResult } from '../../shared/model/result.ts';
import { scenarioSchema } from '../../shared/model/scenario.ts';

export interface EngineOutcome {
  status: RunResult['status'];
  error: string | null;
  /** e.g. "native 0.1.0" */
  engine: string;
  requests: number;
  /** Non-2xx responses plus transport errors. */
  errors: number;
  seconds: number;
  requestsPerSecond: number;
  /** Open model: requests sent, late (over the tolerance) and never sent. */
  sent: number;
  late: number | null;
  dropped: number | null;
  /** This whole process's CPU seconds from start to end of the run (every thread). */
  runCpuSeconds: number;
  /**
   * The engine threads' CPU seconds on the load (the result's per-tick cpuPercent over the run;
   * the coordinator's own, generator.coordinatorCpuSeconds, is left out of it).
   */
  workerCpuSeconds: number;
  /** The host (main) thread's CPU seconds over the run: what the run job and its events cost. */
  hostThreadCpuSeconds: number;
  /** Peak resident set size of this process, KiB. */
  maxRssKiB: number;
  /** Latency in ms (null without a response). */
  mean: number | null;
  p50: number | null;
  p95: number | null;
  p99: number | null;
  max: number | null;
  /** Scheduled runs: how late requests went out (actual minus intended send), ms. */
  sendLateP50: number | null;
  sendLateP99: number | null;
  /** Open model: requests more than 10 ms late in the measured schedule's first second, and the worst per-sample send-lateness p99 there (ms). */
  firstSecondLate: number;
  firstSecondSendLateP99: number;
  /** Open model: the warm phase's time and the connections it opened (RunResult.warm); null without one. */
  warmSeconds: number | null;
  warmConnections: number | null;
  alpn: string | null;
  /** The Server header. */
  server: string | null;
}

const scenario = scenarioSchema.parse(JSON.parse(process.argv[2] ?? ''));
const cpuBefore = process.cpuUsage();
const hostBefore = process.threadCpuUsage();
let r: RunResult | undefined;
// A host would send these events on.
const run = runRunner.start(
  scenario,
  (event) => {
    if (event.type === 'result') r ??= event.result;
  },
  {
    jobId: 'run-bench',
    appVersion: 'bench',
    startTarget,
    checkTarget: () => Promise.resolve({ ok: true }),
  },
);
await run.done;
const cpu = process.cpuUsage(cpuBefore);
const host = process.threadCpuUsage(hostBefore);
if (!r) throw new Error('the run returned no result');

// The measured samples (the warm-up's left out) that begin within the schedule's first second.
const measured = r.samples.filter((s) => !s.warmup);
const startOf = (s: (typeof measured)[number]) => s.elapsedSeconds - s.intervalSeconds;
const firstSecond = measured.filter((s) => startOf(s) < startOf(measured[0]!) + 1 - 1e-9);

const outcome: EngineOutcome = {
  status: r.status,
  error: r.error?.message ?? null,
  engine: `${r.generator.engine} ${r.generator.engineVersion}`,
  requests: r.requests.total,
  errors: r.requests.errors + r.requests.non2xx,
  seconds: r.durationSeconds,
  requestsPerSecond: r.throughput.requestsPerSecond,
  sent: Math.round(r.throughput.sentRate * r.durationSeconds),
  late: r.requests.late,
  dropped: r.requests.dropped,
  runCpuSeconds: (cpu.user + cpu.system) / 1e6,
  workerCpuSeconds: r.samples.reduce((a, s) => a + ((s.cpuPercent ?? 0) / 100) * s.intervalSeconds, 0),
  hostThreadCpuSeconds: (host.user + host.system) / 1e6,
  maxRssKiB: process.resourceUsage().maxRSS,
  mean: r.latency?.mean ?? null,
  p50: r.latency?.percentiles['50'] ?? null,
  p95: r.latency?.percentiles['95'] ?? null,
  p99: r.latency?.percentiles['99'] ?? null,
  max: r.latency?.max ?? null,
  sendLateP50: r.sendLateness?.percentiles['50'] ?? null,
  sendLateP99: r.sendLateness?.percentiles['99'] ?? null,
  firstSecondLate: firstSecond.reduce((n, s) => n + (s.late ?? 0), 0),
  firstSecondSendLateP99: Math.max(0, ...firstSecond.map((s) => s.sendLatenessP99 ?? 0)),
  warmSeconds: r.warm?.seconds ?? null,
  warmConnections: r.warm?.ready ?? null,
  alpn: r.tls?.alpn ?? null,
  server: r.server?.software ?? null,
};
process.stdout.write(`${JSON.stringify(outcome)}\n`);
process.exit(0);
