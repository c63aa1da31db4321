import { cpuMeter } from '../cpu.ts';
import { WindowPool, type HeldWindow } from '../recording/held-window.ts';
import { Recorder } from '../recording/recorder.ts';
import { newWindowSlots, SlotSender, type SlotNumber } from '../recording/window-slots.ts';
import { SlotReader } from './slot-reader.ts';
import { TickTaker } from './tick-taker.ts';

/**
 * Where a run takes its asks (recorder.ts: as a send begins, once an answer or a failure is
 * counted): one round's ask taken at each, so a run's first ask goes the way the warm-up's went.
 */
const ASK_SITES: readonly ((r: Recorder) => void)[] = [
  (r) => r.started(),
  (r) => r.response(200, 100, 5, 200),
  (r) => r.error('timeout', "the tick's warm-up"),
  (r) => r.sentLate(10),
  (r) => r.late(),
];
/** The values in each window: as many buckets as a busy second's latencies fill. */
const VALUES = 3000;

/*
 * The per-tick path (a window closed, handed over, checked, read into a held window, made a
 * Sample) run on throwaway recorders before a scheduled run's first send. Cold, a run's first
 * ticks spent tens of ms there (functions compiled on first call; when windows came as
 * messages, zod set a schema up on its first use), and the requests due meanwhile went out late:
 * they were an open-model run's p99.9. A scheduled run's shards have threads of their own
 * (links.ts backendOf), so each side warms its own half in its own thread: both go through
 * throwaway window slots (recording/window-slots.ts), asked for, taken by the shard's own
 * TickTaker at the next request, and read back.
 */

/**
 * The shard's side: a window of a busy second's values for each ask site, handed over in slots
 * and read into `pool`'s windows, its CPU read by a meter of the run's kind (cpu.ts cpuMeter).
 */
export function warmShardTick(pool = new WindowPool()): HeldWindow[] {
  const shard = new Recorder({ sloMs: 1000, warmup: false, now: 0 });
  const buffer = newWindowSlots();
  const sender = new SlotSender(buffer, shard);
  const reader = new SlotReader(buffer, { warmup: false });
  const ticks = new TickTaker(
    sender,
    shard,
    {
      cpu: cpuMeter(),
      cpuReadByReader: false,
      post: () => {
        throw new Error("the tick's warm-up: a window went as a message with the other slot free");
      },
      measureFrom: () => undefined,
    },
    0,
  );
  shard.watchAsks(sender.asks, ticks);
  const windows: HeldWindow[] = [];
  for (const [r, site] of ASK_SITES.entries()) {
    for (let i = 0; i < VALUES; i++) {
      shard.sentLate((i * 37) % 2000);
      // 50 us to about 20 ms: every sub-bucket range a real window fills.
      shard.response(i % 50 === 0 ? 404 : 200, 50 + ((i * i) % 20_000), 5, 200);
    }
    reader.ask(r + 1, false, (r + 1) * 1000);
    site(shard);
    if (ticks.lastIndex !== r + 1) throw new Error("the tick's warm-up: the ask was not taken");
    const read = reader.take({ type: 'slot', slot: (r % 2) as SlotNumber }, pool);
    if (typeof read === 'string') throw new Error(`the tick's warm-up ${read}`);
    windows.push(read.window);
  }
  return windows;
}

/** The coordinator's side: the shard's windows read from their slots, made Samples, given back. */
export function warmCoordinatorTick(): void {
  const coordinator = new Recorder({ sloMs: 1000, warmup: false, now: 0, settles: false });
  const pool = new WindowPool();
  for (const [r, window] of warmShardTick(pool).entries()) {
    coordinator.addWindow(window);
    coordinator.tick((r + 1) * 1000, 0);
    pool.give(window);
  }
}
