/**
 * A child process's peak memory, read from /proc as it runs: VmHWM (the resident set's
 * high-water mark) only grows, so any read after the peak shows it. Polled every few
 * milliseconds until the process ends; a peak in its last few milliseconds can be missed,
 * which is why the bounds asserted on it are generous.
 */
import { readFileSync } from 'node:fs';

function highWaterMarkKb(pid: number): number | null {
  try {
    const m = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/** Follows `pid` until `ended` resolves; the highest VmHWM seen, in MB. */
export async function peakRssMb(pid: number, ended: Promise<unknown>): Promise<number> {
  let peakKb = 0;
  let done = false;
  void ended.finally(() => (done = true));
  while (!done) {
    peakKb = Math.max(peakKb, highWaterMarkKb(pid) ?? 0);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return peakKb / 1024;
}
