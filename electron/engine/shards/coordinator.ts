import type { ErrorKind } from '../../../shared/model/result.ts';
import { describeIssues, issuesOf } from '../../../shared/model/validation.ts';
import { type ShardReport } from '../../../shared/model/shard-facts.ts';
import type { Shard } from '../../../shared/shards/plan.ts';
import { shardSequence, type SendSequence } from '../../../shared/model/request-list.ts';
import type { CpuAccount } from '../cpu.ts';
import type { RunSpec } from '../types.ts';
import type { Arrived, Assembly, Member, RunFailure, Starter } from './assembly.ts';
import type { ShardBackend } from './links.ts';
import { overdueLinks, WATCH_EVERY_MS } from './link-watch.ts';
import { fromEpoch, fromShardSchema, toEpoch, type ToShard } from './messages.ts';
import { addHeld, heldFrom, WindowPool } from '../recording/held-window.ts';
import type { SlotNumber } from '../recording/window-slots.ts';
import type { Arriving, HeldReportMessage, HeldWindowMessage } from './slot-reader.ts';

/*
 * The one coordinator of every run: its shards (one worker in this thread, worker threads, a
 * machine's processes or pods: links.ts, electron/distributed/) reached through links, started
 * together once every one is ready, their windows merged by place on the run's grid (every
 * shard's window of a place, or the ones it went past, in one: histograms added bucket by
 * bucket, so a place's percentiles are the whole run's; windows held in typed arrays from a
 * pool, recording/held-window.ts, so a tick allocates nothing and one shard's window is its
 * place's as it is), their reports collected. What the
 * merged places and reports become is an Assembly's: the run's Samples and RunResult
 * (run-assembly.ts), or, for a machine's shard, the same messages one level up
 * (electron/distributed/link-end.ts). A shard lost once the load began (crashed, killed, silent
 * past its link's limit) is closed and named; the others are stopped and what they measured is
 * kept.
 */

export interface CoordinatorRun {
  spec: RunSpec;
  /** The load split into shards (shared/shards/plan.ts), one or more. */
  shards: Shard[];
  /** Where each shard runs. */
  backendFor: (shard: Shard) => ShardBackend;
  signal: AbortSignal;
  /** The coordinator's own CPU is charged here (a shard in its thread leaves it out). */
  cpu: CpuAccount;
  /** The pre-flight request's round trip, handed to each shard (the open model's warm pool). */
  roundTripMs?: number;
}

export class Coordinator<R> implements Starter {
  readonly #run: CoordinatorRun;
  readonly #assembly: Assembly<R>;
  readonly #resolve: (r: R) => void;
  readonly members: Member[] = [];
  #started = false;
  /** Grid index and close of the latest place. */
  #lastIndex = 0;
  #lastTickAt = 0;
  /** The first failure: a load generator that broke down, a shard lost; the result says it. */
  #failure: RunFailure | null = null;
  #settled = false;
  #openedAt = 0;
  #watch: NodeJS.Timeout | null = null;
  /** The windows held from their arrival to their place's Sample, reused. */
  readonly #pool = new WindowPool();

  constructor(run: CoordinatorRun, assembly: Assembly<R>, resolve: (r: R) => void) {
    this.#run = run;
    this.#assembly = assembly;
    this.#resolve = resolve;
  }

  begin(): void {
    const { spec, shards, signal, cpu } = this.#run;
    this.#openedAt = performance.now();
    cpu.charge(() => {
      for (const shard of shards) {
        const i = this.members.length;
        const backend = this.#run.backendFor(shard);
        // A link says nothing before open returns (its messages come on a later turn).
        const link = backend.open(
          {
            spec: { ...spec, load: shard.load, sequence: sendsOf(shard, spec) },
            shard,
            ...(this.#run.roundTripMs === undefined ? {} : { roundTripMs: this.#run.roundTripMs }),
          },
          {
            message: (raw) => cpu.charge(() => this.#onMessage(this.members[i]!, raw)),
            lost: (reason) => cpu.charge(() => this.#lost(this.members[i]!, reason)),
            slot: (slot) => cpu.charge(() => this.#onSlot(this.members[i]!, slot)),
          },
        );
        this.members.push({
          index: i,
          name: backend.kind === 'machine' ? `shard ${i + 1}/${shards.length}` : `engine worker ${i + 1}`,
          link,
          backend,
          ready: false,
          queue: [],
          frontier: 0,
          lastAt: 0,
          heardAt: this.#openedAt,
          inFlight: 0,
          connections: null,
          report: null,
          reportIndex: 0,
          machine: null,
          lost: null,
          endAt: 0,
          startedAt: 0,
          warm: null,
          target: null,
        });
      }
    });
    if (this.members.some((m) => m.backend.silenceMs !== null || m.backend.readyTimeoutMs !== null)) {
      // Judged after the loop's I/O: when this thread itself was held up, what the links sent
      // meanwhile waits in their pipes, and is read before anyone is found silent.
      this.#watch = setInterval(
        () => setImmediate(() => cpu.charge(() => this.#watchLinks())),
        WATCH_EVERY_MS,
      );
      this.#watch.unref();
    }
    if (signal.aborted) this.#stop();
    else signal.addEventListener('abort', () => cpu.charge(() => this.#stop()), { once: true });
  }

  #post(message: ToShard): void {
    for (const m of this.members) if (m.lost === null && m.report === null) m.link.send(message);
  }

  /** The load begins at t0 (performance.now() ms) on every shard: the grid counts from it. */
  start(t0: number): void {
    if (this.#settled || this.#started) return;
    this.#started = true;
    this.#lastTickAt = t0;
    for (const m of this.members) {
      m.lastAt = t0;
      // Nothing is due from a shard before its load begins: its silence counts from there.
      m.heardAt = Math.max(m.heardAt, t0);
    }
    this.#assembly.started(t0);
    this.#post({ type: 'start', at: toEpoch(t0) });
  }

  #onMessage(m: Member, raw: unknown): void {
    if (this.#settled || m.lost !== null) return;
    m.heardAt = performance.now();
    let value = raw;
    // A line of a byte stream (a process's stdout, a pod's log): parsed here, on this account.
    if (typeof raw === 'string') {
      try {
        value = JSON.parse(raw);
      } catch {
        this.#lost(m, `sent a line that is not a message: ${raw.slice(0, 120)}`);
        return;
      }
    }
    const parsed = fromShardSchema.safeParse(value);
    if (!parsed.success) {
      this.#lost(m, `sent a malformed message: ${describeIssues(issuesOf(parsed.error))}`);
      return;
    }
    const msg = parsed.data;
    if (msg.type === 'ready') {
      m.ready = true;
      m.warm = msg.warm ?? null;
      m.target = msg.target ?? null;
      if (!this.#started && this.members.every((x) => x.ready)) this.#assembly.ready(this);
      return;
    }
    if (msg.type === 'failed') {
      // Its own words: a thread's load generator that cannot load says all; a machine's shard is named.
      const message = m.backend.kind === 'machine' ? `${m.name}: ${msg.message}` : msg.message;
      this.#lost(m, message, msg.kind ?? 'other', true);
      return;
    }
    this.#take(m, msg);
  }

  /** A window slot the shard's link found handed over: read without a message to parse. */
  #onSlot(m: Member, slot: SlotNumber): void {
    if (this.#settled || m.lost !== null) return;
    m.heardAt = performance.now();
    this.#take(m, { type: 'slot', slot });
  }

  /** A shard's window or report: read from its slots by their reader, or from the message. */
  #take(m: Member, arriving: Arriving): void {
    if (!this.#started || m.frontier === Infinity) {
      this.#lost(m, `sent a ${arriving.type} out of turn`);
      return;
    }
    const msg = this.#held(m, arriving);
    if (typeof msg === 'string') {
      this.#lost(m, msg);
      return;
    }
    this.#arrive(m, msg);
    if (msg.type === 'report') {
      m.report = msg.report;
      m.reportIndex = msg.index;
      m.machine = msg.machine ?? null;
      m.startedAt = fromEpoch(msg.startedAt);
      m.endAt = m.lastAt;
      m.frontier = Infinity;
      if (msg.failure !== null && this.#failure === null) {
        const message = m.backend.kind === 'machine' ? `${m.name}: ${msg.failure}` : msg.failure;
        this.#failure = { kind: 'other', message };
        this.#post({ type: 'stop' });
      }
    }
    this.#advance();
  }

  /** The window or report as held here (its window in the pool's typed arrays), or what is wrong with it. */
  #held(m: Member, msg: Arriving): HeldWindowMessage | HeldReportMessage | string {
    if (m.link.slots) return m.link.slots.take(msg, this.#pool);
    if (msg.type === 'slot' || msg.type === 'slot-report') return `sent a ${msg.type} without window slots`;
    return { ...msg, window: heldFrom(this.#pool.take(), msg.window) };
  }

  #arrive(m: Member, msg: HeldWindowMessage | HeldReportMessage): void {
    const at = fromEpoch(msg.at);
    m.queue.push({
      index: msg.index,
      at,
      seconds: Math.max(0, (at - m.lastAt) / 1000),
      endsWarmup: msg.type === 'window' && msg.endsWarmup,
      window: msg.window,
    });
    m.lastAt = at;
    m.frontier = msg.index;
  }

  /**
   * A grid place every running shard has sent its window for (or gone past) is merged with the
   * windows up to it; once every shard has reported (or is lost), the final place takes what is left.
   */
  #advance(): void {
    const upTo = Math.min(...this.members.map((m) => m.frontier));
    if (upTo === Infinity) this.#complete();
    else if (upTo > this.#lastIndex) this.#place(upTo, null);
  }

  /** The place of every queued window up to grid index `upTo`; the final one when `end` is given. */
  #place(upTo: number, end: number | null): void {
    const taken = this.members.map((m) => {
      const count = m.queue.findIndex((a) => a.index > upTo);
      const t = m.queue.splice(0, count < 0 ? m.queue.length : count);
      const last = t.at(-1);
      if (last) {
        m.inFlight = last.window.inFlight;
        m.connections = last.window.connections;
      }
      return t;
    });
    const all = taken.flat();
    const at = end ?? Math.max(this.#lastTickAt, ...all.map((a) => a.at));
    const cpus = taken.map(cpuOver);
    const present = this.members.filter((m) => m.lost === null);
    // One window is its place's as it is; several are added into one.
    const window = all.length === 1 ? all[0]!.window : this.#pool.take();
    if (all.length > 1) for (const a of all) addHeld(window, a.window);
    // Each shard's latest state, whether or not it sent a window for this place.
    window.inFlight = present.reduce((n, m) => n + m.inFlight, 0);
    window.cpuPercent = cpus.reduce((a, b) => a + b, 0);
    const connections = present.flatMap((m) => (m.connections === null ? [] : [m.connections]));
    window.connections = connections.length > 0 ? connections.reduce((a, b) => a + b, 0) : null;
    const index = end === null ? upTo : Math.max(this.#lastIndex, ...this.members.map((m) => m.reportIndex));
    this.#lastTickAt = at;
    this.#lastIndex = Math.max(this.#lastIndex, index);
    this.#assembly.place({
      index,
      at,
      endsWarmup: all.some((a) => a.endsWarmup),
      window,
      cpus,
      final: end !== null,
    });
    // The place is made: its windows are the pool's again.
    if (all.length > 1) for (const a of all) this.#pool.give(a.window);
    this.#pool.give(window);
  }

  /** Every shard has reported or is lost: the final place where the last load ended, then the result. */
  #complete(): void {
    const reported = this.members.filter((m): m is Member & { report: ShardReport } => m.report !== null);
    if (reported.length === 0) {
      this.#settle(this.#assembly.abandoned('failed', this.#failure, this.members));
      return;
    }
    const end = Math.max(this.#lastTickAt, ...reported.map((m) => m.endAt));
    this.#place(Infinity, end);
    this.#settle(this.#assembly.complete({ end, failure: this.#failure, members: this.members, reported }));
  }

  #stop(): void {
    if (this.#settled) return;
    // Stopped before the load began: nothing to wait for.
    if (!this.#started) this.#settle(this.#assembly.abandoned('cancelled', null, this.members));
    else this.#post({ type: 'stop' });
  }

  /**
   * A shard is gone before its report: before the load began, the run cannot start (what is
   * said is its reason); after, it is closed and named, the others are stopped, and what they
   * measured makes the result.
   */
  #lost(m: Member, reason: string, kind: ErrorKind = 'other', ownWords = false): void {
    if (this.#settled || m.report !== null || m.lost !== null) return;
    const message = ownWords ? reason : `${m.name} ${reason}`;
    m.lost = message;
    m.link.close();
    if (!this.#started) {
      const stopped = this.#run.signal.aborted;
      const failure = stopped ? null : { kind, message };
      this.#settle(this.#assembly.abandoned(stopped ? 'cancelled' : 'failed', failure, this.members));
      return;
    }
    m.frontier = Infinity;
    if (this.#failure === null) {
      this.#failure = { kind, message };
      this.#post({ type: 'stop' });
    }
    this.#advance();
  }

  /** Links that keep a shard waiting past their limits (link-watch.ts) are given up. */
  #watchLinks(): void {
    const found = overdueLinks(this.members, {
      now: performance.now(),
      started: this.#started,
      openedAt: this.#openedAt,
    });
    for (const { member, reason } of found) {
      this.#lost(member, reason);
      if (this.#settled) return;
    }
  }

  #settle(result: R): void {
    if (this.#settled) return;
    this.#settled = true;
    if (this.#watch) clearInterval(this.#watch);
    for (const m of this.members) m.link.close();
    this.#resolve(result);
  }
}

/** Runs the coordinator to what its assembly makes of the run; never rejects. */
export function coordinateWith<R>(run: CoordinatorRun, assembly: Assembly<R>): Promise<R> {
  return new Promise<R>((resolve) => new Coordinator(run, assembly, resolve).begin());
}

/** A shard's CPU over its windows in one place, each weighted by its length (0 without one). */
function cpuOver(windows: readonly Arrived[]): number {
  const seconds = windows.reduce((a, w) => a + w.seconds, 0);
  if (seconds === 0) return windows.at(-1)?.window.cpuPercent ?? 0;
  return windows.reduce((a, w) => a + w.window.cpuPercent * w.seconds, 0) / seconds;
}

/** Which of the run's sends a shard makes: its place among the run's shards, within its machine's place. */
function sendsOf(shard: Shard, spec: RunSpec): SendSequence {
  const machine = spec.placement?.shard;
  return shardSequence(shard.index, shard.count, machine && shardSequence(machine.index, machine.count));
}
