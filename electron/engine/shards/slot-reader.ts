import { ERROR_KINDS } from '../../../shared/model/result-parts.ts';
import { COUNTS_LENGTH, HIGHEST_TRACKABLE_US, indexOf } from '../recording/hdr-layout.ts';
import { heldFrom, type HeldWindow, type WindowPool } from '../recording/held-window.ts';
import { ValueRecorder } from '../recording/histogram.ts';
import { settledReport } from '../recording/recorder-report.ts';
import { SettledFigures } from '../recording/settled.ts';
import {
  ASKED,
  askOf,
  askWord,
  askTime,
  askWords,
  AT,
  CPU_READ_BY_READER,
  ERRORS_AT,
  SLOT_HANDED,
  SLOT_LAST,
  SLOT_RECORDING,
  slotStates,
  TAKEN,
  WRITING,
  slotViews,
  type HeaderField,
  type SlotNumber,
  type SlotViews,
} from '../recording/window-slots.ts';
import type { FromShard } from './messages.ts';
import { ReaderCpu } from './reader-cpu.ts';

/*
 * The coordinator's side of a thread's window slots (recording/window-slots.ts): a slot the
 * shard handed over is checked, its used spans added into a window of the coordinator's pool
 * (recording/held-window.ts: the same typed arrays, so no list of buckets is made) and, when
 * measured, to the run's figures (the shard's recorder leaves them to this side), then zeroed
 * and handed back.
 * The check is the boundary's: the layout is fixed, so instead of zod over an object every
 * header field and every count is checked to be what it can only be (a whole number of
 * requests, a count that adds up to its header's), and a slot that is not is refused by name.
 */

/** A slot the link found handed over (LinkListener.slot), or a message of the shard's. */
export type Arriving =
  { type: 'slot'; slot: SlotNumber } | Extract<FromShard, { type: 'window' | 'report' | 'slot-report' }>;
/** A shard's window or report message as the coordinator holds it: its window a held one. */
export type Held<T extends { window: unknown }> = Omit<T, 'window'> & { window: HeldWindow };
export type HeldWindowMessage = Held<Extract<FromShard, { type: 'window' }>>;
export type HeldReportMessage = Held<Extract<FromShard, { type: 'report' }>>;

interface ReaderSlot {
  views: SlotViews;
  latency: ValueRecorder;
  lateness: ValueRecorder;
  /** The counts' memory, for the native compare of what lies outside their span. */
  latencyBytes: Buffer;
  latenessBytes: Buffer;
}

const bytesOf = (a: Float64Array): Buffer => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

const whole = (v: number): boolean => Number.isSafeInteger(v) && v >= 0;

/** Each histogram's header fields. */
const RANGE = {
  latency: { count: 'latencyCount', min: 'latencyMin', max: 'latencyMax' },
  lateness: { count: 'latenessCount', min: 'latenessMin', max: 'latenessMax' },
} as const;

/**
 * What is wrong with a slot's header, naming the field; null when nothing is. `cpuByReader`:
 * the sending thread left its CPU to the reader (cpuPercent CPU_READ_BY_READER).
 */
function headerProblem(h: Float64Array, cpuByReader: boolean): string | null {
  const field = (f: HeaderField): number => h[AT[f]]!;
  const bad = (f: string, v: number, what: string): string => `${f} is ${v}, not ${what}`;
  for (const f of [
    'index',
    'requests',
    'bytesIn',
    'late',
    'inFlight',
    'latencyCount',
    'latenessCount',
  ] as const) {
    if (!whole(field(f))) return bad(f, field(f), 'a whole number ≥ 0');
  }
  for (let k = 0; k < ERROR_KINDS.length; k++) {
    const v = h[ERRORS_AT + k]!;
    if (!whole(v)) return bad(`errors.${ERROR_KINDS[k]}`, v, 'a whole number ≥ 0');
  }
  if (!(Number.isFinite(field('at')) && field('at') > 0)) return bad('at', field('at'), 'a time');
  if (field('endsWarmup') !== 0 && field('endsWarmup') !== 1)
    return bad('endsWarmup', field('endsWarmup'), '0 or 1');
  const connections = field('connections');
  if (connections !== -1 && !whole(connections))
    return bad('connections', connections, '-1 or a whole number ≥ 0');
  const cpu = field('cpuPercent');
  if (!(Number.isFinite(cpu) && cpu >= 0) && !(cpuByReader && cpu === CPU_READ_BY_READER))
    return bad('cpuPercent', cpu, 'a percentage');
  for (const names of Object.values(RANGE)) {
    const min = field(names.min);
    const max = field(names.max);
    if (min !== Infinity && !(min > 0 && min <= HIGHEST_TRACKABLE_US))
      return bad(names.min, min, 'a value or Infinity');
    if (max !== -1 && !(max >= 0 && max <= HIGHEST_TRACKABLE_US)) return bad(names.max, max, 'a value or -1');
  }
  return null;
}

/**
 * Zeros to compare a slot's counts outside their span with: a native compare takes 8 us for
 * both stretches of one histogram, where the loop below over all 23,552 counts takes 60 us (and
 * both histograms' were most of the coordinator's per-tick work: docs/benchmarks.md, issue 38).
 */
const ZEROS = Buffer.alloc(COUNTS_LENGTH * 8);

/** Whether the counts from index `from` to `to` (excluded) are all +0, byte for byte. */
const zeroBetween = (bytes: Buffer, from: number, to: number): boolean =>
  from >= to || bytes.compare(ZEROS, from * 8, to * 8, from * 8, to * 8) === 0;

/**
 * What is wrong with a slot's counts of one kind, naming the count; null when nothing is:
 * each a whole number, adding up to the header's count, none outside its smallest and largest
 * value's buckets (a count there would lie outside what the window's walks cover). When
 * everything outside those buckets is zero (compared natively: `bytes` is the counts' memory),
 * only the counts inside are walked; otherwise all of them, to name the one that is not.
 */
function countsProblem(
  counts: Float64Array,
  bytes: Buffer,
  kind: keyof typeof RANGE,
  h: Float64Array,
): string | null {
  const names = RANGE[kind];
  const total = h[AT[names.count]]!;
  const min = h[AT[names.min]]!;
  const max = h[AT[names.max]]!;
  const maxAt = max < 0 ? -1 : indexOf(max);
  const minAt = min === Infinity ? COUNTS_LENGTH : indexOf(min);
  // Inside: index 0 (values of 0) up to maxAt, and max(minAt, 1) to maxAt.
  const top = Math.max(maxAt + 1, 1);
  const low = Math.min(Math.max(minAt, 1), top);
  const clean =
    (maxAt >= 0 || counts[0] === 0) && zeroBetween(bytes, 1, low) && zeroBetween(bytes, top, COUNTS_LENGTH);
  let sum = 0;
  // Ascending, as the walk over all of them goes: the same count is named first either way.
  const ranges = clean ? [maxAt >= 0 ? 0 : 1, 1, low, top] : [0, COUNTS_LENGTH];
  for (let r = 0; r < ranges.length; r += 2) {
    for (let i = ranges[r]!; i < ranges[r + 1]!; i++) {
      const c = counts[i]!;
      if (c === 0) continue;
      if (!whole(c)) return `${kind} count at index ${i} is ${c}, not a whole number ≥ 0`;
      if (i > maxAt || (i > 0 && i < minAt))
        return `${kind} count at index ${i} lies outside ${names.min}..${names.max}`;
      sum += c;
    }
  }
  return sum === total ? null : `${kind} counts add up to ${sum}, not ${names.count} ${total}`;
}

/** A thread's window slots as the coordinator reads them, and the run's figures it settles from them. */
export class SlotReader {
  readonly buffer: SharedArrayBuffer;
  readonly #states: Int32Array;
  readonly #asks: Int32Array;
  readonly #askTime: Float64Array;
  readonly #cpu: ReaderCpu;
  readonly #slots: [ReaderSlot, ReaderSlot];
  readonly #settled = new SettledFigures();
  /** Whether the shard's windows count yet: after the warm-up's last. */
  #measured: boolean;

  /** `cpuNs`: how a thread's CPU time is read (cpu.ts threadCpuNs; tests give their own). */
  constructor(buffer: SharedArrayBuffer, opts: { warmup: boolean; cpuNs?: (tid: number) => number | null }) {
    this.buffer = buffer;
    this.#states = slotStates(buffer);
    this.#asks = askWords(buffer);
    this.#askTime = askTime(buffer);
    this.#cpu = new ReaderCpu(buffer, opts.cpuNs);
    const slot = (n: SlotNumber): ReaderSlot => {
      const views = slotViews(buffer, n);
      return {
        views,
        latency: new ValueRecorder(views.latency),
        lateness: new ValueRecorder(views.lateness),
        latencyBytes: bytesOf(views.latency),
        latenessBytes: bytesOf(views.lateness),
      };
    };
    this.#slots = [slot(0), slot(1)];
    this.#measured = !opts.warmup;
  }

  /**
   * A window or report message of the shard as the coordinator takes it, its window in one of
   * `pool`'s: a slot's read (a `window`, a `report` made whole); a `window` it sent as a message
   * (the warm-up's last, when this side was behind) is read in. A string says what is wrong.
   */
  take(msg: Arriving, pool: WindowPool): HeldWindowMessage | HeldReportMessage | string {
    if (msg.type === 'report') return 'sent a report outside its window slots';
    if (msg.type === 'window') {
      if (this.#measured) return 'sent a measured window outside its window slots';
      if (msg.endsWarmup) this.#measured = true;
      return { ...msg, window: heldFrom(pool.take(), msg.window) };
    }
    const read = this.#read(msg.slot, msg.type === 'slot' ? SLOT_HANDED : SLOT_LAST, pool);
    if (typeof read === 'string') return `sent a malformed window: window slot ${msg.slot}: ${read}`;
    if (msg.type === 'slot') return { type: 'window', ...read };
    return {
      type: 'report',
      index: read.index,
      at: read.at,
      window: read.window,
      report: settledReport(msg.report, this.#settled),
      failure: msg.failure,
      startedAt: msg.startedAt,
    };
  }

  /**
   * Asks the sending thread for the window of the tick at `index`, `atEpoch` (window-slots.ts):
   * it closes the window as the first request after the ask begins (a send) or once it is
   * counted (an answer, a failure), so the window is the tick's but for that one answer at
   * most, as a tick's timer late by as much would have had it. An ask not
   * taken yet is replaced (its window then spans both ticks, as a late tick's does), unless it
   * ends the warm-up: that one is left to be taken, so the warm-up's last window never runs
   * into the measured part, and this tick is not asked for (the window after it spans it).
   * Whether it was asked.
   */
  ask(index: number, endsWarmup: boolean, atEpoch: number): boolean {
    if (askOf(this.waiting).endsWarmup) return false;
    const word = askWord(index, endsWarmup);
    const a = this.#asks;
    const writing = a[WRITING]!;
    Atomics.store(a, WRITING, writing + 1);
    this.#askTime[0] = atEpoch;
    Atomics.store(a, ASKED, word);
    Atomics.store(a, WRITING, (writing + 2) | 0);
    this.#cpu.asked(index, atEpoch);
    return true;
  }

  /** The load starts at `atEpoch`: the sending thread's CPU, when this side reads it, counts from here. */
  begin(atEpoch: number): void {
    this.#cpu.begin(atEpoch);
  }

  /** The ask the sending thread has not taken yet, as its word; 0: none waits. */
  get waiting(): number {
    const asked = Atomics.load(this.#asks, ASKED);
    return asked === Atomics.load(this.#asks, TAKEN) ? 0 : asked;
  }

  /**
   * The slot handed over at a tick and not read yet, if any: one at most, since the sending
   * thread hands a slot over only when the other is back (one handed with the report waits for it).
   */
  handed(): SlotNumber | null {
    if (Atomics.load(this.#states, 0) === SLOT_HANDED) return 0;
    return Atomics.load(this.#states, 1) === SLOT_HANDED ? 1 : null;
  }

  /** Reads a handed-over slot: checked, added into a pool's window, settled when measured, zeroed, handed back. */
  #read(
    n: SlotNumber,
    state: typeof SLOT_HANDED | typeof SLOT_LAST,
    pool: WindowPool,
  ): Omit<HeldWindowMessage, 'type'> | string {
    if (Atomics.load(this.#states, n) !== state) return 'was not handed over';
    const { views, latency, lateness, latencyBytes, latenessBytes } = this.#slots[n];
    const h = views.header;
    const problem =
      headerProblem(h, this.#cpu.reads) ??
      countsProblem(views.latency, latencyBytes, 'latency', h) ??
      countsProblem(views.lateness, latenessBytes, 'lateness', h);
    if (problem !== null) return problem;
    latency.holding(h[AT.latencyCount]!, h[AT.latencyMin]!, h[AT.latencyMax]!);
    lateness.holding(h[AT.latenessCount]!, h[AT.latenessMin]!, h[AT.latenessMax]!);
    const held = pool.take();
    const w = held.window;
    w.requests = h[AT.requests]!;
    w.bytesIn = h[AT.bytesIn]!;
    w.late = h[AT.late]!;
    w.status.set(views.status);
    for (let k = 0; k < ERROR_KINDS.length; k++)
      if (h[ERRORS_AT + k]! > 0) w.errors.set(ERROR_KINDS[k]!, h[ERRORS_AT + k]!);
    latency.addTo(held.latency);
    lateness.addTo(held.lateness);
    held.inFlight = h[AT.inFlight]!;
    const cpu = h[AT.cpuPercent]!;
    held.cpuPercent =
      cpu === CPU_READ_BY_READER ? this.#cpu.percent(h[AT.index]!, state === SLOT_LAST, h[AT.at]!) : cpu;
    const connections = h[AT.connections]!;
    held.connections = connections >= 0 ? connections : null;
    const endsWarmup = h[AT.endsWarmup] === 1;
    if (this.#measured) this.#settled.add(latency, lateness, views.status);
    if (endsWarmup) this.#measured = true;
    latency.clear();
    lateness.clear();
    views.status.fill(0);
    Atomics.store(this.#states, n, SLOT_RECORDING);
    return { index: h[AT.index]!, at: h[AT.at]!, endsWarmup, window: held };
  }
}
