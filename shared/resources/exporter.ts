import type { ResourceSample } from '../model/server-resources.ts';

/* A machine's figures (CPU busy, memory, load, network) from two node_exporter scrapes. Pure. */

/** The node_exporter series a sample needs, from one scrape. */
export interface ExporterScrape {
  /** Monotonic time the answer arrived, ms. */
  at: number;
  /** node_cpu_seconds_total by "cpu|mode". */
  cpuSeconds: ReadonlyMap<string, { cpu: string; mode: string; value: number }>;
  load1: number | null;
  load5: number | null;
  load15: number | null;
  memTotalBytes: number | null;
  memAvailableBytes: number | null;
  /** node_network_{receive,transmit}_bytes_total by device. */
  netReceiveBytes: ReadonlyMap<string, number>;
  netTransmitBytes: ReadonlyMap<string, number>;
}

/**
 * Modes that are not busy time. iowait is idle time while a disk request is pending (the core
 * could run anything else), so it is not counted as busy, as top's "us+sy" and Grafana's
 * Node Exporter dashboard do; steal (a hypervisor running another guest) is counted, since
 * the server wanted the core then. guest time is already inside user and nice.
 */
const IDLE_MODES = new Set(['idle', 'iowait']);
const USER_MODES = new Set(['user', 'nice']);
const SYSTEM_MODES = new Set(['system', 'irq', 'softirq']);

/** A counter's growth; a counter that went down was reset (exporter or machine restarted): its new value is the growth. */
const counterDelta = (before: number, now: number): number => (now >= before ? now - before : now);

/** The sum of the growth of every series present in both maps, except excluded keys. */
function sumDeltas(
  prev: ReadonlyMap<string, number>,
  cur: ReadonlyMap<string, number>,
  exclude: ReadonlySet<string> = new Set(),
): number {
  let sum = 0;
  for (const [key, now] of cur) {
    const before = prev.get(key);
    if (before !== undefined && !exclude.has(key)) sum += counterDelta(before, now);
  }
  return sum;
}

/** Number of distinct cpu labels in a scrape. */
export const exporterCpuCount = (s: ExporterScrape): number =>
  new Set([...s.cpuSeconds.values()].map((c) => c.cpu)).size;

/**
 * The figures of a node_exporter sample from two scrapes: CPU from the node_cpu_seconds_total
 * deltas (busy = every mode but idle and iowait), memory used = MemTotal - MemAvailable, load
 * averages as scraped, network bytes per second summed over devices not in `excludeDevices`.
 * A figure whose series are missing is left out.
 */
export function exporterFigures(
  prev: ExporterScrape,
  cur: ExporterScrape,
  excludeDevices: readonly string[],
): Partial<ResourceSample> {
  const seconds = (cur.at - prev.at) / 1000;
  const out: Partial<ResourceSample> = { intervalSeconds: Math.max(0, seconds) };
  let busy = 0;
  let total = 0;
  let user = 0;
  let system = 0;
  let matched = 0;
  for (const [key, now] of cur.cpuSeconds) {
    const before = prev.cpuSeconds.get(key);
    if (!before) continue;
    matched++;
    const d = counterDelta(before.value, now.value);
    total += d;
    if (!IDLE_MODES.has(now.mode)) busy += d;
    if (USER_MODES.has(now.mode)) user += d;
    if (SYSTEM_MODES.has(now.mode)) system += d;
  }
  if (matched > 0 && seconds > 0) {
    out.cpuSeconds = busy;
    out.cpuPercent = (busy / seconds) * 100;
    out.cpuUserPercent = (user / seconds) * 100;
    out.cpuSystemPercent = (system / seconds) * 100;
    // The counters tick in 10 ms steps: busy can read a hair above total; 100 % is the ceiling.
    out.cpuBusyPercent = total > 0 ? Math.min(100, (busy / total) * 100) : 0;
  }
  if (cur.load1 !== null) out.load1 = cur.load1;
  if (cur.load5 !== null) out.load5 = cur.load5;
  if (cur.load15 !== null) out.load15 = cur.load15;
  if (cur.memTotalBytes !== null) {
    out.memoryTotalBytes = cur.memTotalBytes;
    if (cur.memAvailableBytes !== null) {
      out.memoryUsedBytes = Math.max(0, cur.memTotalBytes - cur.memAvailableBytes);
    }
  }
  if (seconds > 0) {
    const exclude = new Set(excludeDevices);
    if (cur.netReceiveBytes.size > 0) {
      out.netInBytesPerSecond = sumDeltas(prev.netReceiveBytes, cur.netReceiveBytes, exclude) / seconds;
    }
    if (cur.netTransmitBytes.size > 0) {
      out.netOutBytesPerSecond = sumDeltas(prev.netTransmitBytes, cur.netTransmitBytes, exclude) / seconds;
    }
  }
  return out;
}
