/**
 * Who writes a journal, and whether that writer is gone: a host starting beside another (the
 * CLI beside the web host, on one data folder) must leave a live job's journal alone. On Linux
 * a process is its pid and its start time (a pid is used again after a while); elsewhere the
 * pid alone. A journal written on another machine (a shared folder) is judged by its age.
 */
import fs from 'node:fs';
import os from 'node:os';
import type { JournalWriter } from '../../../shared/records/journal.ts';

/** A journal's time is touched at least this often while its job runs, even with nothing to write (a pause). */
export const ALIVE_MS = 5000;

/** A journal of another machine untouched this long is a dead host's (its writer touches it every ALIVE_MS). */
export const FOREIGN_STALE_MS = 12 * ALIVE_MS;

/** The process's start, clock ticks after boot (field 22 of /proc/PID/stat); null off Linux. */
function startTicks(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count from its end.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[19]);
    return Number.isSafeInteger(ticks) ? ticks : null;
  } catch {
    return null;
  }
}

export function thisWriter(): JournalWriter {
  return { pid: process.pid, startTicks: startTicks(process.pid), host: os.hostname().slice(0, 255) };
}

/** Whether a process of that pid runs (one of another user's counts: EPERM). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the journal's writer is gone: its process ended (or the pid is another's now), or another machine's journal went quiet. */
export function writerGone(writer: JournalWriter, lastWriteMs: number, now = Date.now()): boolean {
  if (writer.host !== os.hostname().slice(0, 255)) return now - lastWriteMs > FOREIGN_STALE_MS;
  if (!pidAlive(writer.pid)) return true;
  return writer.startTicks !== null && startTicks(writer.pid) !== writer.startTicks;
}
