import { ERROR_KINDS } from '../../../shared/model/result-parts.ts';
import { COUNTS_LENGTH } from './hdr-layout.ts';
import { ValueRecorder } from './histogram.ts';
import type { Recorder, WindowStorage } from './recorder.ts';
import { emptyWindow, MAX_STATUS } from './window-counts.ts';

/*
 * A shard thread's windows, handed to the coordinator's thread without a copy (docs/benchmarks.md,
 * "The tick on the send path"). One SharedArrayBuffer per shard, made once when its thread is
 * opened, holds two window slots. The sending thread records straight into the current slot
 * (its status table and its latency and lateness counts, in HdrHistogram's layout). It runs no
 * timer for the ticks: the reader (shards/slot-reader.ts, on its own sample clock:
 * shards/slot-poll.ts) asks for each tick's window with one word (the tick's index and
 * endsWarmup, Atomics.store), and the sending thread, between two requests (the recorder's
 * record path: one Atomics.load compare), takes the ask: it writes the slot's header, hands the
 * slot over (Atomics.store) and goes on in the other one: no walk over the counts, no object,
 * no clone, no message, and no wake-up of its own (a thread woken for a tick ran it cold:
 * 0.1-0.5 ms for a few microseconds' work). A thread with no request to record (a silent server,
 * an idle closed run) is woken for the ask by one port message. The reader checks the slot,
 * adds it to the run's figures, zeroes it and hands it back. When the reader still holds the
 * other slot at an ask, the sending thread does not wait: the window goes on in the same slot
 * and spans that tick too (counts add, nothing is lost).
 */

/** A slot's state (Int32Array at the buffer's start, one per slot): whose it is. */
export const SLOT_RECORDING = 0;
export const SLOT_HANDED = 1;
/** Handed over with the shard's report (`slot-report` names it): read with the report, not before. */
export const SLOT_LAST = 2;

/** The header's fields (Float64Array), then one count per error kind (ERROR_KINDS' order). */
export const HEADER_FIELDS = [
  /** Its place on the run's grid, and its close (epoch ms); endsWarmup 1 or 0. */
  'index',
  'at',
  'endsWarmup',
  'requests',
  'bytesIn',
  'late',
  'inFlight',
  /** -1: not a staged closed run. */
  'connections',
  'cpuPercent',
  /** Values counted; the smallest above 0 (Infinity: none) and the largest (-1: none). */
  'latencyCount',
  'latencyMin',
  'latencyMax',
  'latenessCount',
  'latenessMin',
  'latenessMax',
] as const;
export type HeaderField = (typeof HEADER_FIELDS)[number];
/** Where each header field is. */
export const AT = Object.fromEntries(HEADER_FIELDS.map((f, i) => [f, i])) as Record<HeaderField, number>;
export const ERRORS_AT = HEADER_FIELDS.length;
const HEADER_LENGTH = ERRORS_AT + ERROR_KINDS.length;

/**
 * The ask's words (Int32Array after the states): the reader's latest ask (askWord: 0, none
 * yet), the last the sending thread took (they differ while an ask is waiting), and a count
 * the reader makes odd while it writes an ask (its word and its time), even after: the
 * sending thread takes an ask only when the count was even and the same before and after it
 * read both (no wait: a torn read is taken at the next request). Then the tick's time, epoch
 * ms (Float64Array).
 */
const ASK_AT = 8;
export const ASKED = 0;
export const TAKEN = 1;
export const WRITING = 2;
/**
 * The sending thread's Linux thread id (Int32), written once before its load starts when the
 * reader can read its CPU time (cpu.ts threadCpuNs); 0: it reads its own at each hand-over.
 */
const THREAD_AT = 20;
const ASK_TIME_AT = 24;
/** With a thread id: the sending thread's CPU time (ns) at its last window's close, Float64. */
const END_CPU_AT = 32;
const CONTROL_BYTES = 40;
const STATUS_AT = HEADER_LENGTH * 8;
const LATENCY_AT = STATUS_AT + MAX_STATUS * 4;
const LATENESS_AT = LATENCY_AT + COUNTS_LENGTH * 8;
const SLOT_BYTES = LATENESS_AT + COUNTS_LENGTH * 8;
/** The whole buffer: two slots of about 380 KB. */
export const WINDOW_SLOTS_BYTES = CONTROL_BYTES + 2 * SLOT_BYTES;

export type SlotNumber = 0 | 1;

/** A slot's parts, as views on the buffer. */
export interface SlotViews {
  header: Float64Array;
  status: Uint32Array;
  latency: Float64Array;
  lateness: Float64Array;
}

export const newWindowSlots = (): SharedArrayBuffer => new SharedArrayBuffer(WINDOW_SLOTS_BYTES);

export const slotStates = (buffer: SharedArrayBuffer): Int32Array => new Int32Array(buffer, 0, 2);

/** The ask's words: [ASKED, TAKEN, WRITING]. */
export const askWords = (buffer: SharedArrayBuffer): Int32Array => new Int32Array(buffer, ASK_AT, 3);

/** The sending thread's id for the reader's CPU readings ([0]; 0: none, see THREAD_AT). */
export const threadWord = (buffer: SharedArrayBuffer): Int32Array => new Int32Array(buffer, THREAD_AT, 1);

/** A header's cpuPercent when the reader reads the sending thread's CPU itself (threadWord). */
export const CPU_READ_BY_READER = -1;

/** The sending thread's CPU time (ns) at its last window's close ([0]; see END_CPU_AT). */
export const endCpu = (buffer: SharedArrayBuffer): Float64Array => new Float64Array(buffer, END_CPU_AT, 1);

/** The asked tick's time (epoch ms), in one Float64. */
export const askTime = (buffer: SharedArrayBuffer): Float64Array => new Float64Array(buffer, ASK_TIME_AT, 1);

/** The largest grid index an ask can carry (it and endsWarmup share one Int32). */
export const MAX_ASK_INDEX = 2 ** 30 - 1;

/** An ask for the window of the tick at `index` (1 and up): one word, never 0, growing with the index. */
export function askWord(index: number, endsWarmup: boolean): number {
  if (!(Number.isSafeInteger(index) && index >= 1 && index <= MAX_ASK_INDEX))
    throw new Error(`a window's ask needs a grid index from 1 to ${MAX_ASK_INDEX}, not ${index}`);
  return index * 2 + (endsWarmup ? 1 : 0);
}

/** What an ask's word asks for. */
export const askOf = (word: number): { index: number; endsWarmup: boolean } => ({
  index: word >> 1,
  endsWarmup: (word & 1) === 1,
});

export function slotViews(buffer: SharedArrayBuffer, slot: SlotNumber): SlotViews {
  const at = CONTROL_BYTES + slot * SLOT_BYTES;
  return {
    header: new Float64Array(buffer, at, HEADER_LENGTH),
    status: new Uint32Array(buffer, at + STATUS_AT, MAX_STATUS),
    latency: new Float64Array(buffer, at + LATENCY_AT, COUNTS_LENGTH),
    lateness: new Float64Array(buffer, at + LATENESS_AT, COUNTS_LENGTH),
  };
}

/** What a window's header says besides its counts, given at the tick that hands it over. */
export interface HandOver {
  index: number;
  /** Epoch ms. */
  at: number;
  endsWarmup: boolean;
  cpuPercent: number;
}

interface SenderSlot {
  header: Float64Array;
  storage: WindowStorage;
}

/** The sending thread's side: its recorder records into the current slot. */
export class SlotSender {
  readonly #states: Int32Array;
  /** The ask's words, shared with the recorder that tests them between two requests. */
  readonly asks: Int32Array;
  readonly #askTime: Float64Array;
  readonly #endCpu: Float64Array;
  /** The time (epoch ms) of the ask `waiting` last returned. */
  askedAt = 0;
  readonly #slots: [SenderSlot, SenderSlot];
  #current: SlotNumber = 0;

  constructor(buffer: SharedArrayBuffer, recorder: Recorder) {
    this.#states = slotStates(buffer);
    this.asks = askWords(buffer);
    this.#askTime = askTime(buffer);
    this.#endCpu = endCpu(buffer);
    const slot = (n: SlotNumber): SenderSlot => {
      const v = slotViews(buffer, n);
      return {
        header: v.header,
        storage: {
          window: emptyWindow(v.status),
          latency: new ValueRecorder(v.latency),
          lateness: new ValueRecorder(v.lateness),
        },
      };
    };
    this.#slots = [slot(0), slot(1)];
    recorder.useWindow(this.#slots[0].storage);
  }

  /**
   * The reader's ask not taken yet, as its word, its time in askedAt; 0: none is waiting, or
   * the reader is writing one (it is taken at the next request).
   */
  get waiting(): number {
    const a = this.asks;
    const writing = Atomics.load(a, WRITING);
    if ((writing & 1) === 1) return 0;
    const asked = Atomics.load(a, ASKED);
    if (asked === a[TAKEN]) return 0;
    const at = this.#askTime[0]!;
    if (Atomics.load(a, WRITING) !== writing) return 0;
    this.askedAt = at;
    return asked;
  }

  /** With the reader reading this thread's CPU (threadWord): its CPU time (ns) as its last window closes. */
  endCpu(ns: number): void {
    this.#endCpu[0] = ns;
  }

  /** The ask `word` is taken (whatever comes of it): the reader stops waiting for it. */
  took(word: number): void {
    Atomics.store(this.asks, TAKEN, word);
  }

  /** Whether the reader gave the other slot back: a tick can hand the current one over. */
  get free(): boolean {
    return Atomics.load(this.#states, 1 - this.#current) === SLOT_RECORDING;
  }

  /**
   * Writes the current window's header and hands its slot to the reader; unless it is the
   * last, the recorder goes on in the other slot (free: its counts zeroed by the reader).
   * O(1): a few fields and the error kinds' counts. Returns the slot handed over.
   */
  handOver(recorder: Recorder, h: HandOver, last = false): SlotNumber {
    if (!last && !this.free) throw new Error('a window slot was handed over while the reader held the other');
    const slot = this.#current;
    const { header, storage } = this.#slots[slot];
    const { window: w, latency, lateness } = storage;
    header[AT.index] = h.index;
    header[AT.at] = h.at;
    header[AT.endsWarmup] = h.endsWarmup ? 1 : 0;
    header[AT.requests] = w.requests;
    header[AT.bytesIn] = w.bytesIn;
    header[AT.late] = w.late;
    header[AT.inFlight] = recorder.inFlight;
    header[AT.connections] = recorder.connections ?? -1;
    header[AT.cpuPercent] = h.cpuPercent;
    header[AT.latencyCount] = latency.count;
    header[AT.latencyMin] = latency.smallest;
    header[AT.latencyMax] = latency.largest;
    header[AT.latenessCount] = lateness.count;
    header[AT.latenessMin] = lateness.smallest;
    header[AT.latenessMax] = lateness.largest;
    for (let k = 0; k < ERROR_KINDS.length; k++) header[ERRORS_AT + k] = w.errors.get(ERROR_KINDS[k]!) ?? 0;
    if (!last) {
      const other: SlotNumber = slot === 0 ? 1 : 0;
      const next = this.#slots[other].storage;
      next.window.requests = 0;
      next.window.bytesIn = 0;
      next.window.late = 0;
      next.window.errors.clear();
      next.latency.holding(0, Infinity, -1);
      next.lateness.holding(0, Infinity, -1);
      recorder.useWindow(next);
      this.#current = other;
    }
    // After the header: what the reader sees once it loads the state is all written.
    Atomics.store(this.#states, slot, last ? SLOT_LAST : SLOT_HANDED);
    return slot;
  }
}
