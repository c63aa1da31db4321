import { SampleClock, type Tick } from '../recording/sample-clock.ts';
import type { RunSpec } from '../types.ts';
import { fromEpoch, toEpoch } from './messages.ts';
import type { SlotReader } from './slot-reader.ts';
import type { SlotNumber } from '../recording/window-slots.ts';

/**
 * How long after an ask its slot is first looked for, and the sending thread woken if it has
 * not taken the ask: at 1,000 req/s it records a request every millisecond or less, and takes
 * the ask at the first; a thread that records nothing this long is idle, and wakes at once.
 */
const WAKE_MS = 3;
/** Then how often again, and how many times, before the next tick's look: a sending thread held up by its sends. */
const RETRY_MS = 20;
const RETRIES = 5;

/*
 * The coordinator's side of a thread shard's ticks (recording/window-slots.ts): a sample clock
 * of the shard's grid (the same interval and warm-up, begun at the same start) asks the sending
 * thread for each tick's window through the slots' ask word, and looks for the slot it hands
 * over a moment later, again a few times while none is there, and before anything the shard
 * says (its last window is in a slot too). The sending thread runs no timer for ticks: it takes
 * the ask between two requests, warm; one that has not taken it WAKE_MS after the ask (nothing
 * to record: a silent server, an idle closed run) is woken by `wake` (a port message) and takes
 * it there.
 */
export class SlotPoll {
  readonly #reader: SlotReader;
  readonly #deliver: (slot: SlotNumber) => void;
  readonly #wake: () => void;
  readonly #clock: SampleClock;
  readonly #warmupMs: number;
  #timer: NodeJS.Timeout | undefined;

  constructor(reader: SlotReader, spec: RunSpec, deliver: (slot: SlotNumber) => void, wake: () => void) {
    this.#reader = reader;
    this.#deliver = deliver;
    this.#wake = wake;
    this.#warmupMs = spec.options.warmupSeconds * 1000;
    this.#clock = new SampleClock(spec.options.sampleIntervalMs, (tick) => this.#tick(tick));
  }

  /** The load starts at `atEpoch` (the `start` the shard is sent): the grid begins there. */
  start(atEpoch: number): void {
    this.#reader.begin(atEpoch);
    this.#clock.begin(fromEpoch(atEpoch), this.#warmupMs);
  }

  /** Delivers the slot handed over, if there is one; whether there was. */
  poll(): boolean {
    const slot = this.#reader.handed();
    if (slot !== null) this.#deliver(slot);
    return slot !== null;
  }

  /** The shard said its last, or its link closed: no more asks or looks. */
  stop(): void {
    this.#clock.stop();
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** A tick: the slot handed over before it read (the other one is then free), its window asked for. */
  #tick(tick: Tick): void {
    this.poll();
    this.#reader.ask(tick.index, tick.endsWarmup, toEpoch(tick.at));
    this.#later(WAKE_MS, () => this.#look(RETRIES, true));
  }

  /**
   * Looks, and while the ask waits: wakes the sending thread (`wake`, the first time) and looks
   * again WAKE_MS later, then every RETRY_MS, `retries` times; a slot handed over after that is
   * read at the next tick.
   */
  #look(retries: number, wake: boolean): void {
    this.#timer = undefined;
    // Read before the look: an ask taken by then has its slot handed over (the sending thread
    // marks it taken after the hand-over), so the look finds it.
    const waiting = this.#reader.waiting;
    this.poll();
    if (waiting === 0 || retries === 0) return;
    if (wake) {
      this.#wake();
      this.#later(WAKE_MS, () => this.#look(retries, false));
    } else {
      this.#later(RETRY_MS, () => this.#look(retries - 1, false));
    }
  }

  #later(ms: number, fn: () => void): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(fn, ms);
  }
}
