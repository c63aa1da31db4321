import { DEFAULTS } from '../../shared/model/defaults.ts';
import {
  processCpuByPid,
  processFigures,
  workerPids,
  type ProcessCounters,
  type ProcessReading,
} from '../../shared/resources/process.ts';
import type { ResourceSource } from '../../shared/model/server-resources.ts';
import { familyRoot, ownerOf, processName, processTree, procfsSupported, readCounters } from './procfs.ts';
import type { MonitorPlan } from './resolve.ts';
import { tcpListener } from './tcp-listener.ts';
import { unixSocketListener } from './unix-socket-owner.ts';
import { messageOf, timedCpu, type MonitorSource, type SourceReading } from './source.ts';

type ProcessPlan = Extract<MonitorPlan, { kind: 'port' | 'unix' | 'pid' }>;

/**
 * Starts sampling a process tree: the one listening on the target's port (from its family's
 * root: nginx master and workers, the Apache parent and its children), or the pid given and
 * its descendants. The tree is walked again at every reading, so children that come and go
 * (Apache's) are counted. Linux only (see procfs.ts); elsewhere the start fails with a reason.
 */
export function startProcessSource(
  plan: ProcessPlan,
): { ok: true; source: MonitorSource } | { ok: false; reason: string } {
  if (!procfsSupported) {
    return {
      ok: false,
      reason: `process sampling reads Linux's /proc and is not supported on ${process.platform}: run node_exporter on the server and give its URL (--monitor http://HOST:9100/metrics)`,
    };
  }
  let pid: number;
  if (plan.kind === 'pid') {
    pid = plan.pid;
  } else {
    const found = plan.kind === 'port' ? tcpListener(plan.port, plan.host) : unixSocketListener(plan.path);
    if (!found.ok) return found;
    pid = familyRoot(found.pid);
  }
  if (readCounters(pid) === null) return { ok: false, reason: `there is no process ${pid}` };
  return { ok: true, source: new ProcessSource(pid, plan) };
}

class ProcessSource implements MonitorSource {
  readonly #root: number;
  readonly #plan: ProcessPlan;
  readonly #names = new Map<number, string>();
  readonly #notes = new Map<string, string>();
  #previous: ProcessReading | null;
  #selfMicros = 0;

  constructor(root: number, plan: ProcessPlan) {
    this.#root = root;
    this.#plan = plan;
    this.#previous = this.#timed(() => this.#reading());
  }

  facts(): ResourceSource {
    return {
      method: 'process',
      ...(this.#plan.kind === 'unix'
        ? { found: 'unix-socket' as const, port: null, socketPath: this.#plan.path }
        : { found: this.#plan.kind, port: this.#plan.kind === 'port' ? this.#plan.port : null }),
      platform: process.platform,
      reader: 'procfs',
      rootPid: this.#root,
      processes: [...this.#names].map(([pid, name]) => ({ pid, name })),
    };
  }

  read(): Promise<SourceReading> {
    return Promise.resolve(this.#readNow());
  }

  #readNow(): SourceReading {
    let current: ProcessReading | null;
    try {
      current = this.#timed(() => this.#reading());
    } catch (err) {
      return { gap: `reading /proc failed: ${messageOf(err)}` };
    }
    if (!current)
      return { gap: `process ${this.#root} (${this.#names.get(this.#root) ?? 'server'}) is gone` };
    const previous = this.#previous;
    this.#previous = current;
    // No baseline: the root was gone when sampling started (or sampling was closed).
    if (!previous) return { gap: `first reading of process ${this.#root}: its CPU counts from the next one` };
    const byPid = processCpuByPid(previous, current);
    const workers = workerPids(current).map((pid) => {
      const p = byPid.get(pid);
      return { pid, name: this.#names.get(pid) ?? '?', seconds: p ? p.userSeconds + p.systemSeconds : 0 };
    });
    return { figures: processFigures(previous, current, byPid), workers };
  }

  notes(): string[] {
    return [...this.#notes.values()];
  }

  selfCpuMicros(): number {
    return this.#selfMicros;
  }

  rootPid(): number {
    return this.#root;
  }

  close(): void {
    this.#previous = null;
  }

  #timed<T>(fn: () => T): T {
    const { value, micros } = timedCpu(fn);
    this.#selfMicros += micros;
    return value;
  }

  /** One reading of the tree, or null when its root is gone. */
  #reading(): ProcessReading | null {
    const at = performance.now();
    const { pids, truncated } = processTree(this.#root, DEFAULTS.monitor.maxProcesses);
    const processes = new Map<number, ProcessCounters>();
    for (const pid of pids) {
      const counters = readCounters(pid);
      if (!counters) continue;
      processes.set(pid, counters);
      if (!this.#names.has(pid) && this.#names.size < DEFAULTS.monitor.maxProcesses) {
        this.#names.set(pid, processName(pid) ?? '?');
      }
      if (counters.openFiles === null) this.#unreadableFiles(pid);
    }
    if (!processes.has(this.#root)) return null;
    if (truncated) {
      this.#notes.set(
        'truncated',
        `the tree has more than ${DEFAULTS.monitor.maxProcesses} processes: only the first ${DEFAULTS.monitor.maxProcesses} are counted`,
      );
    }
    return { at, rootPid: this.#root, processes };
  }

  #unreadableFiles(pid: number): void {
    const key = `fd:${ownerOf(pid) ?? '?'}`;
    if (this.#notes.has(key)) return;
    const uid = process.getuid?.();
    this.#notes.set(
      key,
      `open files of process ${pid} (${this.#names.get(pid) ?? '?'}, uid ${ownerOf(pid) ?? '?'}) cannot be read by this user${uid === undefined ? '' : ` (uid ${uid})`}: the open-file count is left out`,
    );
  }
}
