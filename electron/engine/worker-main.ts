/*
 * The engine worker's entry point. Every run starts a fresh worker thread, which compiles the
 * engine's modules (zod, the schemas, the runners) anew: about a third of a run's start-up
 * CPU, counted in the generator's cost. Node's on-disk compile cache (node:module, Node 22.1+,
 * in the OS temp dir, keyed by each module's content) turns that into a cache read from the
 * second run on; it must be on before those modules load, hence this entry. Where the cache
 * cannot be used (an older Node, a read-only temp dir) modules compile as before.
 */
import module from 'node:module';

module.enableCompileCache?.();
await import('./worker.ts');
