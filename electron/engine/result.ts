import os from 'node:os';
import { REPORT_PERCENTILES } from '../../shared/defaults.ts';
import {
  ERROR_KIND_LABELS,
  RESULT_VERSION,
  type ErrorEntry,
  type ErrorKind,
  type GeneratorFacts,
  type RunResult,
  type Sample,
  type ServerFacts,
  type TlsFacts,
  type Warning,
} from '../../shared/result.ts';
import { CPU_SCOPE } from './cpu.ts';
import type { ClassifiedError } from './errors.ts';
import { encodeHistogram, latencyStats } from './histogram.ts';
import { endpointOf } from './native/request-bytes.ts';
import type { Recorder } from './recorder.ts';
import { evaluateThresholds } from './thresholds.ts';
import type { RunnerOutcome, RunSpec } from './types.ts';

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
}

/** A generator CPU figure at or above this (percent of one core) counts as running flat out. */
export const SATURATED_CPU_PERCENT = 90;
/** Share of the measured samples that must run flat out for the run to count as saturated. */
const SATURATED_SHARE = 0.5;
/** A sample covering at least this share of the interval counts as full (the last one rarely does). */
const FULL_SAMPLE_SHARE = 0.9;

export interface CpuFacts {
  mean: number;
  max: number;
  saturated: boolean;
}

/**
 * Generator CPU over the measured samples (warm-up excluded): the mean weighted by window
 * length; the max and the saturation verdict from full windows only, since a last window of a
 * few milliseconds (teardown included) says nothing about the run.
 */
export function cpuFacts(samples: readonly Sample[], sampleIntervalMs: number): CpuFacts {
  const measured = samples.filter((s) => !s.warmup && s.cpuPercent !== undefined);
  let weighted = 0;
  let seconds = 0;
  for (const s of measured) {
    weighted += s.cpuPercent! * s.intervalSeconds;
    seconds += s.intervalSeconds;
  }
  const full = measured.filter((s) => isFull(s, sampleIntervalMs));
  const judged = full.length > 0 ? full : measured;
  const max = judged.reduce((m, s) => Math.max(m, s.cpuPercent!), 0);
  const flatOut = judged.filter((s) => s.cpuPercent! >= SATURATED_CPU_PERCENT).length;
  return {
    mean: seconds > 0 ? weighted / seconds : 0,
    max,
    saturated: judged.length > 0 && flatOut / judged.length >= SATURATED_SHARE,
  };
}

function isFull(s: Sample, sampleIntervalMs: number): boolean {
  return s.intervalSeconds * 1000 >= sampleIntervalMs * FULL_SAMPLE_SHARE;
}

export function generatorFacts(engine: EngineId, appVersion: string, cpu: CpuFacts): GeneratorFacts {
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
    saturated: cpu.saturated,
    cpuScope: CPU_SCOPE,
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

function errorEntries(set: ReadonlyMap<ErrorKind, { count: number; message: string }>): ErrorEntry[] {
  return [...set]
    .map(([kind, e]) => ({ kind, count: e.count, message: e.message }))
    .sort((a, b) => b.count - a.count);
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

export interface ResultInput {
  spec: RunSpec;
  status: 'completed' | 'cancelled';
  startedAt: Date;
  endedAt: Date;
  /** Seconds from the end of the warm-up to the end of the load. */
  measuredSeconds: number;
  recorder: Recorder;
  outcome: RunnerOutcome;
  samples: Sample[];
  engine: EngineId;
  facts: TargetFacts;
}

/** The RunResult of a run that sent load, from the recorder's totals after the last tick. */
export function buildRunResult(input: ResultInput): RunResult {
  const { spec, recorder, outcome, samples } = input;
  const t = recorder.totals;
  const seconds = input.measuredSeconds;
  const perSecond = (n: number): number => (seconds > 0 ? n / seconds : 0);
  const rps = perSecond(t.total);
  const spread = rateStats(samples, spec.options.sampleIntervalMs, rps);
  const latency = latencyStats(recorder.histogram, REPORT_PERCENTILES);
  const successRatio = t.total > 0 ? t.ok / t.total : 0;
  const cpu = cpuFacts(samples, spec.options.sampleIntervalMs);
  const tls = outcome.tls ?? input.facts.tls;
  const open = spec.load.model === 'open';

  const warnings: Warning[] = [...scenarioWarnings(spec, tls), ...outcome.warnings];
  if (recorder.inFlight > 0) {
    warnings.push({
      code: 'in-flight-at-end',
      message: `${recorder.inFlight} request(s) were still in flight when the run ended; they are not in the totals.`,
    });
  }
  if (cpu.saturated) {
    warnings.push({
      code: 'generator-saturated',
      message: `The load generator used ${Math.round(cpu.mean)}% of a CPU core on average (max ${Math.round(cpu.max)}%): the client may be the bottleneck, not the server.`,
    });
  }

  const server: ServerFacts = {
    ...input.facts.server,
    software: t.serverSoftware ?? input.facts.server.software,
    documentLength: t.documentLength ?? input.facts.server.documentLength,
    httpVersion: outcome.httpVersion ?? input.facts.server.httpVersion,
  };

  return {
    version: RESULT_VERSION,
    runId: spec.runId,
    scenarioName: spec.scenarioName,
    target: spec.target,
    load: spec.load,
    options: spec.options,
    status: input.status,
    error: null,
    startedAt: input.startedAt.toISOString(),
    endedAt: input.endedAt.toISOString(),
    durationSeconds: seconds,
    attackSeconds: outcome.attackSeconds,
    waitSeconds: outcome.waitSeconds,
    requests: {
      total: t.total,
      responses: t.responses,
      ok: t.ok,
      non2xx: t.non2xx,
      errors: t.errors,
      sloExceeded: t.sloExceeded,
      lengthMismatch: t.lengthMismatch,
      inFlightAtEnd: recorder.inFlight,
      late: open ? t.late : null,
      dropped: open ? (outcome.dropped ?? 0) : null,
    },
    throughput: {
      requestsPerSecond: rps,
      requestsPerSecondStdev: spread.stdev,
      requestsPerSecondMin: spread.min,
      requestsPerSecondMax: spread.max,
      targetRate: spec.load.rate ?? null,
      sentRate: sentRate(t.sent, outcome.attackSeconds, seconds),
      bytesInPerSecond: perSecond(t.inTotal),
    },
    bytes: { inTotal: t.inTotal, inBody: t.inBody, outBody: t.outBody, outTotal: t.outTotal },
    successRatio,
    latency,
    correctedLatency: outcome.correctedLatency,
    sendLateness: recorder.sendLatenessStats(REPORT_PERCENTILES),
    histogram: recorder.histogram.totalCount > 0 ? encodeHistogram(recorder.histogram) : null,
    phases: outcome.phases,
    statusCodes: recorder.statusCodes(),
    errors: errorEntries(t.errorSet),
    tls,
    server,
    generator: generatorFacts(input.engine, spec.appVersion, cpu),
    thresholds: evaluateThresholds(spec.options.thresholds, {
      latency,
      total: t.total,
      successRatio,
      requestsPerSecond: rps,
    }),
    warnings,
    samples,
  };
}

/**
 * vegeta's "rate": requests sent over the attack (first to last send) when the runner
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
}

/**
 * A result rebuilt from the samples alone: for a run that could not start (error set, no
 * samples), or an engine that died or stopped answering (the host only holds the samples).
 * Latency percentiles and the histogram need the engine's recorder, so they stay null.
 */
export function resultFromSamples(
  id: RunIdentity,
  status: RunResult['status'],
  error: ClassifiedError | null,
  facts: PartialFacts,
): RunResult {
  const samples = facts.samples ?? [];
  const measured = samples.filter((s) => !s.warmup);
  const now = new Date();
  const statusCodes: Record<string, number> = {};
  const errorCounts = new Map<ErrorKind, { count: number; message: string }>();
  let total = 0;
  let responses = 0;
  let ok = 0;
  let non2xx = 0;
  let bytesIn = 0;
  let seconds = 0;
  for (const s of measured) {
    total += s.requests;
    seconds += s.intervalSeconds;
    bytesIn += s.bytesInPerSecond * s.intervalSeconds;
    for (const [code, n] of Object.entries(s.statusCodes)) {
      statusCodes[code] = (statusCodes[code] ?? 0) + n;
      responses += n;
      const c = Number(code);
      if (c < 200 || c > 299) non2xx += n;
      if (c >= 200 && c < 400) ok += n;
    }
    for (const [kind, n] of Object.entries(s.errors) as [ErrorKind, number][]) {
      const e = errorCounts.get(kind);
      if (e) e.count += n;
      else errorCounts.set(kind, { count: n, message: ERROR_KIND_LABELS[kind] });
    }
  }
  const slo = errorCounts.get('slo')?.count ?? 0;
  ok = Math.max(0, ok - slo);
  const transportErrors = Math.max(0, total - responses);
  const rps = seconds > 0 ? total / seconds : 0;
  const spread = rateStats(samples, id.options.sampleIntervalMs, rps);
  const successRatio = total > 0 ? ok / total : 0;
  const last = samples.at(-1);
  const server: ServerFacts = facts.server ?? {
    software: null,
    ...hostAndPort(id.target.url),
    documentLength: null,
    httpVersion: null,
  };
  const warnings = [
    ...(samples.length > 0 ? scenarioWarnings(id, facts.tls ?? null) : []),
    ...(facts.warnings ?? []),
  ];
  const inFlight = last?.inFlight ?? 0;
  if (inFlight > 0) {
    warnings.push({
      code: 'in-flight-at-end',
      message: `${inFlight} request(s) were in flight at the last sample; they are not in the totals.`,
    });
  }
  return {
    version: RESULT_VERSION,
    runId: id.runId,
    scenarioName: id.scenarioName,
    target: id.target,
    load: id.load,
    options: id.options,
    status,
    error,
    startedAt: (facts.startedAt ?? now).toISOString(),
    endedAt: (facts.endedAt ?? now).toISOString(),
    durationSeconds: seconds,
    attackSeconds: null,
    waitSeconds: null,
    requests: {
      total,
      responses,
      ok,
      non2xx,
      errors: transportErrors,
      sloExceeded: slo,
      inFlightAtEnd: inFlight,
      late: id.load.model === 'open' ? measured.reduce((a, s) => a + (s.late ?? 0), 0) : null,
      dropped: id.load.model === 'open' ? 0 : null,
    },
    throughput: {
      requestsPerSecond: rps,
      requestsPerSecondStdev: spread.stdev,
      requestsPerSecondMin: spread.min,
      requestsPerSecondMax: spread.max,
      targetRate: id.load.rate ?? null,
      sentRate: rps,
      bytesInPerSecond: seconds > 0 ? bytesIn / seconds : 0,
    },
    bytes: { inTotal: Math.round(bytesIn), inBody: 0, outBody: 0, outTotal: 0 },
    successRatio,
    latency: null,
    correctedLatency: null,
    histogram: null,
    phases: null,
    statusCodes,
    errors: errorEntries(errorCounts),
    tls: facts.tls ?? null,
    server,
    generator: generatorFacts(facts.engine, id.appVersion, cpuFacts(samples, id.options.sampleIntervalMs)),
    thresholds: evaluateThresholds(id.options.thresholds, {
      latency: null,
      total,
      successRatio,
      requestsPerSecond: rps,
    }),
    warnings,
    samples,
  };
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
