import { Worker } from 'node:worker_threads';
import { cpuMeter, type CpuAccount } from '../cpu.ts';
import { ENGINE_THREAD_URL } from '../thread/thread-entry.ts';
import { sendsOnSchedule, type RunSpec } from '../types.ts';
import { engineWorkerOptions } from '../thread/worker-options.ts';
import type { Shard } from '../../../shared/shards/plan.ts';
import type { FromShard, ShardData, ToShard } from './messages.ts';
import { newWindowSlots, type SlotNumber } from '../recording/window-slots.ts';
import { runShard, type ShardOptions } from './shard.ts';
import { SlotPoll } from './slot-poll.ts';
import { SlotReader } from './slot-reader.ts';

/*
 * How the coordinator reaches a shard. A backend opens a link to a shard it runs somewhere;
 * the coordinator sends through the link and hears, through a listener, what the shard says
 * (raw, to be parsed: it may have crossed a thread, a process or a network) and whether the
 * shard was lost before its report. Here: a shard in the coordinator's own thread, and a shard
 * in a worker thread of its own. A shard that is a machine of its own, a local process or a
 * Kubernetes pod, is one more backend with the same calls (electron/distributed/).
 */

/** The coordinator's end of a link. */
export interface ShardLink {
  send(message: ToShard): void;
  /** Releases the shard once the run has its result, or gives it up: its thread, process or pod goes. */
  close(): void;
  /** Why a shard not ready yet is waiting, if its link knows (a pod's scheduler: "Unschedulable: ..."). */
  waiting?(): string | null;
  /** Where a thread's shard hands its windows over (the link says each found: LinkListener.slot); absent: in its messages. */
  slots?: SlotReader;
}

/** What a link tells the coordinator. */
export interface LinkListener {
  /** A message from the shard, as it arrived (unparsed: an object from a thread, a line of text from a byte stream). */
  message(raw: unknown): void;
  /** The shard is gone before its report: it could not start, crashed or exited. */
  lost(reason: string): void;
  /** A window slot a thread's shard handed over, found by its link (this side's own word: nothing to parse). */
  slot(slot: SlotNumber): void;
}

export interface ShardBackend {
  /** A thread of the coordinator's machine, or a machine's shard (a process, a pod) that checks the target itself. */
  readonly kind: 'thread' | 'machine';
  /**
   * How long before the load's start this backend's shards must be told it, so they all begin
   * together: what `start` takes to reach a shard that is ready and waiting (nothing in this
   * thread, a message's latency for a thread or a process, a watch's for a pod).
   */
  readonly startMarginMs: number;
  /** A shard not ready this long after its link opened is given up (null: never, a thread's warm phase is bounded itself). */
  readonly readyTimeoutMs: number | null;
  /** A shard that says nothing this long once the load began is given up (null: a thread, which cannot stop on its own). */
  readonly silenceMs: number | null;
  open(data: ShardData, listener: LinkListener): ShardLink;
}

/**
 * A shard in the coordinator's thread (a run with one worker is only this). Its messages
 * arrive on a later turn, as a port's would, its windows in window slots as a worker thread's
 * do (its ticks then cost it no walk either); its CPU figure leaves out what was charged to the
 * `excluded` accounts meanwhile: the coordinator's, which the result reports on its own, and
 * the host's when the engine runs on the host's thread (the CLI's tiny runs, run-here.ts).
 */
export function inThisThread(excluded: readonly CpuAccount[], options: ShardOptions = {}): ShardBackend {
  return {
    kind: 'thread',
    startMarginMs: 0,
    readyTimeoutMs: null,
    silenceMs: null,
    open(data, listener) {
      // The wake is a call on a later turn, as a port's message would be (the poll's timer is one).
      const { slots, poll } = slotsFor(data, listener, () => handle({ type: 'hand-over' }));
      const post = (m: FromShard): void => void setImmediate(() => said(poll, listener, m));
      const handle = runShard(data, post, () => undefined, slots.buffer, {
        cpu: cpuMeter(...excluded),
        ...options,
      });
      return {
        send: (m) => {
          if (m.type === 'start') poll.start(m.at);
          handle(m);
        },
        close: () => {
          poll.stop();
          handle({ type: 'stop' });
        },
        slots,
      };
    },
  };
}

/**
 * A thread shard's window slots, their reader on this side, and when it asks for them and looks:
 * each found slot is said to the listener; `wake` tells an idle sending thread to take an ask.
 */
function slotsFor(
  data: ShardData,
  listener: LinkListener,
  wake: () => void,
): { slots: SlotReader; poll: SlotPoll } {
  const slots = new SlotReader(newWindowSlots(), { warmup: data.spec.options.warmupSeconds > 0 });
  return { slots, poll: new SlotPoll(slots, data.spec, (slot) => listener.slot(slot), wake) };
}

/** What a thread's shard says, after the windows it handed over before it (its last one's slot is read with its report). */
function said(poll: SlotPoll, listener: LinkListener, raw: unknown): void {
  poll.poll();
  if (typeof raw === 'object' && raw !== null && 'type' in raw && raw.type === 'slot-report') poll.stop();
  listener.message(raw);
}

/** What `start` takes to reach a shard's thread, with room for a busy event loop on either side. */
const THREAD_START_MARGIN_MS = 20;

/**
 * A shard in a worker thread of its own (thread.ts), with the engine threads' options, and
 * window slots it shares with this side (recording/window-slots.ts): its ticks cost its
 * sending thread no copy, and this side reads them.
 */
export const inWorkerThread: ShardBackend = {
  kind: 'thread',
  startMarginMs: THREAD_START_MARGIN_MS,
  readyTimeoutMs: null,
  silenceMs: null,
  open(data, listener) {
    // Woken only once started: the worker is made by then.
    const { slots, poll } = slotsFor(data, listener, () => worker.postMessage({ type: 'hand-over' }));
    let worker: Worker;
    try {
      worker = new Worker(
        ENGINE_THREAD_URL,
        engineWorkerOptions({ ...data, slots: slots.buffer }, 'engine shard'),
      );
    } catch (err) {
      // Said on a later turn, as everything else a link says.
      setImmediate(() => listener.lost(`could not start: ${String(err)}`));
      return { send: () => undefined, close: () => undefined };
    }
    worker.on('message', (raw: unknown) => said(poll, listener, raw));
    worker.on('error', (err: Error) => listener.lost(`crashed: ${err.message}`));
    worker.on('exit', (code) => listener.lost(`exited (code ${code}) before reporting`));
    return {
      send: (m) => {
        if (m.type === 'start') poll.start(m.at);
        worker.postMessage(m);
      },
      close: () => {
        poll.stop();
        void worker.terminate();
      },
      slots,
    };
  },
};

/**
 * Where the engine worker runs each shard of its run. The first shares the coordinator's
 * thread, so a run with one worker (`-n 1`) starts no thread beyond the engine worker, unless
 * the run sends on a schedule: the coordinator's work at each tick (checking, merging and
 * summing the windows into a Sample: 10-20 ms at the first tick cold, 1.5-2 ms later) would
 * stall the sends due meanwhile, and the schedule's latency runs from their due time. Then
 * every shard has a thread of its own and the coordinator's is left to it.
 */
export function backendOf(shard: Shard, spec: RunSpec, excluded: readonly CpuAccount[]): ShardBackend {
  return shard.index === 0 && !sendsOnSchedule(spec) ? inThisThread(excluded) : inWorkerThread;
}
