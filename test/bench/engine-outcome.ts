/**
 * What the bench reads off one Trebuchet run's result (the CLI's --json file, or a run job's
 * result in engine-child.ts): its counts, latencies, send lateness, tick pause, the open model's first
 * second and the engine threads' own CPU (from the samples).
 */
import type { RunResult } from '../../shared/model/result.ts';

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
  /**
   * The engine threads' CPU seconds on the load (the result's per-tick cpuPercent over the run;
   * the coordinator's own, generator.coordinatorCpuSeconds, is left out of it).
   */
  workerCpuSeconds: number;
  /** Latency in ms (null without a response). */
  mean: number | null;
  p50: number | null;
  p95: number | null;
  p99: number | null;
  max: number | null;
  /** Scheduled runs: how late requests went out (actual minus intended send), ms. */
  sendLateP50: number | null;
  sendLateP99: number | null;
  /** How long each tick held up a sending thread (generator.tickPause), p99 and max, ms; null without it. */
  tickPauseP99: number | null;
  tickPauseMax: number | null;
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

export function engineOutcome(r: RunResult): EngineOutcome {
  // The measured samples (the warm-up's left out) that begin within the schedule's first second.
  const measured = r.samples.filter((s) => !s.warmup);
  const startOf = (s: (typeof measured)[number]) => s.elapsedSeconds - s.intervalSeconds;
  const firstSecond = measured.filter((s) => startOf(s) < startOf(measured[0]!) + 1 - 1e-9);
  return {
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
    workerCpuSeconds: r.samples.reduce((a, s) => a + ((s.cpuPercent ?? 0) / 100) * s.intervalSeconds, 0),
    mean: r.latency?.mean ?? null,
    p50: r.latency?.percentiles['50'] ?? null,
    p95: r.latency?.percentiles['95'] ?? null,
    p99: r.latency?.percentiles['99'] ?? null,
    max: r.latency?.max ?? null,
    sendLateP50: r.sendLateness?.percentiles['50'] ?? null,
    sendLateP99: r.sendLateness?.percentiles['99'] ?? null,
    tickPauseP99: r.generator.tickPause?.p99 ?? null,
    tickPauseMax: r.generator.tickPause?.max ?? null,
    firstSecondLate: firstSecond.reduce((n, s) => n + (s.late ?? 0), 0),
    firstSecondSendLateP99: Math.max(0, ...firstSecond.map((s) => s.sendLatenessP99 ?? 0)),
    warmSeconds: r.warm?.seconds ?? null,
    warmConnections: r.warm?.ready ?? null,
    alpn: r.tls?.alpn ?? null,
    server: r.server?.software ?? null,
  };
}
