import type { Stage } from '../../../../shared/model/stages.ts';
import { ConnectionRamp } from './connection-ramp.ts';
import { LoadDriver } from './load-driver.ts';
import { T_INTENDED, T_START } from '../phases.ts';
import type { Client, ClientOwner, RequestLedger } from '../run-state.ts';

export interface ClosedPlan {
  /** Connections (HTTP/1.1) or sessions (HTTP/2), each carrying `depth` requests at a time. */
  connections: number;
  /**
   * Measure for this long, or until this many requests have finished while measuring (those
   * in flight when the warm-up ends count: they finish after it).
   */
  limit: { kind: 'duration'; ms: number } | { kind: 'requests'; count: number };
  /** Optional cap on the total rate (req/s): requests then follow a fixed schedule. */
  rate: number | null;
  /** A stage plan the connection count follows (connection-ramp.ts) instead of `connections`. */
  stages: readonly Stage[] | null;
  timeoutMs: number;
}

/**
 * The closed model (ab, wrk, autocannon): every connection keeps its requests in flight and
 * sends the next one as soon as an answer arrives. With a rate cap (wrk2's closed loop) the
 * k-th request is due at start + k/rate; a connection that is free early waits for its due
 * time, one that is late sends at once, and the intended time is kept so the corrected
 * latency can be reported beside the measured one.
 */
export class ClosedDriver extends LoadDriver<void> implements ClientOwner {
  private readonly plan: ClosedPlan;
  private readonly waiting = new Set<Client>();
  /** ms between due times under a rate cap; 0 without one. */
  private readonly interval: number;
  private token = 0;
  private measuring = false;
  /** Requests-count limit: how many more may be sent once measuring. */
  private budget = Infinity;
  /** Duration limit under a rate cap: a token due at or after the window's end is not sent. */
  private sendUntil = Infinity;
  private sendingDone = false;
  private pacer: NodeJS.Timeout | null = null;
  private deadline: NodeJS.Timeout | null = null;
  private readonly ramp: ConnectionRamp | null;
  /**
   * When fill()'s sends go out (performance.now() ms), set by its caller: a field, as a number
   * passed to a call that is not inlined is a heap object (see RequestLedger.times).
   */
  private now = 0;

  constructor(plan: ClosedPlan, state: RequestLedger, makeClient: (owner: ClientOwner) => Client) {
    super(state, plan.timeoutMs);
    this.plan = plan;
    this.interval = plan.rate === null ? 0 : 1000 / plan.rate;
    this.ramp =
      plan.stages === null
        ? null
        : new ConnectionRamp({
            stages: plan.stages,
            make: () => makeClient(this),
            clients: this.clients,
            start: (c) => {
              this.now = performance.now();
              this.fill(c);
            },
            changed: (n) => (state.recorder.connections = n),
          });
    if (this.ramp === null) for (let i = 0; i < plan.connections; i++) this.clients.push(makeClient(this));
    else state.recorder.connections = 0;
  }

  protected override begin(warmupDone: Promise<void> | null): void {
    // As in the open driver: the window runs from the common start, or from the warm-up's end.
    if (warmupDone === null) this.beginMeasuring(this.startAt);
    else void warmupDone.then(() => this.beginMeasuring(this.schedule?.measureFrom ?? performance.now()));
    // The stage plan starts at the common start in every shard (t0 is a rate cap's offset).
    this.state.stages?.begin(this.startAt);
    if (this.ramp !== null) this.ramp.begin(this.startAt);
    else {
      this.now = performance.now();
      for (const c of this.clients) this.fill(c);
    }
  }

  private beginMeasuring(from: number): void {
    if (this.finished || this.measuring) return;
    this.measuring = true;
    const limit = this.plan.limit;
    if (limit.kind === 'duration') {
      this.sendUntil = from + limit.ms;
      this.deadline = setTimeout(() => this.finish(), Math.max(0, this.sendUntil - performance.now()));
    } else {
      this.budget = limit.count - this.state.pending;
      if (this.budget <= 0) this.stopSending();
    }
  }

  private stopSending(): void {
    this.sendingDone = true;
    if (this.state.pending === 0) this.finish();
  }

  onFree(client: Client): void {
    if (this.finished) return;
    if (this.sendingDone) {
      if (this.state.pending === 0) this.finish();
      return;
    }
    // The time of the read (or the failure) that freed it.
    this.now = this.state.lastDoneAt;
    this.fill(client);
  }

  private fill(client: Client): void {
    if (this.ramp?.retired(client)) return;
    const now = this.now;
    const times = this.state.times;
    while (client.free > 0 && !this.finished) {
      if (this.sendingDone) return;
      if (this.measuring && this.budget <= 0) {
        this.stopSending();
        return;
      }
      let intended = now;
      if (this.interval > 0) {
        intended = this.t0 + this.token * this.interval;
        // A late deadline timer must not let the capped loop catch up past the schedule's end;
        // the connection idles until the deadline ends the run on time.
        if (intended >= this.sendUntil) return;
        if (intended > now) {
          this.wait(client, intended - now);
          return;
        }
        this.token++;
        this.state.recorder.sentLate(Math.round((now - intended) * 1000));
      }
      if (this.measuring) this.budget--;
      times[T_INTENDED] = intended;
      times[T_START] = now;
      client.send();
    }
  }

  /** A free connection waits for the next due time (rate cap). */
  private wait(client: Client, ms: number): void {
    this.waiting.add(client);
    if (this.pacer !== null) return;
    this.pacer = setTimeout(() => {
      this.pacer = null;
      const ready = [...this.waiting];
      this.waiting.clear();
      this.now = performance.now();
      for (const c of ready) this.fill(c);
    }, ms);
  }

  protected override clearTimers(): void {
    this.ramp?.stop();
    if (this.pacer !== null) clearTimeout(this.pacer);
    if (this.deadline !== null) clearTimeout(this.deadline);
  }

  protected override outcome(): void {
    return undefined;
  }
}
