import { LoadDriver } from './load-driver.ts';
import type { Client, ClientOwner, RequestLedger } from './run-state.ts';

export interface OpenPlan {
  /** Requests per second. */
  rate: number;
  /** Length of the measured schedule (the warm-up runs at the same rate before it). */
  durationMs: number;
  /** Cap on requests in flight; the connection pool grows up to it. */
  maxInFlight: number;
  timeoutMs: number;
}

/**
 * A request sent more than this after its scheduled time counts as late. Node's timers tick
 * in whole milliseconds (sends go out 0.6 ms late at the median), and GC pauses and a shared
 * CPU add a few ms now and then (p99 4-6 ms on a busy 2-core machine, with no I/O at all):
 * that is jitter, and it still shows in the latency, which runs from the scheduled time.
 * Beyond this the generator is not keeping the schedule.
 */
export const LATE_TOLERANCE_MS = 10;

/** New connections opened at once, at most (see acquire()). */
export const MAX_OPENING = 64;

/** Why a request due now found no client: the in-flight cap, or the cap on connections opening at once. */
type HeldBy = 'in-flight' | 'opening';

export interface OpenOutcome {
  /** Scheduled requests never sent: no free slot under maxInFlight until the schedule ended. */
  dropped: number;
  /**
   * First measured send (its scheduled time, or the start of measuring for a request the
   * warm-up left behind) to the last send (vegeta's "attack").
   */
  attackSeconds: number;
  /** Last send to the last answer (vegeta's "wait"). */
  waitSeconds: number;
  /**
   * Scheduled requests that were due when no slot was free, by the limit that held them:
   * the in-flight cap (maxInFlight), or MAX_OPENING connections being opened, none answered
   * yet (a silent server). Each counts once, for the limit that held when the schedule next
   * tried to catch up; they went out late, or were dropped.
   */
  heldBack: { inFlightCap: number; openingCap: number };
}

/**
 * The open model (vegeta attack -rate, wrk2 -R): request k is due at start + k/rate whatever
 * the server does. Its latency runs from that due time, so a stall shows in the tail instead
 * of silently slowing the schedule (coordinated omission). When no connection is free under
 * maxInFlight the schedule falls behind: requests go out late (counted) as soon as a slot
 * frees, and those still unsent when the schedule's time is up are dropped (counted). The
 * rate is never lowered.
 */
export class OpenDriver extends LoadDriver<OpenOutcome> {
  private readonly plan: OpenPlan;
  private readonly makeClient: (owner: ClientOwner) => Client;
  /** Clients with room, most recently freed last (reused first: warm connections). */
  private readonly idle: Client[] = [];
  private readonly isIdle = new Set<Client>();
  /** New clients whose first request has not finished (their connection is being opened). */
  private readonly opening = new Set<Client>();
  private readonly interval: number;
  /** Requests in the schedule; open-ended until measuring starts and fixes the end. */
  private total = Infinity;
  /** End of the schedule, ms after t0. */
  private endAt = Infinity;
  /** Set when the schedule's end timer fired. */
  private scheduleOver = false;
  private next = 0;
  private dropped = 0;
  private readonly heldBack = { inFlightCap: 0, openingCap: 0 };
  /** Requests of the schedule below this index are counted in heldBack already. */
  private heldUpTo = 0;
  private lastSendAt = 0;
  /** When measuring started (performance.now()); -Infinity until then. */
  private measureStartAt = -Infinity;
  private firstMeasuredAt = -1;
  private attackDone = false;
  private ticking = false;
  private pacer: NodeJS.Timeout | null = null;
  private windowEnd: NodeJS.Timeout | null = null;

  constructor(plan: OpenPlan, state: RequestLedger, makeClient: (owner: ClientOwner) => Client) {
    super(state, plan.timeoutMs);
    this.plan = plan;
    this.makeClient = makeClient;
    this.interval = 1000 / plan.rate;
  }

  /** Without a warm-up the schedule's duration runs from t0; with one, the warm-up runs at the same rate first. */
  protected override begin(warmupDone: Promise<void> | null): void {
    if (warmupDone === null) {
      this.beginMeasuring(this.t0);
    } else {
      void warmupDone.then(() => this.beginMeasuring(performance.now()));
      this.tick();
    }
  }

  /** Fixes the schedule's end: every request due before measuring start + duration. */
  private beginMeasuring(at: number): void {
    if (this.finished) return;
    this.measureStartAt = at;
    const endAt = at - this.t0 + this.plan.durationMs;
    this.endAt = endAt;
    this.total = Math.max(1, Math.ceil(endAt / this.interval - 1e-9));
    this.windowEnd = setTimeout(
      () => {
        // Node may fire a timer up to 1 ms early: the schedule is over all the same, or a
        // backlog with no free slot (a silent server) would keep it open until one frees.
        this.scheduleOver = true;
        this.tick();
      },
      Math.max(0, this.t0 + endAt - performance.now()),
    );
    this.tick();
  }

  override onFree(client: Client): void {
    if (this.finished) return;
    this.opening.delete(client);
    if (!this.isIdle.has(client) && client.free > 0) {
      this.isIdle.add(client);
      this.idle.push(client);
    }
    if (this.attackDone) {
      if (this.state.pending === 0) this.finish();
    } else if (this.pacer === null && !this.ticking) {
      // The schedule is behind (no pacer armed means it waits for a slot): catch up now.
      this.tick();
    }
  }

  /**
   * A client with room, or a new one while in-flight requests stay under the cap and fewer
   * than MAX_OPENING new connections are being opened. That bound matters after a stall: the
   * requests due meanwhile would otherwise each open a connection (a TLS handshake each)
   * although the existing ones free up within a round trip.
   */
  private acquire(): Client | HeldBy {
    if (this.state.pending >= this.plan.maxInFlight) return 'in-flight';
    while (this.idle.length > 0) {
      const c = this.idle[this.idle.length - 1]!;
      if (c.free > 0) return c;
      this.idle.pop();
      this.isIdle.delete(c);
    }
    if (this.opening.size >= MAX_OPENING) return 'opening';
    const c = this.makeClient(this);
    this.clients.push(c);
    this.opening.add(c);
    this.isIdle.add(c);
    this.idle.push(c);
    return c;
  }

  private tick(): void {
    if (this.finished || this.attackDone) return;
    this.ticking = true;
    if (this.pacer !== null) clearTimeout(this.pacer);
    this.pacer = null;
    const now = performance.now();
    const elapsed = now - this.t0;
    const due = Math.min(this.total, Math.floor(elapsed / this.interval) + 1);
    const recorder = this.state.recorder;
    while (this.next < due) {
      const client = this.acquire();
      if (typeof client === 'string') {
        const from = Math.max(this.next, this.heldUpTo);
        if (due > from) {
          this.heldUpTo = due;
          this.heldBack[client === 'in-flight' ? 'inFlightCap' : 'openingCap'] += due - from;
        }
        break;
      }
      const intended = this.t0 + this.next * this.interval;
      if (now - intended > LATE_TOLERANCE_MS) recorder.late(1);
      if (this.firstMeasuredAt < 0 && recorder.measuring) {
        this.firstMeasuredAt = Math.max(intended, this.measureStartAt);
      }
      this.next++;
      this.lastSendAt = now;
      client.send(intended, now);
    }
    this.ticking = false;
    if (this.next >= this.total) {
      this.endAttack();
    } else if (this.scheduleOver || elapsed >= this.endAt) {
      // The schedule's time is up and the backlog found no slot: those requests are dropped.
      this.dropped = this.total - this.next;
      this.next = this.total;
      this.endAttack();
    } else if (this.next >= due) {
      const wake = this.t0 + this.next * this.interval - performance.now();
      this.pacer = setTimeout(() => this.tick(), Math.max(0, wake));
    }
    // else: behind schedule with no free slot; onFree() resumes as soon as one frees.
  }

  private endAttack(): void {
    this.attackDone = true;
    if (this.windowEnd !== null) clearTimeout(this.windowEnd);
    this.windowEnd = null;
    if (this.state.pending === 0) this.finish();
  }

  protected override outcome(): OpenOutcome {
    const start = this.firstMeasuredAt >= 0 ? this.firstMeasuredAt : this.lastSendAt;
    // With requests dropped the attack lasted the whole schedule, not just until the last send
    // that found a slot: 64 sends in the first milliseconds of a 1 s schedule are 64 req/s.
    const attackEnd = this.dropped > 0 ? Math.max(this.lastSendAt, this.t0 + this.endAt) : this.lastSendAt;
    const lastDone = Math.max(this.state.lastDoneAt, attackEnd);
    return {
      dropped: this.dropped,
      heldBack: { ...this.heldBack },
      attackSeconds: Math.max(0, attackEnd - start) / 1000,
      waitSeconds: this.attackDone ? Math.max(0, lastDone - attackEnd) / 1000 : 0,
    };
  }

  protected override clearTimers(): void {
    if (this.pacer !== null) clearTimeout(this.pacer);
    if (this.windowEnd !== null) clearTimeout(this.windowEnd);
  }
}
