import { z } from 'zod';
import { LIMITS } from './defaults.ts';
import { serverResourcesSchema } from './server-resources.ts';
import { loadSchema, runOptionsSchema, targetSchema, thresholdSchema } from './scenario.ts';
import { shardFactsSchema, shardRowSchema } from './shard-facts.ts';
import { urlTableSchema } from './url-table.ts';
import { generatorProcessSchema, machineFactsSchema } from './machine-facts.ts';
import { verdictRecordSchema } from './verdict-record.ts';
import { windowBucketsSchema } from '../figures/window-buckets.ts';
import {
  byteCountsSchema,
  errorEntrySchema,
  errorKindSchema,
  PHASES,
  requestCountsSchema,
  tlsFactsSchema,
  warmFactsSchema,
  warningSchema,
} from './result-parts.ts';
export {
  byteCountsSchema,
  ERROR_KIND_LABELS,
  ERROR_KINDS,
  errorEntrySchema,
  errorKindSchema,
  PHASES,
  requestCountsSchema,
  tlsFactsSchema,
  warmFactsSchema,
  warningSchema,
  type ErrorEntry,
  type ErrorKind,
  type Phase,
  type TlsFacts,
  type WarmFacts,
  type Warning,
} from './result-parts.ts';

const count = z.number().int().nonnegative();
const ms = z.number().nonnegative();

/**
 * How a run, a target's result, a comparison or a saved record ended: completed (ran to its
 * end), cancelled (stopped; what was measured is kept), failed (could not run) or interrupted
 * (the host stopped mid-job, killed or crashed: its journal kept the finished parts whole and
 * the running one's samples, electron/jobs/journal/; a result so marked ended at its endedAt).
 */
export const runStatusSchema = z.enum(['completed', 'cancelled', 'failed', 'interrupted']);
export type RunStatus = z.infer<typeof runStatusSchema>;

/** One tick of a live run: aggregated over the window since the previous sample. */
export const sampleSchema = z.strictObject({
  seq: count,
  /** Seconds since the run started (warm-up included). */
  elapsedSeconds: z.number().nonnegative(),
  /** Length of this window in seconds. */
  intervalSeconds: z.number().positive(),
  /** True while the warm-up lasts; warm-up samples are shown but excluded from the result. */
  warmup: z.boolean(),
  /** Requests finished in this window (responses and errors). */
  requests: count,
  /** Requests finished since measuring began (warm-up excluded). */
  totalRequests: count,
  requestsPerSecond: z.number().nonnegative(),
  bytesInPerSecond: z.number().nonnegative(),
  /** Latency of this window's responses in ms; null when no response finished in it. */
  latency: z.strictObject({ mean: ms, p50: ms, p90: ms, p99: ms, max: ms }).nullable(),
  statusCodes: z.record(z.string(), count),
  errors: z.partialRecord(errorKindSchema, count),
  /** Requests sent but not answered at the end of the window. */
  inFlight: count,
  /** Open model only: requests that missed their scheduled send time in this window. */
  late: count.optional(),
  /**
   * Scheduled sends only (open model, closed with a rate cap): the p99 of how late this
   * window's requests went out (actual minus intended send time), in ms. The generator's
   * own delay, part of the latency beside it. Absent without scheduled sends, and in results
   * saved before it existed.
   */
  sendLatenessP99: ms.optional(),
  /**
   * This window's latencies in fixed buckets (shared/figures/window-buckets.ts), for a histogram
   * of the whole run that a reader of the samples can add up (the metrics out). Absent when no
   * response finished in it, and in results saved before it existed.
   */
  latencyBuckets: windowBucketsSchema.optional(),
  /** Scheduled sends only: this window's send lateness in the same buckets (see sendLatenessP99). */
  sendLatenessBuckets: windowBucketsSchema.optional(),
  /** Generator CPU use in this window, percent of one core (can exceed 100 with several threads). */
  cpuPercent: z.number().nonnegative().optional(),
  /** Closed model with stages only: connections carrying load at the end of the window. */
  connections: count.optional(),
  /**
   * True on a run's last sample only (absent elsewhere, and in results saved before it
   * existed). Its window runs to the moment the load ended: answers to requests still in
   * flight are in it, the engine's summary work after the end is not; a stopped run ends at
   * the stop. When that last stretch is under half as long as the window before it, the
   * engine folds the two into one window, sent under the earlier window's seq (it replaces
   * that sample: see addSample), so no run ends on a sliver of wind-down.
   */
  final: z.boolean().optional(),
});
export type Sample = z.infer<typeof sampleSchema>;

// The replace-by-seq rule lives with the series that every buffer of samples uses.
export { addSample } from '../figures/sample-series.ts';

/** Latency summary in milliseconds (microsecond resolution). */
export const latencyStatsSchema = z.strictObject({
  min: ms,
  mean: ms,
  stdev: ms,
  max: ms,
  /** Keyed by percentile as text: "50", "66", ..., "99.9", "99.99", "100". */
  percentiles: z.record(z.string(), ms),
});
export type LatencyStats = z.infer<typeof latencyStatsSchema>;

/** What ab prints about the server and document. */
export const serverFactsSchema = z.strictObject({
  software: z.string().nullable(),
  hostname: z.string(),
  port: z.number().int(),
  documentPath: z.string(),
  /** Body length of the first successful response, in bytes. */
  documentLength: z.number().int().nonnegative().nullable(),
  /** Negotiated HTTP version, e.g. "1.1" or "2". */
  httpVersion: z.string().nullable(),
  /**
   * Where the sockets went when not where the URL points (a connect-to rule, a unix socket):
   * "127.0.0.1:8443" or "unix:/run/app.sock". Absent: the URL's host.
   */
  connectedTo: z.string().optional(),
  /**
   * A list over several origins: each origin (scheme://host:port), where its sockets went when
   * not where its URL points, and the connections opened to it over the run (warm-up
   * included). Absent for one origin.
   */
  origins: z
    .array(
      z.strictObject({
        origin: z.string(),
        connectedTo: z.string().optional(),
        connections: z.number().int().nonnegative(),
      }),
    )
    .max(LIMITS.listOrigins.max)
    .optional(),
});
export type ServerFacts = z.infer<typeof serverFactsSchema>;

export const generatorFactsSchema = z.strictObject({
  engine: z.enum(['autocannon', 'native']),
  engineVersion: z.string(),
  appVersion: z.string(),
  nodeVersion: z.string(),
  platform: z.string(),
  cpuModel: z.string(),
  cpuCores: z.number().int().positive(),
  /** Generator CPU use during the measured part of the run, percent of one core. */
  cpuPercentMean: z.number().nonnegative(),
  cpuPercentMax: z.number().nonnegative(),
  /** True when the generator ran flat out: its numbers may measure the client, not the server. */
  saturated: z.boolean(),
  /**
   * What the CPU figures cover: 'engine-thread' = the engine worker thread alone (its sockets,
   * HTTP parsing and bookkeeping, kernel time included); 'process' = the whole generator
   * process, host threads included (on a Node without per-thread CPU accounting).
   */
  cpuScope: z.enum(['engine-thread', 'process']).optional(),
  /**
   * The engine worker threads the load ran in (options.workers), each one's CPU over the
   * measured samples; the figures above are their sum (percent of one core). saturated: any
   * of them ran flat out. Absent in results saved before it existed (one worker then).
   */
  workers: z
    .array(
      z.strictObject({
        cpuPercentMean: z.number().nonnegative(),
        cpuPercentMax: z.number().nonnegative(),
        saturated: z.boolean(),
      }),
    )
    .min(1)
    .optional(),
  /**
   * CPU-seconds the run's coordinator spent on its own, from the load's start to the result:
   * merging the workers' windows into samples and their reports into this result. It runs in
   * the first worker's thread; the figures above leave it out. Absent in results saved before it existed.
   */
  coordinatorCpuSeconds: z.number().nonnegative().optional(),
  /**
   * How long each tick held up a sending thread, ms: its window closed and handed over (the
   * goal is under 0.2 ms at the p99, docs/benchmarks.md), over every engine worker's ticks.
   * Absent without a tick, and in results saved before it existed.
   */
  tickPause: z
    .strictObject({
      ticks: z.number().int().positive(),
      p50: z.number().nonnegative(),
      p99: z.number().nonnegative(),
      max: z.number().nonnegative(),
    })
    .optional(),
  /**
   * The generator's whole process (every thread: engine, coordinator, GC, main) and its
   * busiest thread, from the machine's readings on the host (RunResult.machine). Absent
   * without machine readings, and in results saved before it existed.
   */
  process: generatorProcessSchema.optional(),
});
export type GeneratorFacts = z.infer<typeof generatorFactsSchema>;

export const thresholdOutcomeSchema = z.strictObject({
  threshold: thresholdSchema,
  actual: z.number().nullable(),
  passed: z.boolean(),
});
export type ThresholdOutcome = z.infer<typeof thresholdOutcomeSchema>;

/** ab's "Connection Times (ms)" row: min, mean, sd, median, max. */
export const phaseStatsSchema = z.strictObject({
  min: ms,
  mean: ms,
  stdev: ms,
  median: ms,
  max: ms,
  percentiles: z.record(z.string(), ms),
});
export type PhaseStats = z.infer<typeof phaseStatsSchema>;

/**
 * One stage of a staged load: what was planned and what came back. A response counts in the
 * stage its request was written in (as a server counting arrivals sees it), a failure in the
 * stage it happened in; times are seconds from the plan's start.
 */
export const stageResultSchema = z.strictObject({
  index: count,
  startSeconds: z.number().nonnegative(),
  endSeconds: z.number().nonnegative(),
  /** The target the stage ramps from and to: connections (closed model) or req/s (open model). */
  from: z.number().nonnegative(),
  to: z.number().nonnegative(),
  /** Open model: requests the schedule planned in the stage (the area under its ramp); null for closed. */
  planned: z.number().nonnegative().nullable(),
  /** Requests of the stage that finished: responses plus transport errors. */
  requests: count,
  /** Transport errors (no response). */
  errors: count,
  /** Responses outside 2xx. */
  non2xx: count,
  /** requests / the stage's length (0 for a 0-second stage). */
  requestsPerSecond: z.number().nonnegative(),
  /** Latency of the stage's responses in ms; null when none came back. */
  latency: z.strictObject({ p50: ms, p99: ms, mean: ms, max: ms }).nullable(),
});
export type StageResult = z.infer<typeof stageResultSchema>;

export const RESULT_VERSION = 1;

export const runResultSchema = z.strictObject({
  version: z.literal(RESULT_VERSION),
  runId: z.string(),
  scenarioName: z.string(),
  target: targetSchema,
  load: loadSchema,
  options: runOptionsSchema,
  /** completed: ran to its end; cancelled: stopped by the user (partial); failed: could not run (see error). */
  status: runStatusSchema,
  /** Set when the run could not start or broke down as a whole (pre-flight failure, engine crash). */
  error: z.strictObject({ kind: errorKindSchema, message: z.string() }).nullable(),
  startedAt: z.string(),
  endedAt: z.string(),
  /** Measured time in seconds, warm-up excluded (ab's "Time taken for tests"). */
  durationSeconds: z.number().nonnegative(),
  /** Open model: time spent sending (vegeta "attack") and waiting for the last answers ("wait"). */
  attackSeconds: z.number().nonnegative().nullable(),
  waitSeconds: z.number().nonnegative().nullable(),
  requests: requestCountsSchema,
  throughput: z.strictObject({
    /** Completed requests per second over the measured time. */
    requestsPerSecond: z.number().nonnegative(),
    /** Spread of the per-sample rates. */
    requestsPerSecondStdev: z.number().nonnegative(),
    requestsPerSecondMin: z.number().nonnegative(),
    requestsPerSecondMax: z.number().nonnegative(),
    /** Open model: the schedule's rate; null for closed runs without a rate cap. */
    targetRate: z.number().positive().nullable(),
    /** Rate at which requests were actually sent (vegeta's "rate"). */
    sentRate: z.number().nonnegative(),
    bytesInPerSecond: z.number().nonnegative(),
  }),
  bytes: byteCountsSchema,
  /** Success ratio in [0, 1]: ok / total. */
  successRatio: z.number().min(0).max(1),
  latency: latencyStatsSchema.nullable(),
  /**
   * Closed model with a rate cap only: latency as a fixed schedule would have seen it (wrk2's
   * corrected figures); `latency` then holds the uncorrected service time.
   */
  correctedLatency: latencyStatsSchema.nullable(),
  /**
   * Scheduled sends (open model, closed with a rate cap): how late requests went out, actual
   * minus intended send time, in ms (p50, p99, max among the rest). This is the generator's
   * delay (timers, a busy event loop, no free connection), not the server's, and it is part
   * of the latency, which runs from the intended time. Null without a schedule or for an
   * engine that does not measure it; absent in results saved before it existed.
   */
  sendLateness: latencyStatsSchema.nullable().optional(),
  /**
   * The open model's warm phase before the first scheduled send (connections opened, TLS
   * handshakes done, the engine warmed): not measured time. Absent for other runs and engines,
   * and in results saved before it existed.
   */
  warm: warmFactsSchema.optional(),
  /** Whole-run latency HdrHistogram (microseconds), compressed and base64-encoded. */
  histogram: z.string().nullable(),
  /** Per-request timing phases in ms, when the engine measures them (ab's Connection Times). */
  phases: z.partialRecord(z.enum(PHASES), phaseStatsSchema).nullable(),
  statusCodes: z.record(z.string(), count),
  errors: z.array(errorEntrySchema),
  tls: tlsFactsSchema.nullable(),
  server: serverFactsSchema.nullable(),
  generator: generatorFactsSchema,
  thresholds: z.array(thresholdOutcomeSchema),
  warnings: z.array(warningSchema),
  samples: z.array(sampleSchema),
  /**
   * The server's CPU, memory and load during the run (target.monitor), sampled on the host.
   * Absent when the monitor was off, and in results saved before it existed.
   */
  serverResources: serverResourcesSchema.optional(),
  /**
   * The machine the generator ran on during the run: its CPU, the other processes' share and
   * the busiest of them, the link to a server past it (shared/model/machine-facts.ts). Absent in
   * results saved before it existed and in merged shards' results.
   */
  machine: machineFactsSchema.optional(),
  /** A staged load's figures, one row per stage (load.stages); absent for a fixed level. */
  stages: z.array(stageResultSchema).max(LIMITS.stages.max).optional(),
  /** A target with a list of requests: one row per METHOD URL (shared/model/url-table.ts); absent without a list. */
  urls: urlTableSchema.optional(),
  /** A shard's result (`trebuchet run --shard`): its place, clock and mergeable figures; absent otherwise. */
  shard: shardFactsSchema.optional(),
  /** A merged result (`trebuchet merge`): one row per shard it was merged from; absent otherwise. */
  shards: z.array(shardRowSchema).min(1).optional(),
  /**
   * The verdict as a JSON export wrote it (shared/model/verdict-record.ts): what it said then. Views
   * compute the verdict again from the figures; absent in results as the engine makes them.
   */
  verdict: verdictRecordSchema.optional(),
});
export type RunResult = z.infer<typeof runResultSchema>;
