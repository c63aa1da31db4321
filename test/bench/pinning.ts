/**
 * Where the bench's processes run (issue 24 item 5). On a 2-core machine the generator and
 * nginx fight over both cores and the figures swing 30-50% between rounds; pinned, the server
 * runs on CPU 0 and every generator (its threads and children) on CPU 1, one core each, with
 * `taskset`. The bench runs each section pinned and then unpinned (the second view), unless
 * --pin says otherwise.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

export interface Placement {
  /** 'pinned' or 'unpinned', for headings. */
  name: string;
  /** A taskset CPU list for the server, or null for every CPU. */
  server: string | null;
  /** A taskset CPU list for the generators, or null for every CPU. */
  generator: string | null;
}

export const PINNED: Placement = { name: 'pinned', server: '0', generator: '1' };
export const UNPINNED: Placement = { name: 'unpinned', server: null, generator: null };

/** Why the machine cannot pin (fewer than two CPUs, no taskset), or null when it can. */
export function pinningUnavailable(): string | null {
  if (availableParallelism() < 2) return 'one CPU only';
  const r = spawnSync('taskset', ['-p', String(process.pid)], { encoding: 'utf8' });
  return r.status === 0 ? null : `taskset does not run: ${(r.stderr || r.error?.message || '').trim()}`;
}

let current: Placement = UNPINNED;

export const placement = (): Placement => current;

/** A process and its descendants (from /proc's parent pids). */
function processTree(root: number): number[] {
  const parents = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'latin1');
      parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // Gone since the listing.
    }
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) {
    for (const [pid, ppid] of parents) if (ppid === tree[i]) tree.push(pid);
  }
  return tree;
}

/** Moves a server's whole process tree (every thread; children it forks later inherit it) to the current placement's server CPUs. */
export function pinServer(serverPid: number): void {
  const cpus = current.server ?? `0-${availableParallelism() - 1}`;
  for (const pid of processTree(serverPid)) {
    const r = spawnSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`taskset could not move process ${pid}: ${r.stderr.trim()}`);
  }
}

/** Takes a placement: the server's tree moves to its CPUs now, every later generator starts on its own. */
export function place(p: Placement, serverPid: number): void {
  current = p;
  pinServer(serverPid);
}

/** A generator's command line under the current placement. */
export function placed(command: string, args: readonly string[]): [string, string[]] {
  return current.generator === null
    ? [command, [...args]]
    : ['taskset', ['-c', current.generator, command, ...args]];
}
