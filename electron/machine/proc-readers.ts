import { closeSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';
import { cpus } from 'node:os';
import type { CpuTimes, MachineCounters, ProcessTimes, ThreadTimes } from '../../shared/machine/readings.ts';
import { clockTicksPerSecond, procfsSupported } from '../monitor/procfs.ts';

/*
 * The machine's counters as the OS keeps them. Linux: /proc/stat's first line (the machine's
 * CPU time by mode), every process's /proc/<pid>/stat (its CPU time, parent, name and start),
 * or in a light reading only the few asked for (machine-monitor.ts: the generator's and the
 * server's), and this process's threads' /proc/<pid>/task/<tid>/stat. Each file is read into one buffer
 * kept for the purpose (an open, a read, a close: readFileSync's stat and allocation cost
 * twice as much, 1.5 ms against 3.4 ms for 113 processes here). No process is started.
 * Elsewhere: os.cpus()' per-core times and this process's own CPU (process.cpuUsage()).
 */

/** A /proc/<pid>/stat line is well under 1 KiB (its name at most 15 characters in parentheses). */
const buffer = Buffer.allocUnsafe(4096);

/** A /proc file's text read into `into`, or null when it is gone (the process exited between the listing and the read). */
function readInto(path: string, into: Buffer): string | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return null;
  }
  try {
    const n = readSync(fd, into, 0, into.length, 0);
    return into.toString('latin1', 0, n);
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** A small /proc file's text (a process's stat or cmdline), or null when it is gone. */
const readSmall = (path: string): string | null => readInto(path, buffer);

/**
 * /proc/stat: a few KiB (its per-core lines, the interrupts' counts), 1.2 KiB on 2 cores here;
 * read into a kept buffer as the process files are (15 us against readFileSync's 26-52 here,
 * and it is a light reading's largest part), readFileSync only for a machine whose file fills it.
 */
const statBuffer = Buffer.allocUnsafe(65_536);

function readProcStat(): string {
  const text = readInto('/proc/stat', statBuffer);
  // A file that filled the buffer may go on; one that is gone throws here, as a read of it would.
  return text !== null && text.length < statBuffer.length ? text : readFileSync('/proc/stat', 'latin1');
}

/** /proc/<pid>/stat's flags bit of a kernel thread (PF_KTHREAD). */
const PF_KTHREAD = 0x00200000;

/**
 * One /proc/<pid>/stat or task stat line: its name (between the first '(' and the last ')',
 * as it may hold either) and the fields after it, by proc(5)'s numbers.
 */
function parseStat(text: string, ticks: number): ProcessTimes | null {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) return null;
  const f = text.slice(close + 2).split(' ');
  // proc(5) field numbers minus 3 (pid and comm come before the slice).
  const num = (field: number): number => Number(f[field - 3]);
  return {
    ppid: num(4),
    name: text.slice(open + 1, close).slice(0, 64),
    seconds: (num(14) + num(15)) / ticks,
    childSeconds: (num(16) + num(17)) / ticks,
    start: num(22),
    kernel: (num(9) & PF_KTHREAD) !== 0,
  };
}

/** /proc/stat's machine line ("cpu  user nice system idle iowait irq softirq steal ...") and its cores. */
export function parseProcStat(text: string, ticks: number): { cpu: CpuTimes; cores: number } {
  const lines = text.split('\n');
  const head = (lines[0] ?? '').trim().split(/\s+/);
  const v = (i: number): number => (Number(head[i]) || 0) / ticks;
  const cores = lines.filter((l) => /^cpu\d+ /.test(l)).length;
  return {
    cpu: {
      user: v(1),
      nice: v(2),
      system: v(3),
      idle: v(4),
      iowait: v(5),
      irq: v(6),
      softirq: v(7),
      steal: v(8),
    },
    cores: Math.max(1, cores),
  };
}

/** Every process's counters, at most `max` of them (a process list past that is cut, the caller says so). */
function scanProcesses(ticks: number, max: number): { processes: Map<number, ProcessTimes>; cut: boolean } {
  const processes = new Map<number, ProcessTimes>();
  for (const entry of readdirSync('/proc')) {
    const c = entry.charCodeAt(0);
    if (c < 48 || c > 57) continue;
    if (processes.size >= max) return { processes, cut: true };
    const text = readSmall(`/proc/${entry}/stat`);
    const p = text === null ? null : parseStat(text, ticks);
    if (p) processes.set(Number(entry), p);
  }
  return { processes, cut: false };
}

/** The asked processes' counters, those still there. */
function readProcesses(ticks: number, pids: ReadonlySet<number>): Map<number, ProcessTimes> {
  const processes = new Map<number, ProcessTimes>();
  for (const pid of pids) {
    const text = readSmall(`/proc/${pid}/stat`);
    const p = text === null ? null : parseStat(text, ticks);
    if (p) processes.set(pid, p);
  }
  return processes;
}

/** This process's threads by tid. */
function scanThreads(ticks: number): Map<number, ThreadTimes> {
  const out = new Map<number, ThreadTimes>();
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${process.pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    const text = readSmall(`/proc/${process.pid}/task/${tid}/stat`);
    const t = text === null ? null : parseStat(text, ticks);
    if (t) out.set(Number(tid), { name: t.name, seconds: t.seconds });
  }
  return out;
}

/** Interpreters whose command names (and Node's main thread, "MainThread") say nothing of what runs in them. */
const INTERPRETER = /^(node|nodejs|deno|bun|python[\d.]*|ruby|perl|php|java|bash|sh|dash|zsh)$/;
/** Their options that take a value in the next argument. */
const VALUE_OPTIONS = new Set([
  '-r',
  '--require',
  '--import',
  '--loader',
  '--experimental-loader',
  '-C',
  '--conditions',
  '-m',
  '-c',
  '-e',
  '-cp',
  '-classpath',
]);

const base = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

/**
 * A process's name as a person knows it, from its command line: its program's (yes, nginx's
 * "nginx: worker process"), for an interpreter the program and its script's ("node tsc",
 * "python3 build.py"); its comm when it has no command line (a kernel thread, a zombie).
 */
export function commandName(cmdline: string, comm: string): string {
  const argv = cmdline.split('\0').filter((a) => a !== '');
  const first = argv[0];
  if (first === undefined) return comm;
  const program = base(first);
  if (!INTERPRETER.test(program)) return program.slice(0, 64);
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!;
    if (VALUE_OPTIONS.has(arg)) i++;
    else if (!arg.startsWith('-')) return `${program} ${base(arg)}`.slice(0, 64);
  }
  return program.slice(0, 64);
}

/** The name of a process to show (commandName), or its comm when its command line cannot be read. */
export function processLabel(pid: number, comm: string): string {
  const cmdline = readSmall(`/proc/${pid}/cmdline`);
  return cmdline === null ? comm : commandName(cmdline, comm);
}

/**
 * The counters a machine reading reads; `linkBytes` reads the link's device when there is one;
 * with `only`, a reader that lists processes reads just those (a light reading), else all.
 */
export interface MachineReader {
  reader: 'procfs' | 'os';
  read(
    linkBytes: (() => { rxBytes: number; txBytes: number } | null) | null,
    only?: ReadonlySet<number>,
  ): MachineCounters;
  /** The process list was cut at its bound in some reading. */
  cut(): boolean;
  /** A process's name to show (only the few shown are looked up: one more read each). */
  label(pid: number, comm: string): string;
}

/** Linux's /proc, with at most `maxProcesses` processes per reading. */
export function procReader(maxProcesses: number): MachineReader {
  const ticks = clockTicksPerSecond();
  let cut = false;
  return {
    reader: 'procfs',
    read(linkBytes, only) {
      const { cpu, cores } = parseProcStat(readProcStat(), ticks);
      let processes: Map<number, ProcessTimes>;
      if (only) processes = readProcesses(ticks, only);
      else {
        const scan = scanProcesses(ticks, maxProcesses);
        cut ||= scan.cut;
        processes = scan.processes;
      }
      return {
        at: performance.now(),
        cores,
        cpu,
        processes,
        threads: scanThreads(ticks),
        selfSeconds: processes.get(process.pid)?.seconds ?? 0,
        link: linkBytes?.() ?? null,
        ...(only ? { only } : {}),
      };
    },
    cut: () => cut,
    label: processLabel,
  };
}

/** Where processes cannot be listed without starting one: the cores' times and this process's CPU. */
export function osReader(): MachineReader {
  return {
    reader: 'os',
    read(linkBytes) {
      const list = cpus();
      const sum = (k: 'user' | 'nice' | 'sys' | 'idle' | 'irq'): number =>
        list.reduce((a, c) => a + c.times[k], 0) / 1000;
      const own = process.cpuUsage();
      return {
        at: performance.now(),
        cores: Math.max(1, list.length),
        cpu: {
          user: sum('user'),
          nice: sum('nice'),
          system: sum('sys'),
          idle: sum('idle'),
          iowait: 0,
          irq: sum('irq'),
          softirq: 0,
          steal: 0,
        },
        processes: null,
        threads: null,
        selfSeconds: (own.user + own.system) / 1e6,
        link: linkBytes?.() ?? null,
      };
    },
    cut: () => false,
    label: (_pid, comm) => comm,
  };
}

/** The best reader this platform has. */
export const machineReader = (maxProcesses: number): MachineReader =>
  procfsSupported ? procReader(maxProcesses) : osReader();
