import { parentPort, workerData } from 'node:worker_threads';
import { describeIssues, issuesOf } from '../../../shared/model/validation.ts';
import { runShard } from './shard.ts';
import { shardDataSchema, toShardSchema } from './messages.ts';

/* A shard in a worker thread of its own (links.ts inWorkerThread): shard.ts on its port. */

function main(): void {
  const port = parentPort;
  if (!port) throw new Error('shards/thread.ts runs as a worker thread only');
  const parsed = shardDataSchema.safeParse(workerData);
  if (!parsed.success) throw new Error(`shard data is invalid: ${describeIssues(issuesOf(parsed.error))}`);
  const handle = runShard(
    parsed.data,
    (m) => port.postMessage(m),
    () => port.close(),
  );
  port.on('message', (raw: unknown) => {
    const m = toShardSchema.safeParse(raw);
    if (m.success) handle(m.data);
  });
}

main();
