import { lookup } from 'node:dns/promises';
import { readFileSync } from 'node:fs';
import { isIPv4, isIPv6 } from 'node:net';
import { procfsSupported } from '../monitor/procfs.ts';

/*
 * The link a target past this machine is reached by: the network device the kernel's route
 * to its address leaves by (/proc/net/route, /proc/net/ipv6_route: the longest prefix that
 * matches, then the lowest metric), that device's speed (/sys/class/net/<dev>/speed, what
 * ethtool reports) and, when a traffic shaper limits it lower, the shaper's rate (`tc -j qdisc
 * show dev <dev>`: one process started once per run, only for a target past this machine).
 * Each reading then reads the device's byte counters. Linux; elsewhere no link is known.
 */

/** A link whose speed is known. */
export interface LinkPlan {
  device: string;
  bitsPerSecond: number;
  from: 'speed' | 'shaper';
}

/** A 32-bit word of /proc/net/route (host order: little-endian) as a number in network order. */
function routeWord(hex: string): number {
  const n = Number.parseInt(hex, 16);
  return (((n & 0xff) << 24) | ((n & 0xff00) << 8) | ((n >>> 8) & 0xff00) | (n >>> 24)) >>> 0;
}

const v4Number = (address: string): number =>
  address.split('.').reduce((a, part) => ((a << 8) | Number(part)) >>> 0, 0);

/** Population count of a netmask. */
const maskBits = (mask: number): number => mask.toString(2).replace(/0/g, '').length;

/** The device of the best IPv4 route to `address` in a /proc/net/route table. */
export function routeDevice4(table: string, address: string): string | null {
  const target = v4Number(address);
  let best: { device: string; bits: number; metric: number } | null = null;
  for (const line of table.split('\n').slice(1)) {
    const [device, dest, , flags, , , metric, mask] = line.trim().split(/\s+/);
    if (!device || !dest || !mask || !flags) continue;
    // RTF_UP: the route is in use.
    if ((Number.parseInt(flags, 16) & 1) === 0) continue;
    const m = routeWord(mask);
    if ((target & m) >>> 0 !== routeWord(dest)) continue;
    const bits = maskBits(m);
    const met = Number(metric);
    if (!best || bits > best.bits || (bits === best.bits && met < best.metric))
      best = { device, bits, metric: met };
  }
  return best?.device ?? null;
}

/** An IPv6 address's 32 hex digits, as /proc/net/ipv6_route writes them. */
function v6Hex(address: string): string {
  const [head = '', tail = ''] = address.split('::');
  const groups = (s: string): string[] => (s === '' ? [] : s.split(':'));
  const h = groups(head);
  const t = groups(tail);
  const fill = address.includes('::') ? Array<string>(8 - h.length - t.length).fill('0') : [];
  return [...h, ...fill, ...t].map((g) => g.padStart(4, '0')).join('');
}

/** The device of the best IPv6 route to `address` in a /proc/net/ipv6_route table. */
export function routeDevice6(table: string, address: string): string | null {
  const target = BigInt(`0x${v6Hex(address)}`);
  let best: { device: string; bits: number; metric: number } | null = null;
  for (const line of table.split('\n')) {
    const f = line.trim().split(/\s+/);
    if (f.length < 10) continue;
    const bits = Number.parseInt(f[1]!, 16);
    const mask = bits === 0 ? 0n : ((1n << BigInt(bits)) - 1n) << BigInt(128 - bits);
    if ((target & mask) !== BigInt(`0x${f[0]}`)) continue;
    const metric = Number.parseInt(f[5]!, 16);
    const device = f[9]!;
    if (!best || bits > best.bits || (bits === best.bits && metric < best.metric))
      best = { device, bits, metric };
  }
  return best?.device ?? null;
}

/** The lowest rate (bits per second) of a shaper in `tc -j qdisc show`'s answer (tbf and its kin say `rate` in bytes per second). */
export function shaperRate(json: string): number | null {
  let list: unknown;
  try {
    list = JSON.parse(json);
  } catch {
    return null;
  }
  if (!Array.isArray(list)) return null;
  let low: number | null = null;
  for (const q of list.slice(0, 64)) {
    const rate = (q as { options?: { rate?: unknown } } | null)?.options?.rate;
    if (typeof rate === 'number' && rate > 0) low = Math.min(low ?? Infinity, rate * 8);
  }
  return low;
}

async function shaperOf(device: string): Promise<number | null> {
  // Loaded here, for a target past this machine only: a plain run's start-up stays without it.
  const { execFile } = await import('node:child_process');
  return new Promise((resolve) => {
    execFile(
      'tc',
      ['-j', 'qdisc', 'show', 'dev', device],
      { timeout: 2000, maxBuffer: 1 << 20 },
      (err, out) => resolve(err ? null : shaperRate(out)),
    );
  });
}

function deviceSpeed(device: string): number | null {
  try {
    const mbps = Number(readFileSync(`/sys/class/net/${device}/speed`, 'latin1').trim());
    return Number.isFinite(mbps) && mbps > 0 ? mbps * 1e6 : null;
  } catch {
    // Virtual devices without a speed refuse the read (EINVAL).
    return null;
  }
}

/**
 * The link to `host` (a target past this machine), or why none is known: a name that does not
 * resolve, no route, a device without a speed.
 */
export async function findLink(host: string): Promise<{ link: LinkPlan } | { note: string }> {
  if (!procfsSupported) return { note: `the link's speed is read on Linux only (${process.platform})` };
  let address = host.replace(/^\[|\]$/g, '');
  if (!isIPv4(address) && !isIPv6(address)) {
    try {
      address = (await lookup(address)).address;
    } catch {
      return { note: `${host} did not resolve: its link is not known` };
    }
  }
  let device: string | null;
  try {
    device = isIPv4(address)
      ? routeDevice4(readFileSync('/proc/net/route', 'latin1'), address)
      : routeDevice6(readFileSync('/proc/net/ipv6_route', 'latin1'), address);
  } catch {
    device = null;
  }
  if (device === null) return { note: `no route to ${address}: its link is not known` };
  if (device === 'lo') return { note: `${address} is reached over loopback: no link to judge` };
  const speed = deviceSpeed(device);
  const shaper = await shaperOf(device);
  if (shaper !== null && (speed === null || shaper < speed)) {
    return { link: { device, bitsPerSecond: shaper, from: 'shaper' } };
  }
  if (speed !== null) return { link: { device, bitsPerSecond: speed, from: 'speed' } };
  return { note: `the speed of ${device} (the route to ${address}) is not known: the link is not judged` };
}

/** The device's byte counters, or null when they cannot be read (the device went away). */
export function linkBytes(device: string): { rxBytes: number; txBytes: number } | null {
  try {
    const read = (name: string): number =>
      Number(readFileSync(`/sys/class/net/${device}/statistics/${name}`, 'latin1').trim());
    return { rxBytes: read('rx_bytes'), txBytes: read('tx_bytes') };
  } catch {
    return null;
  }
}
