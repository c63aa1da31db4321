/**
 * CPU hogs a test starts and stops (issue 32): `yes > /dev/null`, each pinned to a core of its
 * own (taskset) at a higher priority than the machine's other work, so it takes a good part of
 * its core whatever else runs there and is the busiest process a reading can find. Linux
 * shares the CPU between sessions first (autogroups) and by nice only within one: so each hog
 * is a session of its own (setsid) and its autogroup, like the process, has nice -5 (three
 * times a default's weight). On a machine shared with five others' test runs, that measured
 * 40 % of a core for each hog against 12 % for a plain `yes`. Each is bounded by `timeout`
 * whatever becomes of the test (killed after its seconds, SIGKILL a second later), and
 * stopped as soon as the test no longer needs it. A hog is no child of the test's process:
 * the shell that starts it exits at once, so the process tree of a generator inside the
 * test's process (a web host the test starts) does not hold it.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** Set for a run that reads the machine (the test tiers leave it unread: vitest.config.ts). */
export const MACHINE_ON: Record<string, string> = { TREBUCHET_MACHINE: 'on' };

export interface CpuHog {
  /** The `yes` process's pid (what a machine reading names). */
  pid: number;
  core: number;
  stop(): Promise<void>;
}

const read = (path: string): string | null => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
};

/** The pid of `timeout`'s child once it has become `yes` (taskset and nice exec into it). */
async function yesUnder(t: number): Promise<number> {
  // A process starts and execs in milliseconds; 5 s covers a machine loaded many times over.
  for (let tries = 0; tries < 500; tries++) {
    const child = read(`/proc/${t}/task/${t}/children`)?.trim().split(' ')[0];
    if (child && read(`/proc/${child}/comm`)?.trim() === 'yes') return Number(child);
    await sleep(10);
  }
  throw new Error('the CPU hog did not start');
}

/** One hog per core given, each for `seconds` at most. */
export async function startCpuHogs(cores: readonly number[], seconds: number): Promise<CpuHog[]> {
  return Promise.all(
    cores.map(async (core) => {
      const timeout = Number(
        execFileSync(
          'sh',
          [
            '-c',
            `timeout --kill-after=1 ${seconds} setsid taskset -c ${core} nice -n -5 yes >/dev/null 2>&1 & echo $!`,
          ],
          { encoding: 'utf8' },
        ).trim(),
      );
      const pid = await yesUnder(timeout);
      try {
        writeFileSync(`/proc/${pid}/autogroup`, '-5');
      } catch {
        // No autogroups here (the kernel's sched_autogroup off): the process's nice stands.
      }
      return {
        pid,
        core,
        stop: async () => {
          try {
            process.kill(timeout, 'SIGTERM');
          } catch {
            // Already gone: its time was up.
          }
          // timeout passes the signal on and exits; it is gone within its --kill-after second.
          for (let tries = 0; tries < 300 && read(`/proc/${pid}/stat`) !== null; tries++) await sleep(10);
        },
      };
    }),
  );
}

/**
 * A process's CPU-seconds so far (user + system, its threads together) and its waited-for
 * children's, which the machine's readings charge it with (shared/machine/readings.ts); null
 * once it is gone.
 */
export function cpuSecondsOf(pid: number): number | null {
  const stat = read(`/proc/${pid}/stat`);
  if (stat === null) return null;
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime, stime, cutime and cstime are fields 14 to 17 (proc(5)); the slice starts at field 3.
  // USER_HZ is 100 on Linux.
  return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / 100;
}
