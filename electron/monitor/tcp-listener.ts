import { readFileSync } from 'node:fs';
import { notVisible, socketOwner } from './socket-owner.ts';

/** /proc/net/tcp's st column for a listening socket (TCP_LISTEN). */
const LISTEN = '0A';

/** A listening TCP socket: the address it is bound to (canonical: '0.0.0.0', '::', '127.0.0.1', '::1') and its inode. */
export interface TcpListening {
  host: string;
  inode: number;
}

/** 32-bit words as the kernel prints them (host order: little-endian on every Linux Node runs on) to bytes. */
function addressBytes(hex: string): number[] {
  const bytes: number[] = [];
  for (let w = 0; w < hex.length; w += 8) {
    const word = hex.slice(w, w + 8);
    for (let b = 6; b >= 0; b -= 2) bytes.push(Number.parseInt(word.slice(b, b + 2), 16));
  }
  return bytes;
}

/** An address from /proc/net/tcp{,6} in the form URL gives it; a v4-mapped v6 address as its v4 one. */
export function procAddress(hex: string): string {
  const bytes = addressBytes(hex);
  if (bytes.length === 4) return bytes.join('.');
  const mapped = bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  if (mapped) return bytes.slice(12).join('.');
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i]! << 8) | bytes[i + 1]!).toString(16));
  return new URL(`http://[${groups.join(':')}]/`).hostname.replace(/^\[|\]$/g, '');
}

/**
 * The sockets listening on `port` in a /proc/net/tcp or tcp6 table (columns: sl local_address
 * rem_address st ... uid timeout inode; an address is HEXADDR:HEXPORT).
 */
export function listeningSockets(table: string, port: number): TcpListening[] {
  const out: TcpListening[] = [];
  for (const line of table.split('\n').slice(1)) {
    const cols = line.trim().split(/\s+/);
    if (cols.length < 10 || cols[3] !== LISTEN) continue;
    const [address, hexPort] = cols[1]!.split(':');
    if (address === undefined || Number.parseInt(hexPort ?? '', 16) !== port) continue;
    out.push({ host: procAddress(address), inode: Number(cols[9]) });
  }
  return out;
}

const WILDCARDS = new Set(['0.0.0.0', '::']);

/**
 * The pid listening on TCP `port` for `host` (found once at start from /proc/net/tcp and tcp6
 * and a look through /proc/<pid>/fd: no process started). A listener bound to the target's
 * own address wins over one bound to every address.
 */
export function tcpListener(
  port: number,
  host: string,
): { ok: true; pid: number } | { ok: false; reason: string } {
  const sockets: TcpListening[] = [];
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    try {
      sockets.push(...listeningSockets(readFileSync(file, 'latin1'), port));
    } catch {
      // No IPv6 in this kernel: tcp6 is absent.
    }
  }
  if (sockets.length === 0) return { ok: false, reason: `nothing listens on port ${port} on this machine` };
  const target = host === 'localhost' ? '127.0.0.1' : host.replace(/^\[|\]$/g, '').toLowerCase();
  const exact = sockets.filter((s) => s.host === target);
  const wildcard = sockets.filter((s) => WILDCARDS.has(s.host));
  for (const group of [exact, wildcard, sockets]) {
    const pid = socketOwner(group.map((s) => s.inode));
    if (pid !== null) return { ok: true, pid };
  }
  return { ok: false, reason: notVisible(`port ${port}`) };
}
