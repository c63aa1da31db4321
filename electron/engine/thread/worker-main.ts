/*
 * The entry point of every engine worker thread: the engine worker of a run (worker.ts, the
 * coordinator and its first shard), or another shard of it (shards/thread.ts), which gets its
 * place in the plan beside its spec. Both threads start with worker-options.ts's options (heap
 * limits, Node's compile cache).
 */
import './zod-config.ts';
import { workerData } from 'node:worker_threads';

const isShard = typeof workerData === 'object' && workerData !== null && 'shard' in workerData;
await (isShard ? import('../shards/thread.ts') : import('./worker.ts'));
