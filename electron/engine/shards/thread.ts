import { parentPort, workerData } from 'node:worker_threads';
import { z } from 'zod';
import { describeIssues, issuesOf } from '../../../shared/model/validation.ts';
import { linuxThreadId } from '../cpu.ts';
import { threadWord, WINDOW_SLOTS_BYTES } from '../recording/window-slots.ts';
import { runShard } from './shard.ts';
import { shardDataSchema, toShardSchema } from './messages.ts';

/*
 * A shard in a worker thread of its own (links.ts inWorkerThread): shard.ts on its port, its
 * windows handed over in the window slots its link made (recording/window-slots.ts).
 */

const threadDataSchema = shardDataSchema.extend({
  slots: z
    .instanceof(SharedArrayBuffer)
    .refine(
      (b) => b.byteLength === WINDOW_SLOTS_BYTES,
      `must be window slots of ${WINDOW_SLOTS_BYTES} bytes`,
    ),
});

function main(): void {
  const port = parentPort;
  if (!port) throw new Error('shards/thread.ts runs as a worker thread only');
  const parsed = threadDataSchema.safeParse(workerData);
  if (!parsed.success) throw new Error(`shard data is invalid: ${describeIssues(issuesOf(parsed.error))}`);
  const { slots, ...data } = parsed.data;
  // Where the link can read this thread's CPU, it does: a hand-over then reads none.
  const tid = linuxThreadId();
  if (tid !== null) Atomics.store(threadWord(slots), 0, tid);
  const handle = runShard(
    data,
    (m) => port.postMessage(m),
    () => port.close(),
    slots,
    { cpuReadByReader: tid !== null },
  );
  port.on('message', (raw: unknown) => {
    const m = toShardSchema.safeParse(raw);
    if (m.success) handle(m.data);
  });
}

main();
