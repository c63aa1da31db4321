import type { ErrorKind, Sample } from '../../../shared/model/result.ts';
import type { BucketCounts, ShardWindow } from '../../../shared/model/shard-facts.ts';
import type { HeldWindow } from './held-window.ts';
import { sampleBuckets, ValueRecorder, type Histogram } from './histogram.ts';
import { foldedCpu } from './sample-clock.ts';
import { SettledFigures } from './settled.ts';
import { emptyTotals, type Totals } from './totals.ts';
import { isNon2xx, isOkStatus } from './status-class.ts';
import {
  addWindow,
  clearWindow,
  emptyWindow,
  MAX_STATUS,
  statusCodesOf,
  type Window,
} from './window-counts.ts';

/** No asks (a recorder without window slots): the words never differ. */
const NO_ASKS = new Int32Array(2);

/** What takes a waiting ask: the shard's tick (shards/tick-taker.ts), one class in its warm-up and its run. */
export interface AskTaker {
  take(): void;
}
const NO_TAKER: AskTaker = { take: () => undefined };

/** The percentiles a Sample carries. */
const WINDOW_PERCENTILES = [50, 90, 99] as const;
const LATENESS_PERCENTILES = [99] as const;

/** Where a window is recorded: its counts, its latencies, its sends' lateness. */
export interface WindowStorage {
  window: Window;
  latency: ValueRecorder;
  lateness: ValueRecorder;
}

/**
 * Where every finished request is counted, in each shard of a run (shards/shard.ts). Load generators
 * call response()/error() per request (cheap: a counter and one histogram record); at each
 * tick the shard closes the window with takeWindow(), which adds it to the whole-run figures
 * and hands its counts over; a thread's shard records into window slots instead (useWindow:
 * window-slots.ts), whose reader settles them. The run's coordinator keeps a Recorder of its own as the maker
 * of the run's Samples: addWindow() takes the shards' merged window, tick() makes it a Sample
 * (the final fold included). Nothing per request is kept, so memory stays flat however long
 * a run lasts.
 */
export class Recorder {
  /** The measured run's latencies, lateness and status codes, settled at each tick (with window slots: by their reader). */
  readonly settled = new SettledFigures();
  /** This window's latencies as they arrive. */
  private windowValues = new ValueRecorder();
  /**
   * Scheduled sends (open model, rate cap): how late each went out, actual minus intended
   * send time in us. The generator's own delay, beside the latency that includes it.
   */
  private latenessValues = new ValueRecorder();
  /** The last closed window's latencies and lateness, kept until the next tick (see tick's final fold). */
  private previousValues = new ValueRecorder();
  private previousLateness = new ValueRecorder();
  private w: Window = emptyWindow();
  private closed: { counts: Window; sample: Sample; from: number } | null = null;
  private readonly sloUs: number | null;
  private readonly sloMessage: string;
  private seq = 0;
  private lastTickAt: number;
  /** False during warm-up: the window is still sampled, but not added to the totals. */
  measuring: boolean;
  /** Requests sent and not yet finished; load generators keep it current. */
  inFlight = 0;
  /** Closed model with stages: connections carrying load, kept current by the driver; null otherwise. */
  connections: number | null = null;
  readonly totals: Totals = emptyTotals();

  private readonly startedAt: number;
  /** Whether closed windows go into `settled`: not in the coordinator's Sample maker (see the constructor). */
  private readonly settles: boolean;
  /** A window slots' ask words ([asked, taken]: window-slots.ts), tested between two requests. */
  private asks: Int32Array<ArrayBufferLike> = NO_ASKS;
  private taker: AskTaker = NO_TAKER;

  /**
   * `settles: false` for the coordinator's Sample maker: the run's figures are its shards'
   * (their reports, their slots' readers), so the windows it only samples are not added up a
   * second time (a walk of both histograms and the status table per tick, for nothing).
   */
  constructor(opts: { sloMs: number | null; warmup: boolean; now: number; settles?: boolean }) {
    this.settles = opts.settles ?? true;
    this.sloUs = opts.sloMs === null ? null : opts.sloMs * 1000;
    this.sloMessage = `response slower than ${opts.sloMs} ms`;
    this.measuring = !opts.warmup;
    this.startedAt = opts.now;
    this.lastTickAt = opts.now;
  }

  /** The measured run's latencies (see SettledFigures). */
  get histogram(): Histogram {
    return this.settled.histogram;
  }

  /**
   * A response arrived. latencyUs: from (intended) send to last byte. documentLength: what ab's
   * Length check compares its body with, the run's first's, or a list's URL's (null: no check).
   */
  response(
    status: number,
    latencyUs: number,
    bodyBytes: number,
    totalBytes: number,
    documentLength: number | null = this.totals.documentLength,
  ): void {
    const w = this.w;
    w.requests++;
    w.bytesIn += totalBytes;
    if (status >= 0 && status < MAX_STATUS) w.status[status]!++;
    this.windowValues.record(latencyUs < 1 ? 1 : latencyUs);
    if (!this.measuring) {
      this.between();
      return;
    }
    const t = this.totals;
    t.total++;
    t.responses++;
    t.inBody += bodyBytes;
    t.inTotal += totalBytes;
    if (isNon2xx(status)) t.non2xx++;
    // ab's "Length" check, against the first measured response's length (null until a load generator notes it).
    if (documentLength !== null && bodyBytes !== documentLength) t.lengthMismatch++;
    const slow = this.sloUs !== null && latencyUs > this.sloUs;
    if (slow) {
      t.sloExceeded++;
      this.countError('slo', this.sloMessage, w);
    } else if (isOkStatus(status)) {
      t.ok++;
    }
    this.between();
  }

  /** A request failed without a response. */
  error(kind: ErrorKind, message: string): void {
    this.w.requests++;
    this.countError(kind, message, this.w);
    if (this.measuring) {
      this.totals.total++;
      this.totals.errors++;
    }
    this.between();
  }

  private countError(kind: ErrorKind, message: string, w: Window): void {
    w.errors.set(kind, (w.errors.get(kind) ?? 0) + 1);
    if (!this.measuring) return;
    const entry = this.totals.errorSet.get(kind);
    if (entry) entry.count++;
    else this.totals.errorSet.set(kind, { count: 1, message });
  }

  /** A response that answered no request arrived: the server's protocol error, no request's. */
  unsolicited(): void {
    if (this.measuring) this.totals.unsolicited++;
  }

  /** A request was started: it counts as sent once, and is in flight until it finishes. */
  started(): void {
    this.between();
    this.inFlight++;
    if (this.measuring) this.totals.sent++;
  }

  /** A request's bytes were written (again, when it goes out anew on a new connection). */
  sent(bodyBytes: number, totalBytes: number): void {
    if (!this.measuring) return;
    const t = this.totals;
    t.outBody += bodyBytes;
    t.outTotal += totalBytes;
  }

  /** Open model: a request missed its scheduled send time. */
  late(n = 1): void {
    this.between();
    this.w.late += n;
    if (this.measuring) this.totals.late += n;
  }

  /** A scheduled request went out lateUs after its intended send time. */
  sentLate(lateUs: number): void {
    this.between();
    this.latenessValues.record(lateUs);
  }

  /** First-response facts for the report (ab's Server Software, Document Length). */
  noteDocument(serverSoftware: string | null, bodyBytes: number): void {
    if (!this.measuring || this.totals.documentLength !== null) return;
    this.totals.documentLength = bodyBytes;
    this.totals.serverSoftware = serverSoftware;
  }

  /**
   * Ends warm-up: from now on requests count. Call tick() just before, so the warm-up's
   * last window stays out of the totals. Requests still in flight from the warm-up are
   * counted when they finish.
   */
  startMeasuring(): void {
    this.measuring = true;
  }

  /**
   * Closes the current window and returns it as a Sample. Called once per tick, and once more
   * with `final` when the load ended. A final window under half as long as the one before it
   * (a request-count run or a stop just after a tick, or the tick at a timed run's planned
   * end) is folded into that one: the sample returned then carries the earlier window's seq
   * and spans both, with their counts added and percentiles of both histograms, so what
   * replaces the earlier sample is one honest window instead of a sliver of wind-down (a
   * handful of answers: a rate near 0 or a wild one, a latency spike).
   */
  tick(now: number, cpuPercent?: number, final = false): Sample {
    const w = this.w;
    this.settleWindow();
    const previous = this.closed;
    const fold =
      final &&
      previous !== null &&
      previous.sample.warmup === !this.measuring &&
      now - this.lastTickAt < (previous.sample.intervalSeconds * 1000) / 2;
    let sample: Sample;
    if (fold && previous) {
      addWindow(previous.counts, w);
      this.windowValues.moveInto(this.previousValues);
      this.latenessValues.moveInto(this.previousLateness);
      const merged = this.sampleOf(previous.sample.seq, previous.counts, previous.from, now);
      const before = previous.sample.cpuPercent;
      sample =
        before === undefined || cpuPercent === undefined
          ? merged
          : {
              ...merged,
              cpuPercent: foldedCpu(
                { cpuPercent: before, intervalSeconds: previous.sample.intervalSeconds },
                merged.intervalSeconds,
                cpuPercent,
              ),
            };
      this.closed = { counts: previous.counts, sample, from: previous.from };
    } else {
      // The window just closed is kept (for a final fold); the one before it is cleared for reuse.
      this.previousValues.clear();
      this.previousLateness.clear();
      [this.windowValues, this.previousValues] = [this.previousValues, this.windowValues];
      [this.latenessValues, this.previousLateness] = [this.previousLateness, this.latenessValues];
      sample = this.sampleOf(this.seq++, w, this.lastTickAt, now);
      if (cpuPercent !== undefined) sample.cpuPercent = cpuPercent;
      this.closed = { counts: w, sample, from: this.lastTickAt };
    }
    if (final) sample.final = true;
    // The counts no Sample needs any more (the window folded in, or the one closed before this
    // one) are the next window's: a tick allocates no table.
    const free = fold ? w : previous?.counts;
    if (free === undefined) this.w = emptyWindow();
    else {
      clearWindow(free);
      this.w = free;
    }
    this.lastTickAt = now;
    return sample;
  }

  /** Adds the window being closed to the run's figures, if it was measured (it stays in the window). */
  private settleWindow(): void {
    if (this.measuring && this.settles)
      this.settled.add(this.windowValues, this.latenessValues, this.w.status);
  }

  /** The Sample of window counts w, its latencies and lateness those of the last closed window. */
  private sampleOf(seq: number, w: Window, from: number, to: number): Sample {
    const latency = this.previousValues.summary(WINDOW_PERCENTILES);
    const lateness = this.previousLateness.summary(LATENESS_PERCENTILES);
    const intervalSeconds = Math.max((to - from) / 1000, 1e-3);
    return {
      seq,
      elapsedSeconds: (to - this.startedAt) / 1000,
      intervalSeconds,
      warmup: !this.measuring,
      requests: w.requests,
      totalRequests: this.totals.total,
      requestsPerSecond: w.requests / intervalSeconds,
      bytesInPerSecond: w.bytesIn / intervalSeconds,
      latency:
        latency === null
          ? null
          : {
              mean: latency.mean / 1000,
              p50: latency.percentiles.get(50)! / 1000,
              p90: latency.percentiles.get(90)! / 1000,
              p99: latency.percentiles.get(99)! / 1000,
              max: latency.max / 1000,
            },
      statusCodes: statusCodesOf(w.status),
      errors: Object.fromEntries(w.errors),
      inFlight: this.inFlight,
      ...(w.late > 0 ? { late: w.late } : {}),
      ...(lateness === null ? {} : { sendLatenessP99: lateness.percentiles.get(99)! / 1000 }),
      ...(this.connections === null ? {} : { connections: this.connections }),
      ...sampleBuckets(latency, lateness),
    };
  }

  /**
   * Closes the current window as a shard hands it over (see shards/shard.ts): counts and
   * buckets, which the coordinator merges with the other shards' into one Sample.
   */
  takeWindow(cpuPercent: number): ShardWindow {
    const w = this.w;
    this.settleWindow();
    const window: ShardWindow = {
      requests: w.requests,
      bytesIn: w.bytesIn,
      statusCodes: statusCodesOf(w.status),
      errors: Object.fromEntries(w.errors),
      late: w.late,
      inFlight: this.inFlight,
      cpuPercent,
      latency: this.windowValues.buckets(),
      lateness: this.latenessValues.buckets(),
      ...(this.connections === null ? {} : { connections: this.connections }),
    };
    this.windowValues.clear();
    this.latenessValues.clear();
    clearWindow(w);
    return window;
  }

  /**
   * A shard with window slots (window-slots.ts): the window goes on in `next`, zeroed, and the
   * one closed is left as it is, for the slot's reader. Nothing is walked or settled here.
   */
  useWindow(next: WindowStorage): void {
    this.w = next.window;
    this.windowValues = next.latency;
    this.latenessValues = next.lateness;
  }

  /**
   * A shard with window slots: `taker` takes the reader's ask when one waits (its words differ),
   * tested as a send begins (late, sentLate, started) and once a response or a failure is
   * counted, so the window it hands over closes between two requests' bookkeeping, never
   * inside one's, and the measured part begins there when it ends the warm-up.
   */
  watchAsks(asks: Int32Array, taker: AskTaker): void {
    this.asks = asks;
    this.taker = taker;
  }

  /** Between two requests: one Atomics.load and a compare, the ask taken when one waits. */
  private between(): void {
    const a = this.asks;
    if (Atomics.load(a, 0) !== a[1]) this.taker.take();
  }

  /**
   * The coordinator's side: adds the shards' merged window to the current one, as if its
   * requests had finished here, so tick() makes the run's Sample of it (folds included).
   */
  addWindow(held: HeldWindow): void {
    addWindow(this.w, held.window);
    held.latency.addTo(this.windowValues);
    held.lateness.addTo(this.latenessValues);
    this.inFlight = held.inFlight;
    if (held.connections !== null) this.connections = held.connections;
    if (this.measuring) this.totals.total += held.window.requests;
  }

  /** The measured run's send lateness as buckets, for a shard's report (after the last window). */
  latenessBuckets(): BucketCounts {
    return this.settled.latenessBuckets();
  }

  /** Status-code table of the measured part of the run (call after the last tick). */
  statusCodes(): Record<string, number> {
    return this.settled.statusCodes();
  }
}
