import type { Recorder } from '../recording/recorder.ts';
import type { ClassifiedError, ClientLimit } from '../errors.ts';
import { REPORT_PERCENTILES } from '../../../shared/model/defaults.ts';
import type { LatencyStats } from '../../../shared/model/result.ts';
import type { BucketCounts } from '../../../shared/model/shard-facts.ts';
import { recordedStats, ValueRecorder } from '../recording/histogram.ts';
import {
  PhaseHistograms,
  RESPONSE_TIMES,
  T_DONE,
  T_INTENDED,
  T_START,
  T_WRITTEN,
  type SetupTimes,
} from './phases.ts';
import type { StageHistograms } from './stage-histograms.ts';
import type { UrlRecorder } from '../recording/url-recorder.ts';

/** What a load driver hands out to clients and hears back from them. */
export interface Client {
  /** Requests this client can take now (free pipeline slots or streams). */
  readonly free: number;
  /** Requests it holds now: written or waiting for its connection. */
  readonly inFlight: number;
  /**
   * Starts a request: scheduled for the ledger's times[T_INTENDED] (performance.now() ms; the
   * same as times[T_START] when unscheduled), started at times[T_START]. The driver sets both
   * just before (see RequestLedger.times).
   */
  send(): void;
  /** Opens its connection now, without a request (the open model's pool opens ahead of need). */
  prepare(): void;
  /** Fails requests older than the timeout. */
  sweep(now: number): void;
  /** Drops every connection now; unfinished requests stay unfinished (a stopped run). */
  destroy(): void;
}

export interface ClientOwner {
  /**
   * A client finished one or more requests (booked in the ledger, whose lastDoneAt is when:
   * the read or the failure that finished them) and has room again.
   */
  onFree(client: Client): void;
}

/**
 * Which clock a response's latency runs from. `start`: when the request was started (closed
 * model; a rate cap adds the corrected histogram from the intended time beside it).
 * `intended`: the schedule's send time (open model), so a stalled server or a late
 * generator shows up in the latency instead of being omitted.
 */
export type LatencyClock = 'start' | 'intended';

/**
 * Where the clients of one run book each request (started, answered, failed) into the
 * recorder, the phase and corrected histograms, and the facts they learn.
 */
export class RequestLedger {
  readonly recorder: Recorder;
  readonly phases = new PhaseHistograms();
  /**
   * The times of the request being sent (T_INTENDED, T_START: set by the driver just before a
   * client's send()) or of the response being booked (every T_ index of phases.ts: set by its
   * client just before response()), performance.now() ms. In a typed array because a number
   * passed as a call's argument is a heap object unless the call is inlined: passed one by
   * one, a request's times were about 100 bytes of garbage (issue 38).
   */
  readonly times = new Float64Array(RESPONSE_TIMES);
  /** Closed model with a rate cap: latency from the intended send time (wrk2's corrected). */
  private readonly corrected: ValueRecorder | null;
  readonly clock: LatencyClock;
  readonly timeoutMs: number;
  /** The failure of a request that outlived timeoutMs (one object for the whole run). */
  readonly timedOut: ClassifiedError;
  /** "1.1", "1.0" or "2", from the first response. */
  httpVersion: string | null = null;
  /** performance.now() of the last finished request. */
  lastDoneAt = 0;
  /** Requests failed by a limit of the generator's machine, by limit (see errors.ts). */
  readonly limitHits = new Map<ClientLimit, number>();
  private documentNoted = false;
  /** A staged load's per-stage figures (the driver starts their clock); null for a fixed level. */
  readonly stages: StageHistograms | null;
  /** A target with a list: its per-URL counts (the clients name each request's list entry); null otherwise. */
  readonly urls: UrlRecorder | null;

  constructor(
    recorder: Recorder,
    opts: {
      clock: LatencyClock;
      corrected: boolean;
      timeoutMs: number;
      stages?: StageHistograms;
      urls?: UrlRecorder;
    },
  ) {
    this.recorder = recorder;
    this.stages = opts.stages ?? null;
    this.urls = opts.urls ?? null;
    this.clock = opts.clock;
    this.corrected = opts.corrected ? new ValueRecorder() : null;
    this.timeoutMs = opts.timeoutMs;
    this.timedOut = { kind: 'timeout', message: `no complete response within ${opts.timeoutMs} ms` };
  }

  /** False during warm-up: phases and corrected latency skip those requests, like the recorder. */
  get measuring(): boolean {
    return this.recorder.measuring;
  }

  /** Requests started and not yet finished, warm-up included. */
  get pending(): number {
    return this.recorder.inFlight;
  }

  /** Whether the next response's Server header is still wanted (ab's "Server Software"). */
  get wantsDocument(): boolean {
    return !this.documentNoted;
  }

  started(): void {
    this.recorder.started();
  }

  /**
   * A response arrived, its times in `times`. `setup`: the connection's opening, when this is
   * the first response on a connection the request opened (its timing phases carry it).
   */
  response(
    status: number,
    bodyBytes: number,
    totalBytes: number,
    server: string | null,
    /** The list entry the request carried (index into the target's requests); -1 without a list. */
    request = -1,
    setup: SetupTimes | null = null,
  ): void {
    const t = this.times;
    const doneAt = t[T_DONE]!;
    this.recorder.inFlight--;
    this.lastDoneAt = doneAt;
    const from = this.clock === 'intended' ? t[T_INTENDED]! : t[T_START]!;
    const latencyUs = Math.round((doneAt - from) * 1000);
    const measuring = this.recorder.measuring;
    const listed = this.urls !== null && request >= 0 && measuring;
    // A list's Length check is its URL's (url-recorder.ts), before this response can set it.
    if (listed)
      this.recorder.response(status, latencyUs, bodyBytes, totalBytes, this.urls.documentLength(request));
    else this.recorder.response(status, latencyUs, bodyBytes, totalBytes);
    if (listed) this.urls.response(request, status, latencyUs, bodyBytes, totalBytes);
    // When the request's bytes went out (after its connection opened): when the server got it.
    this.stages?.response(status, latencyUs, t[T_WRITTEN]!);
    if (measuring) {
      if (this.corrected !== null)
        this.corrected.record(Math.max(1, Math.round((doneAt - t[T_INTENDED]!) * 1000)));
      if (setup === null) this.phases.reusedConnection(t);
      else this.phases.newConnection(setup, t);
    }
    if (!this.documentNoted && status >= 200 && status < 300) {
      this.recorder.noteDocument(server, bodyBytes);
      this.documentNoted = this.recorder.totals.documentLength !== null;
    }
  }

  /** The corrected latency's summary (null without a rate cap or a measured response). */
  correctedLatency(): LatencyStats | null {
    return this.corrected === null ? null : recordedStats(this.corrected, REPORT_PERCENTILES);
  }

  /** The corrected latency as buckets, for a shard's report (null without a rate cap). */
  correctedBuckets(): BucketCounts | null {
    return this.corrected === null ? null : this.corrected.buckets();
  }

  /** A request failed without a response; `request` as in response(). */
  failed(f: ClassifiedError, doneAt: number, request = -1): void {
    this.recorder.inFlight--;
    this.lastDoneAt = doneAt;
    if (f.limit !== undefined) this.limitHits.set(f.limit, (this.limitHits.get(f.limit) ?? 0) + 1);
    this.recorder.error(f.kind, f.message);
    if (this.urls !== null && request >= 0 && this.recorder.measuring) this.urls.failed(request, f.kind);
    this.stages?.failed(doneAt);
  }
}
