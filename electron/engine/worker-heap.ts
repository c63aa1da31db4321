import type { ResourceLimits } from 'node:worker_threads';

/**
 * The heap limits of every engine worker thread. V8 grows a busy thread's young generation
 * to three 16 MiB semi-spaces; the engine's garbage is short-lived (a request's objects die
 * with its response), so 4 MiB semi-spaces (a 12 MiB young generation) cost no measurable
 * CPU and keep what each extra worker adds to the peak RSS under issue 9's 60 MB
 * (docs/benchmarks.md, "Engine memory").
 */
export const ENGINE_WORKER_LIMITS: ResourceLimits = { maxYoungGenerationSizeMb: 12 };
