import { SampleClock } from '../recording/sample-clock.ts';
import type { RunSpec } from '../types.ts';
import { fromEpoch } from './messages.ts';
import type { SlotReader } from './slot-reader.ts';
import type { SlotNumber } from '../recording/window-slots.ts';

/**
 * How long after a tick its slot is first looked for: the sending thread's hand-over takes
 * microseconds, and a look at the tick itself would wake this thread while the sending one is
 * at its tick (on a shared core, the woken thread runs first: 0.1 ms of the tick's pause).
 */
const MARGIN_MS = 5;
/** Then how often again, and how many times, before the next tick's look: a sending thread held up by its sends. */
const RETRY_MS = 20;
const RETRIES = 5;

/*
 * When the coordinator's side looks for a thread shard's handed-over slots (recording/window-
 * slots.ts): on the shard's own grid (a sample clock of the same interval and warm-up, begun
 * a moment after the same start), so a moment after each tick, again a few times while none is there, and
 * before anything the shard says (its last window is in a slot too). So the sending thread
 * wakes nobody at its tick: it hands the slot over and goes on sending, and the wake-up and
 * the read fall on this side's own timer (a ping from the tick cost the sending thread
 * 0.1-0.4 ms of wall time on a shared core: the woken reader ran first).
 */
export class SlotPoll {
  readonly #reader: SlotReader;
  readonly #deliver: (slot: SlotNumber) => void;
  readonly #clock: SampleClock;
  readonly #warmupMs: number;
  #timer: NodeJS.Timeout | undefined;

  constructor(reader: SlotReader, spec: RunSpec, deliver: (slot: SlotNumber) => void) {
    this.#reader = reader;
    this.#deliver = deliver;
    this.#warmupMs = spec.options.warmupSeconds * 1000;
    this.#clock = new SampleClock(spec.options.sampleIntervalMs, () => this.#look(RETRIES));
  }

  /** The load starts at `atEpoch` (the `start` the shard is sent): the grid, MARGIN_MS later, begins there. */
  start(atEpoch: number): void {
    this.#clock.begin(fromEpoch(atEpoch) + MARGIN_MS, this.#warmupMs);
  }

  /** Delivers the slot handed over, if there is one; whether there was. */
  poll(): boolean {
    const slot = this.#reader.handed();
    if (slot !== null) this.#deliver(slot);
    return slot !== null;
  }

  /** The shard said its last, or its link closed: no more looks. */
  stop(): void {
    this.#clock.stop();
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Looks now, and again RETRY_MS later while none is there, `retries` times. */
  #look(retries: number): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.poll() || retries === 0) return;
    this.#timer = setTimeout(() => this.#look(retries - 1), RETRY_MS);
  }
}
