import { readdirSync, readFileSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** How much lower (nice) V8's helper threads run than the thread that starts a run. */
export const HELPER_NICE = 10;
/** Linux's lowest priority (highest nice). */
const LOWEST = 19;
/**
 * The names Node gives V8's platform threads: the workers that run every isolate's concurrent
 * compiles and GC tasks, and the scheduler of their delayed tasks ("DelayedTaskScheduler",
 * cut to a Linux thread name's 15 characters).
 */
const HELPER_NAMES: ReadonlySet<string> = new Set(['V8Worker', 'DelayedTaskSche']);

/*
 * V8's helper threads give way to the engine's. On a core the sending thread shares with them
 * (a pinned CLI, a laptop's busy cores), a compile or GC task of any isolate in the process ran
 * in the sending thread's place for a scheduler's slice at a time: perf sched of https at
 * 10,000 req/s with no warm-up, the CLI on one core, showed the sending thread runnable but
 * waiting 10-12 ms behind Maglev and Sparkplug compiles and the main thread, and each such wait
 * was a burst of late sends (docs/benchmarks.md, 2026-12-05 19:51). At nice +10 (a tenth of the
 * sending thread's weight) they run when it waits. They are made once, as the process starts,
 * so no engine thread made later inherits their priority; nothing else in the process is
 * changed. The CLI does it as its tiny and scheduled runs start (engine/run-here.ts): a process
 * for one job, whose scheduled sends are the ones a wait makes late; the hosts (Electron's main
 * process, the web host) serve more than runs and keep theirs. Linux only (a thread's id in
 * /proc/self/task, setpriority acting on one thread); elsewhere nothing is done.
 */

/**
 * Lowers V8's helper threads to HELPER_NICE below this thread (never raising one already lower);
 * how many it lowered. Idempotent: each of the CLI's runs calls it.
 */
export function yieldV8Helpers(): number {
  let tasks: string[];
  try {
    tasks = readdirSync('/proc/self/task');
  } catch {
    return 0;
  }
  const target = Math.min(LOWEST, getPriority() + HELPER_NICE);
  let lowered = 0;
  for (const name of tasks) {
    const tid = Number(name);
    try {
      if (!HELPER_NAMES.has(readFileSync(`/proc/self/task/${name}/comm`, 'latin1').trim())) continue;
      if (getPriority(tid) >= target) continue;
      setPriority(tid, target);
      lowered++;
    } catch {
      // Gone since the listing, or not this user's to change: left as it is.
    }
  }
  return lowered;
}
