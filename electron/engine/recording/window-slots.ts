import { ERROR_KINDS } from '../../../shared/model/result-parts.ts';
import { COUNTS_LENGTH } from './hdr-layout.ts';
import { ValueRecorder } from './histogram.ts';
import type { Recorder, WindowStorage } from './recorder.ts';
import { emptyWindow, MAX_STATUS } from './window-counts.ts';

/*
 * A shard thread's windows, handed to the coordinator's thread without a copy (docs/benchmarks.md,
 * "The tick on the send path"). One SharedArrayBuffer per shard, made once when its thread is
 * opened, holds two window slots. The sending thread records straight into the current slot
 * (its status table and its latency and lateness counts, in HdrHistogram's layout); at a tick
 * it writes the slot's header, hands the slot over (Atomics.store) and goes on in the other
 * one: no walk over the counts, no object, no clone, no message. The reader
 * (shards/slot-reader.ts), which looks for handed slots on its own timer (shards/slot-poll.ts),
 * checks the slot, adds it to the run's figures, zeroes it and hands it back. When the reader still
 * holds the other slot at a tick, the sending thread does not wait: the window goes on in the
 * same slot and spans that tick too (counts add, nothing is lost).
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

const CONTROL_BYTES = 8;
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
  readonly #slots: [SenderSlot, SenderSlot];
  #current: SlotNumber = 0;

  constructor(buffer: SharedArrayBuffer, recorder: Recorder) {
    this.#states = slotStates(buffer);
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
