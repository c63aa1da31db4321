import os from 'node:os';
import { VERDICT } from '../../shared/model/defaults.ts';
import { scheduledRate } from '../../shared/stages/load-plan.ts';
import {
  RESULT_VERSION,
  type GeneratorFacts,
  type RunResult,
  type Sample,
  type ServerFacts,
  type TlsFacts,
  type Warning,
} from '../../shared/model/result.ts';
import { foldShortWindows, weightedRate, windowStats } from '../../shared/figures/windows.ts';
import { CPU_SCOPE } from './cpu.ts';
import type { ClassifiedError } from './errors.ts';
import { endpointOf } from './native/request-bytes.ts';
import { reportedRoute } from '../../shared/model/route.ts';
import { originFacts } from '../../shared/model/request-list.ts';
import { sampleTotals, type RunTotals } from './recording/run-totals.ts';
import { evaluateThresholds } from './thresholds.ts';
import type { LoadOutcome, RunSpec } from './types.ts';

/** Which generator produced (or would have produced) a result. */
export interface EngineId {
  name: GeneratorFacts['engine'];
  version: string;
}

/** What the result needs to say who ran what; a RunSpec has all of it. */
export type RunIdentity = Pick<
  RunSpec,
  'runId' | 'scenarioName' | 'target' | 'load' | 'options' | 'appVersion'
>;

/** What the pre-flight learnt about the target before any load. */
export interface TargetFacts {
  tls: TlsFacts | null;
  server: ServerFacts;
  /** The pre-flight request's round trip (written to last byte), ms: what the open model's warm pool is sized from. */
  roundTripMs?: number;
}

/** A generator CPU figure at or above this (percent of one core) counts as running flat out: the verdict's. */
export const SATURATED_CPU_PERCENT = VERDICT.clientBoundCpuPercent;
/** Share of the measured samples that must run flat out for the run to count as saturated. */
const SATURATED_SHARE = 0.5;
/** A sample covering at least this share of the interval counts as full (the last one rarely does). */
const FULL_SAMPLE_SHARE = 0.9;

/** What the CPU figures are read from: a run's samples, or one worker's windows of them. */
export type CpuSample = Pick<Sample, 'warmup' | 'cpuPercent' | 'intervalSeconds'>;

export interface CpuFacts {
  mean: number;
  max: number;
  saturated: boolean;
}

/**
 * Generator CPU over the measured samples (warm-up excluded), by the rule the server's CPU
 * follows too (shared/figures/windows.ts): a short window (the run's last, teardown included)
 * folded into the one before it, the mean weighted by window length, so it is never above
 * the max (a 1 s run's short last window at 40% had made it "25% on average, max 24%"). The
 * saturation verdict counts the folded windows.
 */
export function cpuFacts(samples: readonly CpuSample[], sampleIntervalMs: number): CpuFacts {
  const measured = samples.filter((s) => !s.warmup && s.cpuPercent !== undefined);
  const windows = foldShortWindows(measured, sampleIntervalMs / 1000, (a, b) => ({
    ...b,
    cpuPercent: weightedRate(a.cpuPercent!, a.intervalSeconds, b.cpuPercent!, b.intervalSeconds),
    intervalSeconds: a.intervalSeconds + b.intervalSeconds,
  }));
  const stats = windowStats(windows, (w) => w.cpuPercent);
  const flatOut = windows.filter((s) => s.cpuPercent! >= SATURATED_CPU_PERCENT).length;
  return {
    mean: stats?.mean ?? 0,
    max: stats?.max ?? 0,
    saturated: windows.length > 0 && flatOut / windows.length >= SATURATED_SHARE,
  };
}

function isFull(s: Pick<Sample, 'intervalSeconds'>, sampleIntervalMs: number): boolean {
  return s.intervalSeconds * 1000 >= sampleIntervalMs * FULL_SAMPLE_SHARE;
}

/**
 * The generator's facts; cpu: the run's (the workers' sum), workers: each engine worker's,
 * coordinatorCpuSeconds: the coordinator's own (left out of the workers').
 */
export function generatorFacts(
  engine: EngineId,
  appVersion: string,
  cpu: CpuFacts,
  workers: readonly CpuFacts[] = [cpu],
  coordinatorCpuSeconds?: number,
  tickPause?: GeneratorFacts['tickPause'],
): GeneratorFacts {
  const cpus = os.cpus();
  return {
    engine: engine.name,
    engineVersion: engine.version,
    appVersion,
    nodeVersion: process.versions.node,
    platform: `${process.platform}-${process.arch}`,
    cpuModel: cpus[0]?.model.trim() || 'unknown',
    cpuCores: Math.max(1, os.availableParallelism()),
    cpuPercentMean: cpu.mean,
    cpuPercentMax: cpu.max,
    // Each worker runs on a core of its own: one flat out limits the load.
    saturated: workers.some((w) => w.saturated),
    cpuScope: CPU_SCOPE,
    workers: workers.map((w) => ({ cpuPercentMean: w.mean, cpuPercentMax: w.max, saturated: w.saturated })),
    ...(coordinatorCpuSeconds === undefined ? {} : { coordinatorCpuSeconds }),
    ...(tickPause === undefined ? {} : { tickPause }),
  };
}

export interface RateStats {
  stdev: number;
  min: number;
  max: number;
}

/**
 * Spread of the per-sample request rates over the measured, full samples (warm-up and a
 * short last window would skew it); falls back to every measured sample, then to the mean.
 */
export function rateStats(samples: readonly Sample[], sampleIntervalMs: number, mean: number): RateStats {
  const measured = samples.filter((s) => !s.warmup);
  const full = measured.filter((s) => isFull(s, sampleIntervalMs));
  const use = full.length > 0 ? full : measured;
  if (use.length === 0) return { stdev: 0, min: mean, max: mean };
  const rates = use.map((s) => s.requestsPerSecond);
  const avg = rates.reduce((a, b) => a + b, 0) / rates.length;
  const variance = rates.reduce((a, r) => a + (r - avg) ** 2, 0) / rates.length;
  return { stdev: Math.sqrt(variance), min: Math.min(...rates), max: Math.max(...rates) };
}

/** Warnings every result of this scenario carries, whatever the engine measured. */
function scenarioWarnings(id: RunIdentity, tls: TlsFacts | null): Warning[] {
  const out: Warning[] = [];
  if (id.target.url.startsWith('https:') && !id.options.tls.verify) {
    const why = tls?.authorizationError
      ? ` (the server's certificate would be rejected: ${tls.authorizationError})`
      : '';
    out.push({
      code: 'tls-not-verified',
      message: `Certificate verification was off: the server's identity was not checked${why}.`,
    });
  }
  if (id.load.model === 'closed') {
    out.push({
      code: 'closed-loop-latency',
      message:
        'Closed model: each connection waits for an answer before sending again, so a slow server is sent less load and the latencies leave out the time requests would have queued (coordinated omission). Use the open model (constant rate) for latency under a fixed load.',
    });
  }
  return out;
}

/** What a result says beside its totals. */
export interface ResultFacts {
  status: RunResult['status'];
  error: ClassifiedError | null;
  engine: EngineId;
  startedAt?: Date;
  endedAt?: Date;
  /** Every sample of the run, warm-up included; none when it sent no load. */
  samples: Sample[];
  tls: TlsFacts | null;
  /** What the pre-flight learnt; null: only what the URL says. */
  server: ServerFacts | null;
  /** What the load generator reported beyond its recorder; null when it never reported. */
  outcome: LoadOutcome | null;
  warnings: Warning[];
  /** Each engine worker's CPU; absent: one, whose CPU is the samples'. */
  workerCpu?: CpuFacts[];
  /** CPU-seconds the run's coordinator spent on its own (see GeneratorFacts). */
  coordinatorCpuSeconds?: number;
  /** Each sending thread's pause per tick, over all of them (see GeneratorFacts). */
  tickPause?: GeneratorFacts['tickPause'];
}

/** What the server's responses to no request mean for the figures. */
function unsolicitedWarning(n: number): Warning {
  return {
    code: 'other',
    message: `The server sent ${n} response(s) that answered no request (a second answer to one request, an answer before its request was written, or HTTP/2 frames on a stream already answered): a protocol error of the server's. They are counted apart, not as requests; each closed its connection, and requests not answered on it went out again on a new one.`,
  };
}

/** The one RunResult builder: totals (from the recorder or the samples) and the run's facts. */
export function runResult(id: RunIdentity, totals: RunTotals, facts: ResultFacts): RunResult {
  const { samples, outcome } = facts;
  const { requests } = totals;
  const seconds = openRunSeconds(outcome) ?? totals.measuredSeconds;
  const perSecond = (n: number): number => (seconds > 0 ? n / seconds : 0);
  const rps = perSecond(requests.total);
  const spread = rateStats(samples, id.options.sampleIntervalMs, rps);
  const successRatio = requests.total > 0 ? requests.ok / requests.total : 0;
  const cpu = cpuFacts(samples, id.options.sampleIntervalMs);
  const tls = outcome?.tls ?? facts.tls;
  const open = id.load.model === 'open';
  const now = new Date();

  const warnings: Warning[] = [
    // A run that sent no load says nothing about how it would have been measured.
    ...(samples.length > 0 ? scenarioWarnings(id, tls) : []),
    ...(outcome?.warnings ?? []),
    ...facts.warnings,
  ];
  if (requests.inFlightAtEnd > 0) {
    warnings.push({
      code: 'in-flight-at-end',
      message: `${requests.inFlightAtEnd} request(s) were still in flight when the run ended; they are not in the totals.`,
    });
  }
  const unsolicited = requests.unsolicited ?? 0;
  if (unsolicited > 0) warnings.push(unsolicitedWarning(unsolicited));
  const workers = facts.workerCpu ?? [cpu];
  const busiest = workers.reduce((a, w) => (w.mean > a.mean ? w : a));
  if (workers.some((w) => w.saturated)) {
    const who = workers.length > 1 ? `The busiest of ${workers.length} engine workers` : 'The load generator';
    warnings.push({
      code: 'generator-saturated',
      message: `${who} used ${Math.round(busiest.mean)}% of a CPU core on average (max ${Math.round(busiest.max)}%): the client may be the bottleneck, not the server.`,
    });
  }

  const known = facts.server ?? {
    software: null,
    ...hostAndPort(id.target.url),
    documentLength: null,
    httpVersion: null,
  };
  const server: ServerFacts = {
    ...known,
    software: totals.serverSoftware ?? known.software,
    documentLength: totals.documentLength ?? known.documentLength,
    httpVersion: outcome?.httpVersion ?? known.httpVersion,
  };
  const route = reportedRoute(id.target);
  if (route !== null) server.connectedTo = route;
  const origins = originFacts(id.target, outcome?.originConnections);
  if (origins !== null) server.origins = origins;
  const attackSeconds = outcome?.attackSeconds ?? null;

  return {
    version: RESULT_VERSION,
    runId: id.runId,
    scenarioName: id.scenarioName,
    target: id.target,
    load: id.load,
    options: id.options,
    status: facts.status,
    error: facts.error,
    startedAt: (facts.startedAt ?? now).toISOString(),
    endedAt: (facts.endedAt ?? now).toISOString(),
    durationSeconds: seconds,
    attackSeconds,
    waitSeconds: outcome?.waitSeconds ?? null,
    requests: {
      ...requests,
      late: open ? requests.late : null,
      dropped: open ? (outcome?.dropped ?? 0) : null,
    },
    throughput: {
      requestsPerSecond: rps,
      requestsPerSecondStdev: spread.stdev,
      requestsPerSecondMin: spread.min,
      requestsPerSecondMax: spread.max,
      targetRate: scheduledRate(id.load),
      sentRate: sentRate(totals.sent, attackSeconds, seconds),
      bytesInPerSecond: perSecond(totals.bytes.inTotal),
    },
    bytes: totals.bytes,
    successRatio,
    latency: totals.latency,
    correctedLatency: outcome?.correctedLatency ?? null,
    sendLateness: totals.sendLateness,
    histogram: totals.histogram,
    phases: outcome?.phases ?? null,
    statusCodes: totals.statusCodes,
    errors: totals.errors,
    tls,
    server,
    generator: generatorFacts(
      facts.engine,
      id.appVersion,
      cpu,
      workers,
      facts.coordinatorCpuSeconds,
      facts.tickPause,
    ),
    thresholds: evaluateThresholds(id.options.thresholds, {
      latency: totals.latency,
      total: requests.total,
      successRatio,
      requestsPerSecond: rps,
    }),
    warnings,
    samples,
    ...(outcome?.stages ? { stages: outcome.stages } : {}),
    ...(outcome?.urls ? { urls: outcome.urls } : {}),
  };
}

/**
 * An open run's measured time: its attack plus its wait (first scheduled send to last answer,
 * vegeta's Duration total); null when the load generator reports no attack. The window the engine's
 * clock measured around it also holds the engine's start-up before the first send (30-60 ms),
 * which made "Duration 3.08 s · attack 3.02 s · wait 0.00 s" and a req/s below the rate held.
 */
export function openRunSeconds(outcome: LoadOutcome | null): number | null {
  if (!outcome || outcome.attackSeconds === null || outcome.waitSeconds === null) return null;
  const seconds = outcome.attackSeconds + outcome.waitSeconds;
  return seconds > 0 ? seconds : null;
}

/**
 * vegeta's "rate": requests sent over the attack (first to last send) when the load generator
 * reports one, else over the measured time. The measured time of an open run also holds
 * the wait for the last answers, which would put the rate below vegeta's throughput
 * (successes over attack + wait) although the schedule was kept.
 */
export function sentRate(sent: number, attackSeconds: number | null, measuredSeconds: number): number {
  if (attackSeconds !== null && attackSeconds > 0) return sent / attackSeconds;
  return measuredSeconds > 0 ? sent / measuredSeconds : 0;
}

export interface PartialFacts {
  engine: EngineId;
  startedAt?: Date;
  endedAt?: Date;
  tls?: TlsFacts | null;
  server?: ServerFacts | null;
  /** Samples received before things went wrong; their counts become the result's totals. */
  samples?: Sample[];
  warnings?: Warning[];
  workerCpu?: CpuFacts[];
  coordinatorCpuSeconds?: number;
}

/**
 * A result rebuilt from the samples alone: for a run that could not start (error set, no
 * samples), or an engine that died or stopped answering (the host only holds the samples).
 */
export function resultFromSamples(
  id: RunIdentity,
  status: RunResult['status'],
  error: ClassifiedError | null,
  facts: PartialFacts,
): RunResult {
  const samples = facts.samples ?? [];
  return runResult(id, sampleTotals(samples), {
    status,
    error,
    engine: facts.engine,
    startedAt: facts.startedAt,
    endedAt: facts.endedAt,
    samples,
    tls: facts.tls ?? null,
    server: facts.server ?? null,
    outcome: null,
    warnings: facts.warnings ?? [],
    ...(facts.workerCpu ? { workerCpu: facts.workerCpu } : {}),
    ...(facts.coordinatorCpuSeconds === undefined
      ? {}
      : { coordinatorCpuSeconds: facts.coordinatorCpuSeconds }),
  });
}

/** A run that sent no load: pre-flight failure, unreadable file, unavailable engine. */
export function failedResult(id: RunIdentity, error: ClassifiedError, facts: PartialFacts): RunResult {
  return resultFromSamples(id, 'failed', error, facts);
}

/** ab's "Server Hostname / Port / Document Path" from a target URL. */
export function hostAndPort(url: string): Pick<ServerFacts, 'hostname' | 'port' | 'documentPath'> {
  try {
    const { hostname, port, path } = endpointOf(url);
    return { hostname, port, documentPath: path };
  } catch {
    return { hostname: url, port: 0, documentPath: '/' };
  }
}
