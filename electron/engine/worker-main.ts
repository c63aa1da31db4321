/*
 * The engine worker's entry point. Every run starts a fresh worker thread, which compiles the
 * engine's modules (zod, the schemas, the runners) anew: about a third of a run's start-up
 * CPU, counted in the generator's cost. Node's on-disk compile cache (node:module, Node 22.1+,
 * in the OS temp dir, keyed by each module's content) turns that into a cache read from the
 * second run on; it must be on before those modules load, hence this entry. Where the cache
 * cannot be used (an older Node, a read-only temp dir) modules compile as before.
 */
import module from 'node:module';
import { workerData } from 'node:worker_threads';

module.enableCompileCache?.();
// A shard of a split run (worker-pool.ts) gets its place in the plan beside its spec.
const isShard = typeof workerData === 'object' && workerData !== null && 'shard' in workerData;
await (isShard ? import('./shard-worker.ts') : import('./worker.ts'));
