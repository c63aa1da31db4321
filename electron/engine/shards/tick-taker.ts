import { ValueRecorder } from '../recording/histogram.ts';
import type { AskTaker, Recorder } from '../recording/recorder.ts';
import { askOf, CPU_READ_BY_READER, type SlotSender } from '../recording/window-slots.ts';
import { fromEpoch, type FromShard } from './messages.ts';

/** What a tick does beyond its window: the shard's, or the tick's warm-up's stand-ins. */
export interface TickSide {
  /** This thread's CPU over the window, percent of one core (read when the reader does not). */
  cpu: () => number;
  /** The slots' reader reads this thread's CPU (shard.ts ShardOptions.cpuReadByReader). */
  cpuReadByReader: boolean;
  /** A message to the reader: the warm-up's last window when the reader still holds the other slot. */
  post: (m: FromShard) => void;
  /** The measured part begins at the tick `at` (performance.now() ms). */
  measureFrom: (at: number) => void;
}

/*
 * The shard's side of each tick: the sending thread runs no timer for ticks; its link's reader
 * asks for each tick's window through the slots' ask word (recording/window-slots.ts), and
 * the recorder tests that word between two requests and calls take() when one waits (or the
 * link's wake message does, on an idle thread). One class, so the call is the same target in
 * the tick's warm-up (tick-warmup.ts) and in the run: a run's first ask taken through another
 * function than the warm-up's deoptimized the request path it was inlined in
 * (docs/benchmarks.md, 2026-12-05).
 */
export class TickTaker implements AskTaker {
  /** How long each hand-over held the sending thread up, us. */
  readonly pauses = new ValueRecorder();
  /** The last tick taken: its time (performance.now() ms) and grid index. */
  lastTickAt: number;
  lastIndex = 0;
  readonly #slots: SlotSender;
  readonly #recorder: Recorder;
  // The side's parts kept in this class's own fields: its shape is the same in the warm-up and the run.
  readonly #cpu: () => number;
  readonly #cpuReadByReader: boolean;
  readonly #post: (m: FromShard) => void;
  readonly #measureFrom: (at: number) => void;
  #over = false;

  constructor(slots: SlotSender, recorder: Recorder, side: TickSide, startAt: number) {
    this.#slots = slots;
    this.#recorder = recorder;
    this.#cpu = side.cpu;
    this.#cpuReadByReader = side.cpuReadByReader;
    this.#post = side.post;
    this.#measureFrom = side.measureFrom;
    this.lastTickAt = startAt;
  }

  /** Takes the reader's waiting ask, if one waits: the window so far is handed over at the tick's time. */
  take(): void {
    const slots = this.#slots;
    const word = slots.waiting;
    if (word === 0 || this.#over) return;
    const began = performance.now();
    const { index, endsWarmup } = askOf(word);
    // The tick's own time: nothing but this request (an answer, counted) was recorded since.
    const tickAt = fromEpoch(slots.askedAt);
    this.lastTickAt = tickAt;
    this.lastIndex = index;
    if (slots.free) {
      slots.handOver(this.#recorder, { index, at: slots.askedAt, endsWarmup, cpuPercent: this.cpuPercent() });
    } else if (endsWarmup) {
      // The reader still holds the other slot, and the warm-up's last window must not run
      // into the measured part: it goes as a message, taken from the slot.
      const window = this.#recorder.takeWindow(this.#cpu());
      this.#post({ type: 'window', index, at: slots.askedAt, endsWarmup, window });
    }
    // Otherwise the reader is behind: the window goes on in its slot, spanning this tick too.
    if (endsWarmup) {
      // Measured from the tick: the requests from this one on are the measured part's.
      this.#recorder.startMeasuring();
      this.#measureFrom(tickAt);
    }
    // Taken after the hand-over: a reader that sees it taken finds the slot handed.
    slots.took(word);
    this.pauses.record((performance.now() - began) * 1000);
  }

  /** A hand-over's CPU figure: this thread's, or CPU_READ_BY_READER where the reader reads it. */
  cpuPercent(): number {
    return this.#cpuReadByReader ? CPU_READ_BY_READER : this.#cpu();
  }

  /** The load is over: an ask still waiting is taken like any tick's (the last window runs from it), none after. */
  end(): void {
    this.take();
    this.#over = true;
  }
}
