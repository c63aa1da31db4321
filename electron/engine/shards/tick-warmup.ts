import { WindowPool, type HeldWindow } from '../recording/held-window.ts';
import { Recorder } from '../recording/recorder.ts';
import { askOf, newWindowSlots, SlotSender, type SlotNumber } from '../recording/window-slots.ts';
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
 * throwaway window slots (recording/window-slots.ts), asked for, handed over at the next
 * request, and read back.
 */

/** The shard's side: ROUNDS windows of a busy second's values, handed over in slots and read into `pool`'s windows. */
export function warmShardTick(pool = new WindowPool()): HeldWindow[] {
  const shard = new Recorder({ sloMs: 1000, warmup: false, now: 0 });
  const buffer = newWindowSlots();
  const sender = new SlotSender(buffer, shard);
  const reader = new SlotReader(buffer, { warmup: false });
  const windows: HeldWindow[] = [];
  const handed: { slot: SlotNumber | null } = { slot: null };
  // As a shard takes an ask (shards/shard.ts): at the first request after it.
  shard.watchAsks(sender.asks, () => {
    const word = sender.waiting;
    if (word === 0) return;
    const { index, endsWarmup } = askOf(word);
    handed.slot = sender.handOver(shard, { index, at: sender.askedAt, endsWarmup, cpuPercent: 0 });
    sender.took(word);
  });
  for (let r = 0; r < ROUNDS; r++) {
    for (let i = 0; i < VALUES; i++) {
      shard.sentLate((i * 37) % 2000);
      // 50 us to about 20 ms: every sub-bucket range a real window fills.
      shard.response(i % 50 === 0 ? 404 : 200, 50 + ((i * i) % 20_000), 5, 200);
    }
    reader.ask(r + 1, false, (r + 1) * 1000);
    // The next request takes the ask: the window handed over holds this round's values.
    shard.started();
    const slot = handed.slot;
    if (slot === null) throw new Error("the tick's warm-up: the ask was not taken");
    handed.slot = null;
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
