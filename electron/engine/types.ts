import type { Load, RunOptions, Target } from '../../shared/model/scenario.ts';
import type {
  GeneratorFacts,
  LatencyStats,
  Phase,
  PhaseStats,
  StageResult,
  TlsFacts,
  WarmFacts,
  Warning,
} from '../../shared/model/result.ts';
import type { Placement } from '../../shared/shards/plan.ts';
import type { SendSequence } from '../../shared/model/request-list.ts';
import type { UrlTable } from '../../shared/model/url-table.ts';
import type { BucketCounts, PhaseBuckets, StageCounts, UrlCounts } from '../../shared/model/shard-facts.ts';
import type { Recorder } from './recording/recorder.ts';

/** Everything a worker needs to run one target; plain data (structured-clone safe). */
export interface RunSpec {
  runId: string;
  scenarioName: string;
  target: Target;
  load: Load;
  options: RunOptions;
  /** Request body, read on the host (file bodies included); null = no body. */
  body: Uint8Array | null;
  /** The bodies of target.requests, one per request (null: none), read on the host; absent without a list. */
  requestBodies?: (Uint8Array | null)[];
  /** Which of the run's sends this worker makes (shared/model/request-list.ts); absent: all of them. */
  sequence?: SendSequence;
  /** Extra trusted CA certificates (PEM), read on the host from options.tls.caFile. */
  ca: string | null;
  appVersion: string;
  /** A shard of a plan split across machines (`trebuchet run --shard`); absent for a whole run. */
  placement?: SpecPlacement;
}

/** Where a machine's shard sits in its plan, and when its load starts. */
export interface SpecPlacement {
  /** Its place in the plan's schedule (spec.load is its share already). */
  shard: Placement;
  planId: string;
  planLoad: Load;
  /**
   * The common start, epoch ms (`--start-at`): the load begins then, not before. Absent for a
   * shard a coordinator starts when every shard is ready (`--start-on`).
   */
  startAt?: number;
}

/** What a load generator reports beyond what it fed into the Recorder. */
export interface LoadOutcome {
  tls: TlsFacts | null;
  /** A list over several origins: the connections opened per origin (originGroups' order); absent for one. */
  originConnections?: number[];
  /** HTTP version of the responses ("1.0", "1.1", "2"), when the load generator learnt it. */
  httpVersion: string | null;
  /** Open model: seconds spent sending, and waiting for the last answers afterwards. */
  attackSeconds: number | null;
  waitSeconds: number | null;
  /** Open model: scheduled requests never sent (no free slot under the in-flight cap). */
  dropped: number | null;
  /** Closed model with a rate cap: latency as the schedule would have seen it. */
  correctedLatency: LatencyStats | null;
  /** Per-request timing phases, when the load generator measures them. */
  phases: Partial<Record<Phase, PhaseStats>> | null;
  /** A staged load's figures, one row per stage; null for a fixed level. */
  stages: StageResult[] | null;
  /** A target with a list: the per-URL table, from every shard's counts; absent or null without one. */
  urls?: UrlTable | null;
  warnings: Warning[];
  /**
   * performance.now() when the load ended: the last request finished or was abandoned, before
   * the load generator's summary work (percentiles of the phase histograms take tens of ms). The
   * shard closes its last window (and the run its measured time) there; null = when run() resolved.
   */
  loadEndedAt: number | null;
  /** The histograms behind phases and correctedLatency, as buckets: what a shard's report merges. */
  shardParts?: () => {
    phases: PhaseBuckets | null;
    corrected: BucketCounts | null;
    stages: StageCounts[] | null;
    /** A target with a list: its per-URL counts; null without one. */
    urls?: UrlCounts | null;
  };
}

/** An outcome that adds nothing to what the recorder holds; `over` fills in what a load generator knows. */
export function emptyOutcome(over: Partial<LoadOutcome> = {}): LoadOutcome {
  return {
    tls: null,
    httpVersion: null,
    attackSeconds: null,
    waitSeconds: null,
    dropped: null,
    correctedLatency: null,
    phases: null,
    stages: null,
    warnings: [],
    loadEndedAt: null,
    ...over,
  };
}

/**
 * Whether a run's sends fall due on a schedule (the open model, or a closed loop capped at a
 * rate): then every moment the sending thread spends elsewhere makes sends late.
 */
export function sendsOnSchedule(spec: RunSpec): boolean {
  return spec.load.model === 'open' || spec.load.rate !== null;
}

/** When a driver's schedule begins (see LoadDriver.run). */
export interface Schedule {
  /** performance.now() ms when the load starts, the same for every shard of a run. */
  startAt: number;
  /** This shard's schedule begins this much later (its place in a split rate). */
  offsetMs: number;
  /** A staged open load's shard: where its arrivals fall within the merged plan's (shared/shards/plan.ts). */
  arrivalPhase?: number;
  /** When the run's warm-up ended (performance.now() ms), set before warmupDone resolves. */
  measureFrom?: number;
}

export interface LoadGeneratorContext {
  spec: RunSpec;
  recorder: Recorder;
  /**
   * Aborted when the user stops the run. The load generator stops sending, abandons what is in
   * flight (leaving recorder.inFlight as it is) and resolves promptly.
   */
  signal: AbortSignal;
  /** Length of the warm-up; the shard calls recorder.startMeasuring() at the tick that ends it. */
  warmupSeconds: number;
  /**
   * Resolves once the warm-up has elapsed and the recorder measures (at once when there is
   * no warm-up). A duration limit runs from this point; a requests-count limit (closed
   * model) counts the requests that finish after it.
   */
  warmupDone: Promise<void>;
  /** The shard's place in the run: the common start and its offset (absent, in a load generator's own tests: start now). */
  schedule?: Schedule;
  /**
   * Resolves at the common start, never before it. A load generator readies what its first send needs
   * (ledger, driver, pools), then awaits this and sends: work left until after the start
   * makes the first sends late (3-25 ms of set-up did).
   */
  startGate: () => Promise<void>;
}

/**
 * A load generator behind one interface. It enforces the scenario's load (duration or
 * request count, rate) itself, records every finished request into ctx.recorder, and
 * resolves when the load is done or ctx.signal aborts. It never throws for a failing
 * target: failures are recorded as errors.
 */
export interface LoadGenerator {
  readonly name: GeneratorFacts['engine'];
  readonly version: string;
  run(ctx: LoadGeneratorContext): Promise<LoadOutcome>;
  /**
   * Readies the run before the common start (a shard says `ready` once it is done): the native
   * engine's open model opens and warms its connections here. Absent: run() does everything.
   * Never throws; resolves at once when the signal aborts.
   */
  prepare?(spec: RunSpec, hints: PrepareHints, signal: AbortSignal): Promise<PreparedRun>;
}

/** What the pre-flight learnt that sizes a run's preparation. */
export interface PrepareHints {
  /** The pre-flight request's round trip, ms; null when not measured. */
  roundTripMs: number | null;
}

/** A run readied by LoadGenerator.prepare: its run() starts sending at once. */
export interface PreparedRun {
  /** The warm phase's figures (this shard's); null when there was none. */
  warm: WarmFacts | null;
  run(ctx: LoadGeneratorContext): Promise<LoadOutcome>;
}
