import { LoadDriver } from './load-driver.ts';
import type { OpenSchedule } from './open-schedule.ts';
import { Pacer } from './pacer.ts';
import { T_INTENDED, T_START } from '../phases.ts';
import type { Client, ClientOwner, RequestLedger } from '../run-state.ts';
import type { WarmStock } from './warm-phase.ts';

export interface OpenPlan {
  /** When requests are due: a fixed rate, or a stage plan's ramps (open-schedule.ts). */
  schedule: OpenSchedule;
  /** Length of the measured schedule (the warm-up runs at the same rate before it). */
  durationMs: number;
  /** Cap on requests in flight; the connection pool grows up to it. */
  maxInFlight: number;
  timeoutMs: number;
  /** Clients whose connections opened before the start (warm-phase.ts): the pool begins with them. */
  warm: WarmStock | null;
}

/**
 * A request sent more than this after its scheduled time counts as late. Node's timers tick
 * in whole milliseconds (sends go out 0.6 ms late at the median), and GC pauses and a shared
 * CPU add a few ms now and then (p99 4-6 ms on a busy 2-core machine, with no I/O at all):
 * that is jitter, and it still shows in the latency, which runs from the scheduled time.
 * Beyond this the generator is not keeping the schedule.
 */
export const LATE_TOLERANCE_MS = 10;

/** New connections being opened at once, at most (see acquire()). */
export const MAX_OPENING = 64;

/** Why a request due now found no client: the in-flight cap, or the cap on connections opening at once. */
type HeldBy = 'in-flight' | 'opening';
/**
 * The pool opened before the first send holds what the schedule needs for a round trip this
 * long; more are opened ahead of need whenever the spare ones cover less than LOW_WATER_MS of
 * the schedule. A request never waits for a connection to open unless the server slows down.
 */
const EXPECTED_LATENCY_MS = 2;
const LOW_WATER_MS = 1;
/** A batch of sends re-reads the clock every this many sends (each write takes microseconds). */
const CLOCK_EVERY = 8;

/** A client of the pool, and where it sits in it. */
interface Slot {
  client: Client;
  /** On the idle or the fresh stack (both are cleaned lazily: a slot there may be full). */
  pooled: boolean;
  /** A request finished on it: the server answers this connection. */
  proven: boolean;
  /** In the count of unproven connections (see opening()). */
  counted: boolean;
}

/** The top slot of a stack with room, dropping full ones on the way (they come back when freed). */
function withRoom(stack: Slot[]): Slot | null {
  while (stack.length > 0) {
    const s = stack[stack.length - 1]!;
    if (s.client.free > 0) return s;
    stack.pop();
    s.pooled = false;
  }
  return null;
}

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
 * The open model (vegeta attack -rate, wrk2 -R): request k is due at start + k/rate (or where
 * a stage plan's integrated rate reaches k, k6's ramping-arrival-rate) whatever the server does. Its latency runs from that due time, so a stall shows in the tail instead
 * of silently slowing the schedule (coordinated omission). When no connection is free under
 * maxInFlight the schedule falls behind: requests go out late (counted) as soon as a slot
 * frees, and those still unsent when the schedule's time is up are dropped (counted). The
 * rate is never lowered.
 */
export class OpenDriver extends LoadDriver<OpenOutcome> {
  private readonly plan: OpenPlan;
  private readonly makeClient: (owner: ClientOwner) => Client;
  /** Slots freed by a response (warm connections), the most recent last: reused first. */
  private readonly idle: Slot[] = [];
  /** New slots never used yet (their connection opened ahead of need, or opening). */
  private readonly fresh: Slot[] = [];
  /** Slots counted as unproven (see opening()). */
  private unproven = 0;
  /** Requests one client takes (1 for HTTP/1.1, the stream cap for HTTP/2); known once one exists. */
  private perClient = 1;
  /** Spare capacity (requests) below which connections are opened ahead of need. */
  private readonly lowWater: number;
  /** When requests are due (the plan's schedule). */
  private readonly arrivals: OpenSchedule;
  /** Requests in the schedule; open-ended until measuring starts and fixes the end. */
  private total = Infinity;
  /** End of the schedule, ms after t0. */
  private endAt = Infinity;
  private next = 0;
  private dropped = 0;
  private lastSendAt = 0;
  /** When measuring started (performance.now()); -Infinity until then. */
  private measureStartAt = -Infinity;
  private firstMeasuredAt = -1;
  private attackDone = false;
  private sending = false;
  /** Set when the schedule's end timer fired. */
  private scheduleOver = false;
  /**
   * When sendDue() sends (performance.now() ms), set by its caller: a field, as a number passed
   * to a call that is not inlined is a heap object (see RequestLedger.times).
   */
  private now = 0;
  /** Wakes sendDue when the next request is due. */
  private readonly pacer = new Pacer(
    (now) => this.sendAt(now),
    () => this.state.pending === 0,
  );
  private windowEnd: NodeJS.Timeout | null = null;
  private readonly heldBack = { inFlightCap: 0, openingCap: 0 };
  /** Requests of the schedule below this index are counted in heldBack already. */
  private heldUpTo = 0;

  constructor(plan: OpenPlan, state: RequestLedger, makeClient: (owner: ClientOwner) => Client) {
    super(state, plan.timeoutMs);
    this.plan = plan;
    this.makeClient = makeClient;
    this.arrivals = plan.schedule;
    this.lowWater = Math.ceil((plan.schedule.peakRate * LOW_WATER_MS) / 1000) + 2;
    // Before the common start: taking hundreds of warm clients cost up to 10 ms after it.
    this.openPool();
  }

  /**
   * Without a warm-up the schedule's duration runs from the start (a shard's schedule starts
   * its offset later and ends with the others'); with one, the warm-up runs at the same rate first.
   */
  protected override begin(warmupDone: Promise<void> | null): void {
    // The stage plan starts at the common start in every shard (a staged shard has no offset).
    this.state.stages?.begin(this.startAt);
    if (warmupDone === null) {
      this.beginMeasuring(this.startAt);
    } else {
      // A shard measures from the run's warm-up end, so every shard's schedule ends together.
      void warmupDone.then(() => this.beginMeasuring(this.schedule?.measureFrom ?? performance.now()));
      this.sendAt(performance.now());
    }
  }

  /**
   * Takes the warm clients, then opens what a round trip of the schedule needs beyond them
   * (all of it without a warm phase), before the first send.
   */
  private openPool(): void {
    const warm = this.plan.warm;
    while (warm !== null && this.adopt(warm));
    const wanted = Math.ceil((this.arrivals.peakRate * EXPECTED_LATENCY_MS) / 1000) + 2;
    if (this.clients.length === 0) this.grow(true).client.prepare();
    const clients = Math.min(this.plan.maxInFlight, Math.ceil(wanted / this.perClient));
    while (this.clients.length < clients) this.grow(true).client.prepare();
  }

  /** A warm client (its connection open) in a planned slot of its own; false when none is left. */
  private adopt(warm: WarmStock): boolean {
    return this.addSlot((owner) => warm.take(owner), true) !== null;
  }

  /** Fixes the schedule's end: every request due before measuring start + duration. */
  private beginMeasuring(at: number): void {
    if (this.finished) return;
    this.measureStartAt = at;
    const endAt = at - this.t0 + this.plan.durationMs;
    this.endAt = endAt;
    this.total = this.arrivals.countBefore(endAt);
    this.armScheduleEnd();
    this.sendAt(performance.now());
  }

  /**
   * When a backlog still unsent counts as dropped: LATE_TOLERANCE_MS after the schedule's end
   * (ms after t0). Until then a request due just before the end that waits for a slot is late,
   * not lost (at 32,000 req/s a stall of a millisecond at the end dropped 30-40).
   */
  private dropAt(): number {
    return this.endAt + LATE_TOLERANCE_MS;
  }

  /**
   * Ends the schedule at dropAt(), so a backlog with no free slot (a silent server) is dropped
   * then instead of waiting for a slot. Node fires a timer up to 1 ms early (its clock is in
   * whole ms): until that time has passed, the timer is armed again for the rest, or the
   * requests due in its last millisecond would count as dropped.
   */
  private armScheduleEnd(): void {
    this.windowEnd = setTimeout(
      () => {
        const now = performance.now();
        if (now < this.t0 + this.dropAt()) return this.armScheduleEnd();
        this.scheduleOver = true;
        this.sendAt(now);
      },
      Math.max(0, this.t0 + this.dropAt() - performance.now()),
    );
  }

  private freed(slot: Slot): void {
    if (!slot.proven) {
      slot.proven = true;
      if (slot.counted) this.unproven--;
      slot.counted = false;
    }
    if (this.finished) return;
    if (!slot.pooled && slot.client.free > 0) {
      slot.pooled = true;
      this.idle.push(slot);
    }
    if (this.attackDone) {
      if (this.state.pending === 0) this.finish();
    } else {
      // Awake anyway: send what is due now instead of waiting for the pacer (now: the read's time).
      this.now = this.state.lastDoneAt;
      this.sendDue();
    }
  }

  /** A new client in a fresh slot (`planned`: part of the pool the schedule needs from the start). */
  private grow(planned = false): Slot {
    return this.addSlot(this.makeClient, planned)!;
  }

  /**
   * A fresh slot for the client `source` gives it (a new one, or a warm one), in the pool; null
   * when it gives none. A slot not `planned` counts as opening until a request finishes on it.
   */
  private addSlot(source: (owner: ClientOwner) => Client | null, planned: boolean): Slot | null {
    const slot: Slot = { client: null as unknown as Client, pooled: true, proven: false, counted: !planned };
    const client = source({ onFree: () => this.freed(slot) });
    if (client === null) return null;
    slot.client = client;
    if (slot.counted) this.unproven++;
    this.clients.push(client);
    if (this.clients.length === 1) this.perClient = Math.max(1, client.free);
    this.fresh.push(slot);
    return slot;
  }

  /**
   * Connections not proven yet: opened since the start and no request finished on them (the
   * pool opened for the schedule at the start counts once a request goes out on it). A server
   * that accepts and never answers holds these at MAX_OPENING; connections that answered do
   * not count, so the pool grows past it when the server is merely slow.
   */
  private opening(): number {
    return this.unproven;
  }

  /**
   * A slot with room, or a new one while in-flight requests stay under the cap and fewer than
   * MAX_OPENING connections are being opened. That bound matters after a stall: the requests
   * due meanwhile would otherwise each open a connection (a TLS handshake each) although the
   * existing ones free up within a round trip. (Letting each connection that answered allow
   * one more, so the pool doubles per round trip, halved the late requests against a server
   * answering in 100 ms but, over TLS, opened every connection the cap allows at 8,000 req/s
   * and quadrupled the p99: the handshakes. Letting as many open at once as have answered did
   * the same without TLS: a cold start at 20,000 req/s went from the warm pool to the 1,000 cap
   * in 100 ms, the opening stalled the sends, and p99.9 was 130-190 ms against 37-47 ms with
   * this cap.)
   */
  private acquire(): Slot | HeldBy {
    if (this.state.pending >= this.plan.maxInFlight) return 'in-flight';
    const slot = withRoom(this.idle) ?? withRoom(this.fresh);
    if (slot !== null) return slot;
    if (this.clients.length >= this.plan.maxInFlight) return 'in-flight';
    if (this.opening() >= MAX_OPENING) return 'opening';
    return this.grow();
  }

  /** Opens connections ahead of need while the spare ones cover less than LOW_WATER_MS of the schedule. */
  private topUp(): void {
    const spare = (this.idle.length + this.fresh.length) * this.perClient;
    const wanted = Math.ceil((this.lowWater - spare) / this.perClient);
    if (wanted <= 0) return;
    const room = Math.min(MAX_OPENING - this.opening(), this.plan.maxInFlight - this.clients.length, wanted);
    for (let n = 0; n < room; n++) this.grow().client.prepare();
  }

  /** sendDue() at `now` (a wake-up's, once: the boxed number costs nothing per request). */
  private sendAt(now: number): void {
    this.now = now;
    this.sendDue();
  }

  /**
   * Sends every request due by `this.now` that finds a slot (one wake-up, one batch), then
   * arms the pacer for the next one. Runs from the pacer and whenever a response frees a slot;
   * when the schedule is behind and no slot is free, the next freed slot resumes it.
   */
  private sendDue(): void {
    if (this.finished || this.attackDone || this.sending) return;
    this.sending = true;
    let now = this.now;
    const times = this.state.times;
    const due = Math.min(this.total, this.arrivals.dueBy(now - this.t0));
    const recorder = this.state.recorder;
    let sent = 0;
    while (this.next < due) {
      const slot = this.acquire();
      if (typeof slot === 'string') {
        const from = Math.max(this.next, this.heldUpTo);
        if (due > from) {
          this.heldUpTo = due;
          this.heldBack[slot === 'in-flight' ? 'inFlightCap' : 'openingCap'] += due - from;
        }
        break;
      }
      if (sent > 0 && sent % CLOCK_EVERY === 0) now = performance.now();
      sent++;
      const intended = this.t0 + this.arrivals.dueAt(this.next);
      const late = now - intended;
      if (late > LATE_TOLERANCE_MS) recorder.late(1);
      recorder.sentLate(late > 0 ? Math.round(late * 1000) : 0);
      if (this.firstMeasuredAt < 0 && recorder.measuring) {
        this.firstMeasuredAt = Math.max(intended, this.measureStartAt);
      }
      this.next++;
      this.lastSendAt = now;
      if (!slot.counted && !slot.proven) {
        slot.counted = true;
        this.unproven++;
      }
      times[T_INTENDED] = intended;
      times[T_START] = now;
      slot.client.send();
    }
    this.sending = false;
    if (this.next >= this.total) {
      this.endAttack();
    } else if (this.scheduleOver || now - this.t0 >= this.dropAt()) {
      // The schedule's time is up and the backlog found no slot: those requests are dropped.
      this.dropped = this.total - this.next;
      this.next = this.total;
      this.endAttack();
    } else {
      this.topUp();
      // Behind schedule with no free slot: a freed slot resumes (see freed()).
      if (this.next >= due) {
        const next = this.pacer.next;
        next[0] = this.t0 + this.arrivals.dueAt(this.next);
        next[1] = now;
        this.pacer.arm();
      }
    }
  }

  private endAttack(): void {
    this.attackDone = true;
    if (this.windowEnd !== null) clearTimeout(this.windowEnd);
    this.windowEnd = null;
    this.pacer.cancel();
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
    this.pacer.cancel();
    if (this.windowEnd !== null) clearTimeout(this.windowEnd);
  }
}
