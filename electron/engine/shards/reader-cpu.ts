import { threadCpuNs } from '../cpu.ts';
import { endCpu, threadWord } from '../recording/window-slots.ts';

/** Asks whose readings are kept until their window is read: a reader a few ticks behind still finds its own. */
const KEPT = 4;

interface Reading {
  ns: number;
  /** Epoch ms. */
  at: number;
}

/*
 * A worker thread shard's CPU, read by its link on the coordinator's thread (window-slots.ts
 * threadWord), so the sending thread never reads it at a hand-over (a syscall, and cold: a
 * third of the hand-over's time, measured). Read at each ask, the tick's own moment: a window's
 * CPU runs from the reading at its start to the one at its close, as the sending thread's own
 * meter did from hand-over to hand-over. The last window's close is the sending thread's own
 * reading (endCpu): its thread may be gone by the time its report is read.
 */
export class ReaderCpu {
  readonly #thread: Int32Array;
  readonly #end: Float64Array;
  readonly #read: (tid: number) => number | null;
  #last: Reading | null = null;
  readonly #asked: (Reading & { index: number })[] = [];

  constructor(buffer: SharedArrayBuffer, read: (tid: number) => number | null = threadCpuNs) {
    this.#thread = threadWord(buffer);
    this.#end = endCpu(buffer);
    this.#read = read;
  }

  /** Whether the sending thread left its CPU to this side: it said its thread id. */
  get reads(): boolean {
    return Atomics.load(this.#thread, 0) !== 0;
  }

  /** The load starts at `atEpoch`: the first window's CPU runs from here. */
  begin(atEpoch: number): void {
    this.#last = this.#reading(atEpoch);
  }

  /** The tick at `index`, `atEpoch`, was asked for: its window closes here. */
  asked(index: number, atEpoch: number): void {
    const r = this.#reading(atEpoch);
    if (r === null) return;
    this.#asked.push({ index, ...r });
    if (this.#asked.length > KEPT) this.#asked.shift();
  }

  /**
   * The sending thread's CPU over the window read now (percent of one core): the one at
   * `index`, from its ask's reading, or the last, closed at `atEpoch` (its own reading). A
   * window whose reading is missing (the thread unreadable) shows 0, as does the one after it.
   */
  percent(index: number, last: boolean, atEpoch: number): number {
    const asked = this.#asked.findIndex((a) => a.index === index);
    let close: Reading | null = null;
    if (last) close = { ns: this.#end[0]!, at: atEpoch };
    else if (asked >= 0) close = this.#asked[asked]!;
    if (asked >= 0) this.#asked.splice(0, asked + 1);
    const from = this.#last;
    this.#last = close;
    if (from === null || close === null || !(close.at > from.at)) return 0;
    return Math.max(0, ((close.ns - from.ns) / 1e6 / (close.at - from.at)) * 100);
  }

  #reading(at: number): Reading | null {
    const tid = Atomics.load(this.#thread, 0);
    const ns = tid === 0 ? null : this.#read(tid);
    return ns === null ? null : { ns, at };
  }
}
