import { mergeWindows } from '../../../shared/shards/merge.ts';
import { type ShardWindow } from '../../../shared/model/shard-facts.ts';
import { Recorder } from '../recording/recorder.ts';
import { newWindowSlots, SlotSender } from '../recording/window-slots.ts';
import { fromShardSchema } from './messages.ts';
import { SlotReader } from './slot-reader.ts';

/** Windows run through, and the values in each: as many buckets as a busy second's latencies fill. */
const ROUNDS = 2;
const VALUES = 3000;

/*
 * The per-tick path (a window closed, sent, checked, merged, made a Sample) run on throwaway
 * recorders before a scheduled run's first send. Cold, a run's first ticks spent tens of ms
 * there (the first check of a window alone took 13-25 ms: zod sets a schema up on its first
 * use; then functions compiled on first call), and the requests due meanwhile went out late:
 * they were an open-model run's p99.9. A scheduled run's shards have threads of their own
 * (links.ts backendOf), so each side warms its own half in its own thread: both go through
 * throwaway window slots (recording/window-slots.ts), handed over and read back.
 */

/** The shard's side: ROUNDS windows of a busy second's values, handed over in slots and read. */
export function warmShardTick(): ShardWindow[] {
  const shard = new Recorder({ sloMs: 1000, warmup: false, now: 0 });
  const buffer = newWindowSlots();
  const sender = new SlotSender(buffer, shard);
  const reader = new SlotReader(buffer, { warmup: false });
  const windows: ShardWindow[] = [];
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
    const read = reader.take({ type: 'slot', slot });
    if (typeof read === 'string') throw new Error(`the tick's warm-up ${read}`);
    windows.push(read.window);
  }
  return windows;
}

/** The coordinator's side: the shard's windows checked as they arrive, merged, made Samples. */
export function warmCoordinatorTick(): void {
  const coordinator = new Recorder({ sloMs: 1000, warmup: false, now: 0 });
  for (const [r, window] of warmShardTick().entries()) {
    const parsed = fromShardSchema.parse({
      type: 'window',
      index: r + 1,
      at: (r + 1) * 1000,
      endsWarmup: false,
      window,
    });
    if (parsed.type !== 'window') continue;
    coordinator.addWindow(mergeWindows([parsed.window]));
    coordinator.tick((r + 1) * 1000, 0);
  }
}
