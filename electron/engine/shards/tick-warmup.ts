import { WindowPool, type HeldWindow } from '../recording/held-window.ts';
import { Recorder } from '../recording/recorder.ts';
import { newWindowSlots, SlotSender } from '../recording/window-slots.ts';
import { SlotReader } from './slot-reader.ts';

/** Windows run through, and the values in each: as many buckets as a busy second's latencies fill. */
const ROUNDS = 2;
const VALUES = 3000;

/*
 * The per-tick path (a window closed, handed over, checked, read into a held window, made a
 * Sample) run on throwaway recorders before a scheduled run's first send. Cold, a run's first
 * ticks spent tens of ms there (functions compiled on first call; when windows came as
 * messages, zod set a schema up on its first use), and the requests due meanwhile went out late:
 * they were an open-model run's p99.9. A scheduled run's shards have threads of their own
 * (links.ts backendOf), so each side warms its own half in its own thread: both go through
 * throwaway window slots (recording/window-slots.ts), handed over and read back.
 */

/** The shard's side: ROUNDS windows of a busy second's values, handed over in slots and read into `pool`'s windows. */
export function warmShardTick(pool = new WindowPool()): HeldWindow[] {
  const shard = new Recorder({ sloMs: 1000, warmup: false, now: 0 });
  const buffer = newWindowSlots();
  const sender = new SlotSender(buffer, shard);
  const reader = new SlotReader(buffer, { warmup: false });
  const windows: HeldWindow[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    for (let i = 0; i < VALUES; i++) {
      shard.sentLate((i * 37) % 2000);
      // 50 us to about 20 ms: every sub-bucket range a real window fills.
      shard.response(i % 50 === 0 ? 404 : 200, 50 + ((i * i) % 20_000), 5, 200);
    }
    const slot = sender.handOver(shard, {
      index: r + 1,
      at: (r + 1) * 1000,
      endsWarmup: false,
      cpuPercent: 0,
    });
    const read = reader.take({ type: 'slot', slot }, pool);
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
