import { mergeWindows } from '../../../shared/shards/merge.ts';
import { Recorder } from '../recorder.ts';
import { fromShardSchema } from './messages.ts';

/** Windows run through, and the values in each: as many buckets as a busy second's latencies fill. */
const ROUNDS = 2;
const VALUES = 3000;

/**
 * Runs the per-tick path (a window closed, sent, checked, merged, made a Sample) on throwaway
 * recorders before a scheduled run's first send. Cold, a run's first ticks spent tens of ms
 * there, on the thread that sends (the first check of a window alone took 13-25 ms: zod sets
 * a schema up on its first use; then functions compiled on first call): the requests due
 * meanwhile went out late, and they were an open-model run's p99.9.
 */
export function warmTickPath(): void {
  const shard = new Recorder({ sloMs: 1000, warmup: false, now: 0 });
  const coordinator = new Recorder({ sloMs: 1000, warmup: false, now: 0 });
  for (let r = 0; r < ROUNDS; r++) {
    for (let i = 0; i < VALUES; i++) {
      shard.sentLate((i * 37) % 2000);
      // 50 us to about 20 ms: every sub-bucket range a real window fills.
      shard.response(i % 50 === 0 ? 404 : 200, 50 + ((i * i) % 20_000), 5, 200);
    }
    const window = shard.takeWindow(0);
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
