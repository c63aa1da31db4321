import os from 'node:os';
import { REPORT_PERCENTILES } from '../../../shared/model/defaults.ts';
import type { ShardFacts, ShardRow } from '../../../shared/model/shard-facts.ts';
import type {
  LatencyStats,
  RunResult,
  Sample,
  ServerFacts,
  StageResult,
  TlsFacts,
  Warning,
} from '../../../shared/model/result.ts';
import type { Stage } from '../../../shared/model/stages.ts';
import {
  mergeBuckets,
  mergeCounts,
  mergePhases,
  mergeStageCounts,
  mergeUrlCounts,
} from '../../../shared/shards/merge.ts';
import { type BucketCounts, type ShardReport } from '../../../shared/model/shard-facts.ts';
import {
  decodeHistogram,
  encodeHistogram,
  latencyStats,
  newHistogram,
  recordedStats,
  ValueRecorder,
  type Histogram,
} from '../recording/histogram.ts';
import type { CpuAccount } from '../cpu.ts';
import { urlTable } from '../recording/url-recorder.ts';
import type { ClassifiedError } from '../errors.ts';
import { PhaseHistograms } from '../native/phases.ts';
import { stageResults } from '../native/stage-histograms.ts';
import { runResult, type CpuFacts, type EngineId } from '../result.ts';
import type { RunTotals } from '../recording/run-totals.ts';
import type { LoadOutcome, RunSpec, SpecPlacement } from '../types.ts';
import { toEpoch, type ShardMachineFacts } from './messages.ts';

/**
 * The shards' reports as one run's figures, and its RunResult (engine side: histograms need
 * hdr-histogram-js).
 * Counts add up (shared/shards/merge.ts); latency histograms, HdrHistogram-encoded, are added
 * bucket by bucket, which gives exactly the histogram of every value recorded in one.
 */

/** The sum of HdrHistogram-encoded histograms (null ones hold nothing). */
export function mergeHistograms(encoded: readonly (string | null)[]): Histogram {
  const parts = encoded.filter((e) => e !== null);
  // One histogram is its own sum (a run with one shard): decoded, not copied.
  if (parts.length === 1) return decodeHistogram(parts[0]!);
  const sum = newHistogram();
  for (const e of parts) sum.add(decodeHistogram(e));
  return sum;
}

function recorderOf(buckets: BucketCounts): ValueRecorder {
  const r = new ValueRecorder();
  r.addBuckets(buckets);
  return r;
}

/**
 * Latency figures with the exact extremes the shards recorded (a decoded histogram knows its
 * buckets only), no percentile above the largest value: what one histogram fed every value says.
 */
function withRange(stats: LatencyStats | null, reports: readonly ShardReport[]): LatencyStats | null {
  const ranges = reports.flatMap((r) => (r.latencyRange ? [r.latencyRange] : []));
  if (stats === null || ranges.length === 0) return stats;
  const max = Math.max(...ranges.map((r) => r.max)) / 1000;
  const percentiles: Record<string, number> = {};
  for (const [p, v] of Object.entries(stats.percentiles)) percentiles[p] = Math.min(v, max);
  return { ...stats, min: Math.min(...ranges.map((r) => r.minNonZero)) / 1000, max, percentiles };
}

/** The run's totals from its shards' reports. */
export function mergedTotals(reports: readonly ShardReport[], measuredSeconds: number): RunTotals {
  const c = mergeCounts(reports.map((r) => r.counts));
  const encoded = reports.flatMap((r) => (r.histogram === null ? [] : [r.histogram]));
  const histogram = mergeHistograms(encoded);
  return {
    measuredSeconds,
    requests: c.requests,
    sent: c.sent,
    bytes: c.bytes,
    statusCodes: c.statusCodes,
    errors: c.errors,
    latency: withRange(latencyStats(histogram, REPORT_PERCENTILES), reports),
    // One shard's encoding is the run's histogram as it is (no second encoding).
    histogram:
      encoded.length === 1 ? encoded[0]! : histogram.totalCount > 0 ? encodeHistogram(histogram) : null,
    sendLateness: recordedStats(recorderOf(mergeBuckets(reports.map((r) => r.lateness))), REPORT_PERCENTILES),
    serverSoftware: c.serverSoftware,
    documentLength: c.documentLength,
  };
}

/** Whose reports are merged: a run's engine workers, or a plan's shards across machines (both 1-based, as --shard). */
type ReportPart = 'engine worker' | 'shard';

/**
 * The shards' warnings: one every shard gave is said once; one particular to a shard (its
 * share of the rate not reached, a limit it hit) is said with the worker it concerns.
 */
function mergedWarnings(reports: readonly ShardReport[], part: ReportPart = 'engine worker'): Warning[] {
  const out = new Map<string, Warning>();
  reports.forEach((r, i) => {
    for (const w of r.warnings) {
      const everywhere = reports.every((o) => o.warnings.some((x) => x.message === w.message));
      const who =
        part === 'shard' ? `shard ${i + 1}/${reports.length}` : `engine worker ${i + 1} of ${reports.length}`;
      const message = everywhere ? w.message : `${who}: ${w.message}`;
      if (!out.has(message)) out.set(message, { code: w.code, message });
    }
  });
  return [...out.values()];
}

/** The shards' stage rows as the run's: counts added, each stage's latency histograms added. */
export function mergedStages(
  reports: readonly ShardReport[],
  stages: readonly Stage[],
  model: 'closed' | 'open',
): StageResult[] {
  const merged = mergeStageCounts(reports.map((r) => r.stages ?? []));
  const rows = stages.map((_, i) => {
    const row = merged[i] ?? { requests: 0, errors: 0, non2xx: 0, latency: null };
    return { ...row, latency: row.latency === null ? null : recorderOf(row.latency) };
  });
  return stageResults(stages, model, rows);
}

const maxOf = (values: (number | null)[]): number | null => {
  const known = values.filter((v): v is number => v !== null);
  return known.length > 0 ? Math.max(...known) : null;
};

/** The connections opened per origin, summed over the reports that have them (none: absent). */
function originConnectionsOf(reports: readonly ShardReport[]): { originConnections?: number[] } {
  const counts = reports.flatMap((r) => (r.originConnections ? [r.originConnections] : []));
  if (counts.length === 0) return {};
  const n = Math.max(...counts.map((c) => c.length));
  return {
    originConnections: Array.from({ length: n }, (_, o) => counts.reduce((a, c) => a + (c[o] ?? 0), 0)),
  };
}

/** What the load generators reported beyond their recorders, as one run's outcome. */
export function mergedOutcome(
  reports: readonly ShardReport[],
  spec: RunSpec,
  part?: ReportPart,
): LoadOutcome {
  const c = mergeCounts(reports.map((r) => r.counts));
  const attackSeconds = maxOf(reports.map((r) => r.attackSeconds));
  const phases = mergePhases(reports.flatMap((r) => (r.phases ? [r.phases] : [])));
  const corrected = reports.flatMap((r) => (r.corrected ? [r.corrected] : []));
  const open = spec.load.model === 'open';
  const urls = mergeUrlCounts(reports.map((r) => r.urls));
  return {
    // The coordinator closed the final window already: no end left to say.
    loadEndedAt: null,
    tls: reports.find((r) => r.tls !== null)?.tls ?? null,
    ...originConnectionsOf(reports),
    httpVersion: reports.find((r) => r.httpVersion !== null)?.httpVersion ?? null,
    attackSeconds,
    waitSeconds: maxOf(reports.map((r) => r.waitSeconds)),
    dropped: open ? c.dropped : null,
    correctedLatency:
      corrected.length > 0 ? recordedStats(recorderOf(mergeBuckets(corrected)), REPORT_PERCENTILES) : null,
    phases: phases === null ? null : PhaseHistograms.fromBuckets(phases).stats(),
    stages: spec.load.stages ? mergedStages(reports, spec.load.stages, spec.load.model) : null,
    urls: urls === null ? null : urlTable(urls),
    warnings: mergedWarnings(reports, part),
  };
}

export interface ResultInput {
  spec: RunSpec;
  status: RunResult['status'];
  error: ClassifiedError | null;
  startedAt: Date;
  endedAt: Date;
  /** Seconds from the end of the warm-up to the end of the load. */
  measuredSeconds: number;
  /** Every shard's report, one or more. */
  reports: readonly ShardReport[];
  /** Every sample of the run, warm-up included. */
  samples: Sample[];
  engine: EngineId;
  tls: TlsFacts | null;
  server: ServerFacts | null;
  /** Each shard's CPU, in the order of the reports; absent: one, whose CPU is the samples'. */
  workerCpu?: CpuFacts[];
  /** The coordinator's CPU account, read once the reports are merged (so the merge is in it). */
  coordinatorCpu?: CpuAccount;
  /** Open model, shards that began apart (`trebuchet merge`): the attack and wait on the wall clock, not the longest shard's. */
  openSpan?: { attackSeconds: number; waitSeconds: number };
  /** What a report is the report of, in a warning particular to one (an engine worker by default). */
  part?: ReportPart;
}

/** The sending threads' pause per tick (ms), over every shard's ticks; undefined without one. */
export function tickPauseOf(reports: readonly ShardReport[]): RunResult['generator']['tickPause'] {
  const pauses = reports.flatMap((r) => (r.tickPause ? [r.tickPause] : []));
  const s = pauses.length > 0 ? recorderOf(mergeBuckets(pauses)).summary([50, 99]) : null;
  if (s === null) return undefined;
  return {
    ticks: s.count,
    p50: s.percentiles.get(50)! / 1000,
    p99: s.percentiles.get(99)! / 1000,
    max: s.max / 1000,
  };
}

/** The RunResult of a run that sent load, from its shards' reports (after the final Sample). */
export function buildRunResult(input: ResultInput): RunResult {
  const { reports, spec } = input;
  const totals = mergedTotals(reports, input.measuredSeconds);
  const outcome = { ...mergedOutcome(reports, spec, input.part), ...input.openSpan };
  const tickPause = tickPauseOf(reports);
  return runResult(spec, totals, {
    status: input.status,
    error: input.error,
    engine: input.engine,
    startedAt: input.startedAt,
    endedAt: input.endedAt,
    samples: input.samples,
    tls: input.tls,
    server: input.server,
    outcome,
    warnings: [],
    ...(input.workerCpu ? { workerCpu: input.workerCpu } : {}),
    ...(input.coordinatorCpu ? { coordinatorCpuSeconds: input.coordinatorCpu.seconds } : {}),
    ...(tickPause === undefined ? {} : { tickPause }),
  });
}

/**
 * Several shards' reports as one report, each part merged as buildRunResult merges it: what a
 * machine's shard of a plan hands on for `trebuchet merge` (its engine workers' reports in one).
 */
export function mergeReports(reports: readonly ShardReport[]): ShardReport {
  if (reports.length === 1) return reports[0]!;
  const encoded = reports.flatMap((r) => (r.histogram === null ? [] : [r.histogram]));
  const histogram = mergeHistograms(encoded);
  const ranges = reports.flatMap((r) => (r.latencyRange ? [r.latencyRange] : []));
  const corrected = reports.flatMap((r) => (r.corrected ? [r.corrected] : []));
  const urls = mergeUrlCounts(reports.map((r) => r.urls));
  const pauses = reports.flatMap((r) => (r.tickPause ? [r.tickPause] : []));
  return {
    counts: mergeCounts(reports.map((r) => r.counts)),
    histogram: histogram.totalCount > 0 ? encodeHistogram(histogram) : null,
    latencyRange:
      ranges.length > 0
        ? {
            minNonZero: Math.min(...ranges.map((r) => r.minNonZero)),
            max: Math.max(...ranges.map((r) => r.max)),
          }
        : null,
    lateness: mergeBuckets(reports.map((r) => r.lateness)),
    corrected: corrected.length > 0 ? mergeBuckets(corrected) : null,
    phases: mergePhases(reports.flatMap((r) => (r.phases ? [r.phases] : []))),
    stages: reports.some((r) => r.stages) ? mergeStageCounts(reports.map((r) => r.stages ?? [])) : null,
    tls: reports.find((r) => r.tls !== null)?.tls ?? null,
    ...originConnectionsOf(reports),
    httpVersion: reports.find((r) => r.httpVersion !== null)?.httpVersion ?? null,
    attackSeconds: maxOf(reports.map((r) => r.attackSeconds)),
    waitSeconds: maxOf(reports.map((r) => r.waitSeconds)),
    warnings: mergedWarnings(reports),
    ...(urls === null ? {} : { urls }),
    ...(pauses.length === 0 ? {} : { tickPause: mergeBuckets(pauses) }),
  };
}

/**
 * A machine's shard's own part of its result: its place, its clock (how far after the common
 * start its load began, on this host), and its workers' reports as one.
 */
export function shardFacts(
  placement: SpecPlacement & { startAt: number },
  reports: readonly ShardReport[],
  gridStartAt: number,
  loadStartedAt: number,
): ShardFacts {
  return {
    index: placement.shard.index,
    count: placement.shard.count,
    planId: placement.planId,
    planLoad: placement.planLoad,
    clock: {
      startAt: new Date(placement.startAt).toISOString(),
      startOffsetMs: loadStartedAt - placement.startAt,
      host: os.hostname(),
      cores: Math.max(1, os.availableParallelism()),
    },
    gridStartAt,
    report: mergeReports(reports),
  };
}

/** A machine's shard as the coordinator holds it once it reported (coordinator.ts Member). */
export interface ReportedMachine {
  /** 0-based, of the run's shards. */
  index: number;
  report: ShardReport;
  /** Where its load began, performance.now() ms. */
  startedAt: number;
  machine: ShardMachineFacts | null;
}

/**
 * The Shards table of a run on machines' shards (processes, pods): each one's own figures over
 * the run's measured time, its machine, its engine threads' CPU (summed, as a result's), and how
 * long after the start it was given its load began.
 */
export function shardMachineRows(reported: readonly ReportedMachine[], measuredSeconds: number): ShardRow[] {
  return reported.map((m) => {
    const requests = m.report.counts.requests.total;
    const workers = m.machine?.workers ?? [];
    return {
      index: m.index,
      host: m.machine?.host ?? os.hostname(),
      cores: m.machine?.cores ?? Math.max(1, os.availableParallelism()),
      requests,
      requestsPerSecond: measuredSeconds > 0 ? requests / measuredSeconds : 0,
      p99: mergedTotals([m.report], measuredSeconds).latency?.percentiles['99'] ?? null,
      cpuPercentMean: workers.reduce((a, w) => a + w.mean, 0),
      saturated: workers.some((w) => w.saturated),
      startOffsetMs: m.machine ? toEpoch(m.startedAt) - m.machine.startAt : 0,
    };
  });
}
