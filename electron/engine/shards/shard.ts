import { cpuClock, cpuMeter } from '../cpu.ts';
import { classifyError } from '../errors.ts';
import { Recorder } from '../recording/recorder.ts';
import { unsettledReport } from '../recording/recorder-report.ts';
import { SlotSender } from '../recording/window-slots.ts';
import { selectLoadGenerator } from '../load-generators.ts';
import {
  emptyOutcome,
  type PreparedRun,
  type LoadGenerator,
  sendsOnSchedule,
  type LoadOutcome,
  type RunSpec,
  type Schedule,
} from '../types.ts';
import { fromEpoch, toEpoch, type FromShard, type ShardData, type ToShard } from './messages.ts';
import { TickTaker } from './tick-taker.ts';
import { warmShardTick } from './tick-warmup.ts';

/*
 * One shard of a run: its share of the load through a load generator, its requests counted in its own
 * recorder, its windows closed on the run's grid. Every run has at least one (one worker: one
 * shard, in the coordinator's thread). It says `ready` once its load generator is loaded and readied (the
 * open model's connections opened and warmed), starts at the
 * common start it is given, closes a window at each tick of the run's grid (the warm-up's end
 * is a tick of its own) as its link's reader asks (it runs no timer for ticks: the ask is taken
 * between two requests, or at the link's wake message), and when its load is over sends its
 * last window, closed where the load ended, with its report (counts, histograms). No
 * pre-flight: the coordinator checked the target once. The transport is a link's (links.ts);
 * its windows are handed over in window slots, not in messages (recording/window-slots.ts),
 * and each hand-over's pause of the sending thread is timed for the report.
 */

export interface ShardOptions {
  /** This thread's CPU over each window, percent of one core (the coordinator's share left out when it runs here). */
  cpu?: () => number;
  /**
   * The slots' reader reads this thread's CPU (a worker thread on Linux: its id is in the slots,
   * window-slots.ts threadWord): a hand-over writes CPU_READ_BY_READER instead of reading it
   * (a syscall, cold at a hand-over), and the last window's close gives its CPU time.
   */
  cpuReadByReader?: boolean;
  /** The load generator for the spec (the engine's by default; tests give a fake). */
  selectGenerator?: (spec: RunSpec) => Promise<LoadGenerator>;
}

/**
 * Starts a shard: `post` carries what it says, `ended` is called after its report; its windows
 * go in `slots`, which the coordinator's side reads. Returns the function that hands it the
 * coordinator's messages.
 */
export function runShard(
  data: ShardData,
  post: (m: FromShard) => void,
  ended: () => void,
  buffer: SharedArrayBuffer,
  options: ShardOptions = {},
): (m: ToShard) => void {
  const { spec, shard } = data;
  const controller = new AbortController();
  const cpu = options.cpu ?? cpuMeter();
  const cpuReadByReader = options.cpuReadByReader ?? false;
  let resolveStart: (at: number) => void = () => undefined;
  const started = new Promise<number>((resolve) => (resolveStart = resolve));
  let warmupEnded: () => void = () => undefined;
  const warmupDone = new Promise<void>((resolve) => (warmupEnded = resolve));
  /** Takes the reader's waiting ask, once the load has its recorder (see run). */
  let taker: TickTaker | null = null;

  const run = async (): Promise<void> => {
    let generator: LoadGenerator;
    try {
      generator = await (options.selectGenerator ?? selectLoadGenerator)(spec);
    } catch (err) {
      post({ type: 'failed', message: err instanceof Error ? err.message : String(err) });
      return;
    }
    // A schedule's sends are due through every tick: its side of the tick's first, cold run is done now.
    if (sendsOnSchedule(spec)) warmShardTick();
    // Readied before `ready`: the common start (the schedule's clock) comes after the warm phase.
    let prepared: PreparedRun | null;
    try {
      prepared =
        generator.prepare === undefined
          ? null
          : await generator.prepare(spec, { roundTripMs: data.roundTripMs ?? null }, controller.signal);
    } catch (err) {
      post({
        type: 'failed',
        message: `the ${generator.name} engine could not get ready: ${classifyError(err).message}`,
      });
      return;
    }
    post(prepared?.warm ? { type: 'ready', warm: prepared.warm } : { type: 'ready' });
    const at = await started;
    const warmupMs = spec.options.warmupSeconds * 1000;
    const recorder = new Recorder({ sloMs: spec.options.sloMs, warmup: warmupMs > 0, now: at });
    const slots = new SlotSender(buffer, recorder);
    const schedule: Schedule = { startAt: at, offsetMs: shard.offsetMs, arrivalPhase: shard.arrivalPhase };
    // The reader asks for each tick's window (window-slots.ts); this thread runs no timer for
    // ticks and takes the ask between two requests, or at the link's wake message when idle.
    const ticks = new TickTaker(
      slots,
      recorder,
      {
        cpu,
        cpuReadByReader,
        post,
        measureFrom: (tickAt) => {
          schedule.measureFrom = tickAt;
          warmupEnded();
        },
      },
      at,
    );
    recorder.watchAsks(slots.asks, ticks);
    taker = ticks;
    if (warmupMs === 0) warmupEnded();
    // When the load began; a load generator that fails before its gate never began: the start itself.
    let startedAt = at;
    const startGate = async (): Promise<void> => {
      // The common start, on every shard's clock; a timer's lateness does not move the schedule.
      if (at > performance.now()) await new Promise((resolve) => setTimeout(resolve, at - performance.now()));
      // Timers count whole milliseconds and may fire up to one early (a shard began 0.9 ms
      // before the common start): the rest, under a millisecond, is waited out here.
      while (performance.now() < at) {
        // spin
      }
      startedAt = performance.now();
    };

    let outcome: LoadOutcome;
    let failure: string | null = null;
    try {
      outcome = await (prepared ?? generator).run({
        spec,
        recorder,
        signal: controller.signal,
        warmupSeconds: spec.options.warmupSeconds,
        warmupDone,
        schedule,
        startGate,
      });
    } catch (err) {
      outcome = emptyOutcome();
      failure = `the ${generator.name} engine broke down: ${classifyError(err).message}`;
    }
    ticks.end();
    // The last window stops where the load ended, not after the load generator's summary work; never
    // before the last tick, never after now.
    const end = Math.min(performance.now(), Math.max(outcome.loadEndedAt ?? Infinity, ticks.lastTickAt));
    const placed = {
      index: ticks.lastIndex + 1,
      at: toEpoch(end),
      endsWarmup: false,
      cpuPercent: ticks.cpuPercent(),
    };
    if (cpuReadByReader) {
      const c = cpuClock();
      slots.endCpu((c.user + c.system) * 1000);
    }
    post({
      type: 'slot-report',
      slot: slots.handOver(recorder, placed, true),
      report: { ...unsettledReport(recorder, outcome), tickPause: ticks.pauses.buckets() },
      failure,
      startedAt: toEpoch(startedAt),
    });
    ended();
  };
  void run();

  return (msg) => {
    if (msg.type === 'start') resolveStart(fromEpoch(msg.at));
    else if (msg.type === 'hand-over') taker?.take();
    else controller.abort();
  };
}
