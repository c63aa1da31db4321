import type { CpuAccount } from './cpu.ts';
import { executeRun } from './execute.ts';
import { followRun, type RunCallbacks, type RunHandle } from './run.ts';
import { yieldV8Helpers } from './thread/helper-priority.ts';
import type { RunSpec } from './types.ts';

/*
 * A tiny run's engine in the caller's own thread, for the CLI only (issue 24): a run of a few
 * requests spends more on starting an engine thread (a thread, and the engine's modules and
 * schemas loaded a second time: about 0.3 CPU-s of `trebuchet run -n 1`'s 0.6) than on its
 * load. The hosts (Electron's main process, the web host) never do this: their event loop
 * serves a window or requests, and the engine stays off it (run.ts); the CLI's event loop is
 * the CLI's own, with nothing else to serve while it waits for the run. A scheduled run's
 * pre-flight and coordinator run here too (jobs/target-run.ts): its shards all have threads of
 * their own, so there is no sending on this thread to hold up.
 *
 * The engine's CPU figure stays its own: what the CLI does on the thread during the load (each
 * sample's callbacks, the progress line, the server monitor's readings) is charged to
 * `hostCpu`, which the first shard's meter leaves out as it leaves out the coordinator's.
 * Messages keep a thread's shape: each sample and the result is a structured clone, heard on a
 * later turn, after the engine's own work of that turn.
 */

/** Starts `spec`'s run in this thread; the same handle as startRun's, with the same result. */
export function startRunHere(spec: RunSpec, callbacks: RunCallbacks, hostCpu: CpuAccount): RunHandle {
  // The CLI is a process for its job: V8's compiles and GC tasks, any isolate's, may wait for the
  // engine's threads on a shared core for the rest of it (the hosts keep theirs as they are).
  yieldV8Helpers();
  return followRun(spec, callbacks, (listener) => {
    const controller = new AbortController();
    let closed = false;
    // Heard on a later turn and charged to the host, as a port's message would be heard by it.
    const deliver = (hear: () => void): void =>
      void setImmediate(() => {
        if (!closed) hostCpu.charge(hear);
      });
    const crashed = (err: unknown): void => {
      controller.abort();
      deliver(() =>
        listener.failed({
          kind: 'other',
          message: `engine crashed: ${err instanceof Error ? err.message : String(err)}`,
        }),
      );
    };
    // In a worker an error thrown from a socket's handler ends the thread and the host rebuilds
    // the result from its samples; here it would end the CLI. The thread runs only this run
    // meanwhile, so an uncaught error is the engine's: a failed result, as a worker's crash is.
    process.on('uncaughtException', crashed);
    executeRun(
      spec,
      controller.signal,
      (sample) => {
        const copy = structuredClone(sample);
        deliver(() => listener.sample(copy));
      },
      hostCpu,
    ).then(({ samples: _delivered, ...result }) => {
      const copy = structuredClone(result);
      deliver(() => listener.result(copy));
    }, crashed);
    return {
      stop: () => controller.abort(),
      close: () => {
        closed = true;
        process.off('uncaughtException', crashed);
      },
    };
  });
}
