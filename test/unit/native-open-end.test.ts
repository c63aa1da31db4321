import { afterEach, describe, expect, it, vi } from 'vitest';
import { LATE_TOLERANCE_MS, OpenDriver, type OpenOutcome } from '../../electron/engine/native/drivers/open-driver.ts';
import { fixedRateSchedule } from '../../electron/engine/native/drivers/open-schedule.ts';
import { T_DONE, T_FIRST_BYTE, T_INTENDED, T_START, T_WRITTEN } from '../../electron/engine/native/phases.ts';
import { RequestLedger, type Client, type ClientOwner } from '../../electron/engine/native/run-state.ts';
import { Recorder } from '../../electron/engine/recording/recorder.ts';

/*
 * The open model's end of schedule (native/drivers/open-driver.ts) on fake timers: the schedule, the
 * server's answers and Node's timers all on one scripted clock, so the rule is checked to the
 * millisecond, however busy the machine. A request due before the end that waits for a slot
 * is sent late when one frees within LATE_TOLERANCE_MS after the end, and dropped after; the
 * timer that ends the schedule may fire early (Node's, and these fake ones, count whole
 * milliseconds: a delay of 30.5 ms fires after 30) without dropping a request still in time.
 */

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

/**
 * A connection of one request at a time whose server answers request k in answerMs(k) ms, or
 * holds it ('held') until the test releases what it holds.
 */
class ScriptedClient implements Client {
  free = 1;
  inFlight = 0;
  readonly #owner: ClientOwner;
  readonly #ledger: RequestLedger;
  readonly #answerMs: (k: number) => number | 'held';
  readonly #sent: number[];
  readonly #held: (() => void)[];

  constructor(
    owner: ClientOwner,
    ledger: RequestLedger,
    answerMs: (k: number) => number | 'held',
    sent: number[],
    held: (() => void)[],
  ) {
    this.#owner = owner;
    this.#ledger = ledger;
    this.#answerMs = answerMs;
    this.#sent = sent;
    this.#held = held;
  }

  send(): void {
    const k = this.#sent.length;
    // The driver sets the request's times in the ledger just before a send.
    const intendedAt = this.#ledger.times[T_INTENDED]!;
    const now = this.#ledger.times[T_START]!;
    this.#sent.push(now);
    this.free--;
    this.inFlight++;
    this.#ledger.started();
    const answer = (): void => {
      const done = performance.now();
      this.free++;
      this.inFlight--;
      const t = this.#ledger.times;
      t[T_INTENDED] = intendedAt;
      t[T_START] = now;
      t[T_WRITTEN] = now;
      t[T_FIRST_BYTE] = done;
      t[T_DONE] = done;
      this.#ledger.response(200, 2, 100, null);
      this.#owner.onFree(this);
    };
    const ms = this.#answerMs(k);
    if (ms === 'held') this.#held.push(answer);
    else setTimeout(answer, ms);
  }

  prepare(): void {}
  sweep(): void {}
  destroy(): void {}
}

/** An open run on the fake clock, from its start to its outcome; `sent`: each request's send time (ms after the start). */
async function openRun(plan: {
  rate: number;
  durationMs: number;
  maxInFlight: number;
  answerMs: (k: number) => number | 'held';
  /** When the held answers come, ms after the start (a timer set after the schedule's own). */
  releaseAt?: number;
  /**
   * From `from` ms on, timers fire this much ahead of performance.now(), as Node's may: its
   * loop clock counts whole milliseconds (read from a coarse clock), so a timer fires up to
   * 2 ms early by performance.now().
   */
  timersAhead?: { from: number; ms: number };
}): Promise<{ outcome: OpenOutcome; sent: number[]; late: number }> {
  vi.useFakeTimers({
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate', 'performance'],
  });
  const ahead = plan.timersAhead;
  if (ahead) {
    const timersClock = performance.now.bind(performance);
    const zero = timersClock();
    vi.spyOn(performance, 'now').mockImplementation(() => {
      const t = timersClock();
      return t - zero >= ahead.from ? t - ahead.ms : t;
    });
  }
  const start = performance.now();
  const recorder = new Recorder({ sloMs: null, warmup: false, now: start });
  const ledger = new RequestLedger(recorder, { clock: 'intended', corrected: false, timeoutMs: 60_000 });
  const sent: number[] = [];
  const held: (() => void)[] = [];
  const driver = new OpenDriver(
    {
      schedule: fixedRateSchedule(plan.rate),
      durationMs: plan.durationMs,
      maxInFlight: plan.maxInFlight,
      timeoutMs: 60_000,
      warm: null,
    },
    ledger,
    (owner) => new ScriptedClient(owner, ledger, plan.answerMs, sent, held),
  );
  const done = driver.run(new AbortController().signal, null);
  if (plan.releaseAt !== undefined) setTimeout(() => held.splice(0).forEach((f) => f()), plan.releaseAt);
  await vi.advanceTimersByTimeAsync(plan.durationMs + 1000);
  const outcome = await done;
  return { outcome, sent: sent.map((t) => t - start), late: recorder.totals.late };
}

describe('the end of an open schedule', () => {
  it('sends a request that waits for a slot at the end late, when one frees within the tolerance', async () => {
    // 1,000 req/s for 20 ms, 2 slots answered in 1 ms, but the last two requests due (18 and
    // 19) find both slots held 5 ms by requests 16 and 17: they go out late, after the end.
    const { outcome, sent } = await openRun({
      rate: 1000,
      durationMs: 20,
      maxInFlight: 2,
      answerMs: (k) => (k === 16 || k === 17 ? 5 : 1),
    });
    expect(sent).toHaveLength(20);
    expect(outcome.dropped).toBe(0);
    expect(sent[18]!).toBeGreaterThanOrEqual(21);
    expect(sent[19]!).toBeLessThan(20 + LATE_TOLERANCE_MS);
  });

  it('drops what finds no slot by the tolerance after the end', async () => {
    // The same, the two slots held 25 ms: no slot frees until 10 ms past the end.
    const { outcome, sent } = await openRun({
      rate: 1000,
      durationMs: 20,
      maxInFlight: 2,
      answerMs: (k) => (k === 16 || k === 17 ? 25 : 1),
    });
    expect(sent).toHaveLength(18);
    expect(outcome.dropped).toBe(2);
  });

  it('keeps the tolerance whole when the timer that ends the schedule fires early', async () => {
    // 21 requests due (20.9 ms at 1,000 req/s), one slot. Request 15's answer is held until
    // 30.9 ms in by the timers' clock, 30.4 ms by performance.now() (timers run 0.5 ms ahead
    // after 25 ms, when nothing is due): the slot frees within the tolerance (30.9 ms), and
    // request 16 goes out late then; 17 to 20 find no slot by then and are dropped. The end
    // timer, asked for 30.9 ms, fires just before the answer, at 30.4 ms by performance.now():
    // taken as the end, it would have dropped request 16 as well.
    const { outcome, sent, late } = await openRun({
      rate: 1000,
      durationMs: 20.9,
      maxInFlight: 1,
      answerMs: (k) => (k === 15 ? 'held' : 1),
      releaseAt: 30.9,
      timersAhead: { from: 25, ms: 0.5 },
    });
    expect(sent).toHaveLength(17);
    expect(sent[16]!).toBeLessThan(20.9 + LATE_TOLERANCE_MS);
    expect(outcome.dropped).toBe(4);
    expect(late).toBe(1);
  });
});
