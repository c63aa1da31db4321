import { readFileSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { listeningSockets, procAddress, tcpListener } from '../../electron/monitor/tcp-listener.ts';

// Lines as Linux prints them (a listener on 127.0.0.1:8080 and 0.0.0.0:2024, an established socket).
const TCP = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 4242 1 0000000000000000 100 0 0 10 0
   1: 00000000:07E8 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1060 1 0000000000000000 100 0 0 10 0
   2: 0100007F:1F90 0100007F:D431 01 00000000:00000000 00:00000000 00000000     0        0 5151 1 0000000000000000 20 4 30 10 -1
`;
const TCP6 = `  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000000000000000000001000000:1F90 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 7777 1 0000000000000000 100 0 0 10 0
   1: 00000000000000000000000000000000:1F90 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 8888 1 0000000000000000 100 0 0 10 0
`;

describe('listening TCP sockets from /proc/net/tcp{,6}', () => {
  it('reads the addresses as the kernel prints them (32-bit words, little-endian)', () => {
    expect(procAddress('0100007F')).toBe('127.0.0.1');
    expect(procAddress('00000000')).toBe('0.0.0.0');
    expect(procAddress('00000000000000000000000001000000')).toBe('::1');
    expect(procAddress('00000000000000000000000000000000')).toBe('::');
    expect(procAddress('0000000000000000FFFF00000100007F')).toBe('127.0.0.1');
    expect(procAddress('B80D0120000000000000000001000000')).toBe('2001:db8::1');
  });

  it('keeps the listeners on the port only', () => {
    expect(listeningSockets(TCP, 8080)).toEqual([{ host: '127.0.0.1', inode: 4242 }]);
    expect(listeningSockets(TCP, 2024)).toEqual([{ host: '0.0.0.0', inode: 1060 }]);
    expect(listeningSockets(TCP6, 8080)).toEqual([
      { host: '::1', inode: 7777 },
      { host: '::', inode: 8888 },
    ]);
    expect(listeningSockets(TCP, 9999)).toEqual([]);
  });
});

describe('tcpListener', () => {
  const server: Server = createServer();
  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  it('finds this process listening on a loopback port, and says when nothing listens', async () => {
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as { port: number };
    expect(tcpListener(port, '127.0.0.1')).toEqual({ ok: true, pid: process.pid });
    expect(tcpListener(port, 'localhost')).toEqual({ ok: true, pid: process.pid });
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const free = (closed.address() as { port: number }).port;
    await new Promise<void>((done) => closed.close(() => done()));
    expect(tcpListener(free, '127.0.0.1')).toEqual({
      ok: false,
      reason: `nothing listens on port ${free} on this machine`,
    });
  });

  // What tcpListener's read of the table relies on: it stops at the first socket not listening.
  it('the kernel lists every listening socket before the others (a connection open, the listener found)', async () => {
    const { port } = server.address() as { port: number };
    const client = connect(port, '127.0.0.1');
    await new Promise<void>((done) => client.once('connect', () => done()));
    try {
      const states = readFileSync('/proc/net/tcp', 'latin1')
        .trim()
        .split('\n')
        .slice(1)
        .map((line) => line.trim().split(/\s+/)[3]);
      expect(states).toContain('01');
      const firstOther = states.findIndex((st) => st !== '0A');
      expect(states.slice(firstOther)).not.toContain('0A');
      expect(tcpListener(port, '127.0.0.1')).toEqual({ ok: true, pid: process.pid });
    } finally {
      client.destroy();
    }
  });
});
