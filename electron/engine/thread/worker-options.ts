import type { WorkerOptions } from 'node:worker_threads';
import { compileCacheDir } from './compile-cache.js';

/**
 * The options of every engine worker thread (the engine worker and each shard's).
 *
 * Heap: V8 grows a busy thread's young generation to three 16 MiB semi-spaces; the engine's
 * garbage is short-lived (a request's objects die with its response), so 4 MiB semi-spaces
 * (a 12 MiB young generation) cost no measurable CPU and keep what each extra worker adds to
 * the peak RSS under issue 9's 60 MB (docs/benchmarks.md, "Engine memory").
 *
 * Compile cache: every run starts fresh threads that load the engine's modules anew. Node's
 * on-disk compile cache (compile-cache.js: the user's cache directory, keyed by each module's
 * content; a thread does not inherit the one its process turned on) keeps their stripped
 * TypeScript and compiled code from the second run on; set in the thread's environment it
 * covers the entry module too, so the thread never loads the TypeScript stripper (about
 * 100 ms of CPU per thread). A Node without it ignores the variable.
 *
 * Name: `engine` (the coordinator and shard 1) or `engine shard` (a shard of its own), under the 15 characters a
 * Linux thread name holds.
 */
export function engineWorkerOptions(workerData: unknown, name: string): WorkerOptions {
  return {
    workerData,
    // The thread's name in the OS (/proc/<pid>/task/<tid>/comm): the machine's readings name the generator's busiest thread by it.
    name,
    resourceLimits: { maxYoungGenerationSizeMb: 12 },
    env: {
      ...process.env,
      NODE_COMPILE_CACHE: compileCacheDir(),
    },
  };
}
