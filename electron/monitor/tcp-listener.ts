import { closeSync, openSync, readSync } from 'node:fs';
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
 * rem_address st ... uid timeout inode; an address is HEXADDR:HEXPORT). One pattern over the
 * whole table, the port in it: a busy machine's table holds thousands of connections, and a
 * split of each line cost a run's start ~6 ms of CPU for 300 of them (issue 24).
 */
export function listeningSockets(table: string, port: number): TcpListening[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const listening = new RegExp(
    `^\\s*\\d+:\\s+([0-9A-Fa-f]+):${hexPort}\\s+\\S+\\s+${LISTEN}(?:\\s+\\S+){5}\\s+(\\d+)`,
    'gim',
  );
  return [...table.matchAll(listening)].map((m) => ({ host: procAddress(m[1]!), inode: Number(m[2]) }));
}

/** How much of a table is read at a time (the kernel writes as many whole lines as fit). */
const READ_BYTES = 64 * 1024;
/** The first line of a table in another state than LISTEN. */
const NOT_LISTENING = new RegExp(`^\\s*\\d+:\\s+\\S+\\s+\\S+\\s+(?!${LISTEN}\\s)[0-9A-F]{2}\\s`, 'im');

/**
 * A /proc/net table's lines up to its first socket that is not listening, or all of them when
 * `whole`. Linux lists the listening sockets first (its listening hash, then the established
 * one) and writes a table only as far as it is read: a busy machine's tens of thousands of
 * connections, read whole, cost a run's start 40-60 ms of CPU (issue 24).
 */
function readTable(file: string, whole: boolean): string {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.allocUnsafe(READ_BYTES);
    let text = '';
    for (let n = readSync(fd, buffer); n > 0; n = readSync(fd, buffer)) {
      text += buffer.toString('latin1', 0, n);
      const other = whole ? null : NOT_LISTENING.exec(text);
      if (other) return text.slice(0, other.index);
    }
    return text;
  } finally {
    closeSync(fd);
  }
}

/** The sockets listening on `port` in /proc/net/tcp and tcp6 (read as readTable says). */
function listenersOn(port: number, whole: boolean): TcpListening[] {
  const sockets: TcpListening[] = [];
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    try {
      sockets.push(...listeningSockets(readTable(file, whole), port));
    } catch {
      // No IPv6 in this kernel: tcp6 is absent.
    }
  }
  return sockets;
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
  let sockets = listenersOn(port, false);
  // None among the first lines: the whole tables, should a kernel list its sockets in another order.
  if (sockets.length === 0) sockets = listenersOn(port, true);
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
