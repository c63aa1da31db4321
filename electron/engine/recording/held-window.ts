import type { ErrorKind } from '../../../shared/model/result.ts';
import type { ShardWindow } from '../../../shared/model/shard-facts.ts';
import { ValueRecorder } from './histogram.ts';
import {
  addStatusCodes,
  addWindow,
  clearWindow,
  emptyWindow,
  statusCodesOf,
  type Window,
} from './window-counts.ts';

/*
 * A shard's window as the coordinator holds it from its arrival to its grid place's Sample:
 * counts in typed arrays (the status table, the latencies and the lateness in HdrHistogram's
 * layout), so a thread shard's slot is added into one span for span, the windows of a place
 * are added the same way (with one shard: not at all, its window is the place's), and the run's
 * Recorder takes the place's window in (Recorder.addWindow) without a list of buckets between.
 * The windows come from a pool and go back to it once their place is made: after the first
 * ticks, no window allocates (the message path's object per window, a ValueRecorder grown per
 * window, cost the coordinator's thread its per-tick milliseconds: docs/benchmarks.md, issue 38).
 * A window that crosses a process or a network is still a ShardWindow (shared/model/shard-facts.ts):
 * heldFrom() reads one in, wireOf() writes one out.
 */

export interface HeldWindow {
  /** Its plain counts, its latencies, its sends' lateness (a Recorder's WindowStorage). */
  window: Window;
  latency: ValueRecorder;
  lateness: ValueRecorder;
  /** At the window's end: requests in flight, and connections carrying load (null: not a staged closed run). */
  inFlight: number;
  connections: number | null;
  /** The shard's CPU over the window, percent of one core. */
  cpuPercent: number;
}

/** Windows handed out empty and taken back for reuse; their typed arrays are kept (and grown only once). */
export class WindowPool {
  readonly #free: HeldWindow[] = [];

  /** An empty window. */
  take(): HeldWindow {
    return (
      this.#free.pop() ?? {
        window: emptyWindow(),
        latency: new ValueRecorder(),
        lateness: new ValueRecorder(),
        inFlight: 0,
        connections: null,
        cpuPercent: 0,
      }
    );
  }

  /** A window whose place is made: emptied (only its used span is zeroed) and kept for the next. */
  give(h: HeldWindow): void {
    clearWindow(h.window);
    h.latency.clear();
    h.lateness.clear();
    h.inFlight = 0;
    h.connections = null;
    h.cpuPercent = 0;
    this.#free.push(h);
  }
}

/** Adds one window's counts and histograms to another's (inFlight, CPU and connections are the coordinator's to say). */
export function addHeld(into: HeldWindow, from: HeldWindow): void {
  addWindow(into.window, from.window);
  from.latency.addTo(into.latency);
  from.lateness.addTo(into.lateness);
}

/** A window that came as a message (a process's or a pod's line, the warm-up's last), read into an empty held one. */
export function heldFrom(h: HeldWindow, sw: ShardWindow): HeldWindow {
  const w = h.window;
  w.requests = sw.requests;
  w.bytesIn = sw.bytesIn;
  w.late = sw.late;
  addStatusCodes(w.status, sw.statusCodes);
  for (const [k, n] of Object.entries(sw.errors) as [ErrorKind, number][]) w.errors.set(k, n);
  h.latency.addBuckets(sw.latency);
  h.lateness.addBuckets(sw.lateness);
  h.inFlight = sw.inFlight;
  h.cpuPercent = sw.cpuPercent;
  h.connections = sw.connections ?? null;
  return h;
}

/** The window as a message carries it (a machine's shard's line upward). */
export function wireOf(h: HeldWindow): ShardWindow {
  const w = h.window;
  return {
    requests: w.requests,
    bytesIn: w.bytesIn,
    statusCodes: statusCodesOf(w.status),
    errors: Object.fromEntries(w.errors),
    late: w.late,
    inFlight: h.inFlight,
    cpuPercent: h.cpuPercent,
    latency: h.latency.buckets(),
    lateness: h.lateness.buckets(),
    ...(h.connections === null ? {} : { connections: h.connections }),
  };
}
