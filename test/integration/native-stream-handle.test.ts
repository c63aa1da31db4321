import net from 'node:net';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordSizeFor, SocketWriter } from '../../electron/engine/native/socket/socket-writer.ts';
import { readDirectly } from '../../electron/engine/native/socket/stream-handle.ts';
import { endAfterEach } from '../helpers/cleanup.ts';
import { makeTestCerts, type TestCerts } from '../helpers/certs.ts';

const track = endAfterEach();

let certs: TestCerts;
beforeAll(() => {
  certs = makeTestCerts();
});
afterAll(() => certs.remove());

/** Chunk i: its index in 4 bytes, then filler, so the received bytes show any reordering. */
function chunk(i: number, size: number): Buffer {
  const b = Buffer.alloc(size, i % 251);
  b.writeUInt32BE(i, 0);
  return b;
}

/** A server that collects what each connection sends; `paused` holds reading until resume(). */
async function sink(opts: { tls?: boolean; paused?: boolean } = {}) {
  let received = Buffer.alloc(0);
  const parts: Buffer[] = [];
  const sockets: net.Socket[] = [];
  let gotBytes = 0;
  const waiters: { bytes: number; resolve: () => void }[] = [];
  const onSocket = (s: net.Socket) => {
    sockets.push(s);
    if (opts.paused) s.pause();
    s.on('data', (d: Buffer) => {
      parts.push(d);
      gotBytes += d.length;
      for (const w of [...waiters]) if (gotBytes >= w.bytes) w.resolve();
    });
    s.on('error', () => undefined);
  };
  const server = opts.tls
    ? tls.createServer({ key: certs.valid.key, cert: certs.valid.cert }, onSocket)
    : net.createServer(onSocket);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return track({
    port,
    sockets,
    resume: () => sockets.forEach((s) => s.resume()),
    /** Resolves with everything received once `bytes` arrived. */
    received: (bytes: number) =>
      new Promise<Buffer>((resolve) => {
        const done = () => {
          received = Buffer.concat(parts);
          resolve(received);
        };
        if (gotBytes >= bytes) done();
        else waiters.push({ bytes, resolve: done });
      }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  });
}

function connect(port: number, secure: boolean): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const s = secure
      ? tls.connect({ host: '127.0.0.1', port, ca: certs.ca.cert }, () => resolve(s))
      : net.connect({ host: '127.0.0.1', port }, () => resolve(s));
    s.once('error', reject);
    track({ close: () => s.destroy() });
  });
}

describe('SocketWriter', () => {
  it('writes past the Writable and keeps the order when the kernel buffer fills (the server reads late)', async () => {
    const server = await sink({ paused: true });
    const socket = await connect(server.port, false);
    const writer = new SocketWriter(socket);
    // Node 24 offers the handle API: the direct path is the one under test.
    expect(writer.direct).toBe(true);
    const chunks = Array.from({ length: 400 }, (_, i) => chunk(i, 64 * 1024));
    const consumed = chunks.map((c) => writer.write(c));
    // The first writes went out at once; once the buffers filled, writes were left to libuv.
    expect(consumed[0]).toBe(true);
    expect(consumed.filter((c) => !c).length).toBeGreaterThan(0);
    expect(socket.writableLength).toBe(0);
    server.resume();
    const got = await server.received(400 * 64 * 1024);
    expect(got.equals(Buffer.concat(chunks))).toBe(true);
  });

  it('queues TLS writes while one is in flight and sends them together after it, in order', async () => {
    const server = await sink({ tls: true });
    const socket = await connect(server.port, true);
    const writer = new SocketWriter(socket);
    expect(writer.direct).toBe(true);
    const chunks = Array.from({ length: 200 }, (_, i) => chunk(i, 100 + i));
    // The first is encrypted at once (consumed); the rest wait for its completion.
    expect(chunks.map((c) => writer.write(c))).toEqual([true, ...chunks.slice(1).map(() => false)]);
    const total = chunks.reduce((n, c) => n + c.length, 0);
    const got = await server.received(total);
    expect(got.equals(Buffer.concat(chunks))).toBe(true);
    // A later write, after the queue went out, is direct again.
    await new Promise((r) => setImmediate(r));
    expect(writer.write(chunk(200, 10))).toBe(true);
    expect((await server.received(total + 10)).subarray(total).equals(chunk(200, 10))).toBe(true);
  });

  it('sizes TLS records to the largest write, and a write beyond it still arrives whole', async () => {
    expect([1, 512, 513, 4000, 8192, 8193, 70_000].map(recordSizeFor)).toEqual([
      512,
      512,
      1024,
      4096,
      8192,
      null,
      null,
    ]);
    const server = await sink({ tls: true });
    const socket = await connect(server.port, true);
    const writer = new SocketWriter(socket, 300);
    const small = chunk(0, 300);
    // Larger than the 512-byte records the writer chose: several records, the same bytes.
    const large = chunk(1, 5000);
    expect(writer.write(small)).toBe(true);
    await new Promise((r) => setImmediate(r));
    expect(writer.write(large)).toBe(true);
    const got = await server.received(5300);
    expect(got.equals(Buffer.concat([small, large]))).toBe(true);
  });

  it('ends a TLS socket whose peer resets it while writes go out without completion callbacks', async () => {
    // TLS over a TCP socket of the test's own, which it resets (a TLSSocket cannot be reset).
    const raw: net.Socket[] = [];
    const server = net.createServer((s) => {
      raw.push(s);
      s.on('error', () => undefined);
      new tls.TLSSocket(s, { isServer: true, key: certs.valid.key, cert: certs.valid.cert }).on(
        'error',
        () => undefined,
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    track({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
    const socket = await connect((server.address() as net.AddressInfo).port, true);
    const writer = new SocketWriter(socket, 1000);
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.on('error', () => undefined);
    await new Promise((r) => setTimeout(r, 50));
    raw[0]!.resetAndDestroy();
    for (let i = 0; i < 200 && !socket.destroyed; i++) {
      writer.write(chunk(i, 1000));
      await new Promise((r) => setTimeout(r, 5));
    }
    await closed;
    expect(socket.destroyed).toBe(true);
    expect(writer.write(chunk(0, 10))).toBe(true);
  });

  it('writes through the Writable while it holds bytes of its own, keeping the order', async () => {
    const server = await sink({ paused: true });
    const socket = await connect(server.port, false);
    const big = chunk(0, 32 * 1024 * 1024);
    socket.write(big);
    expect(socket.writableLength).toBeGreaterThan(0);
    const writer = new SocketWriter(socket);
    const after = Array.from({ length: 10 }, (_, i) => chunk(i + 1, 1000));
    for (const c of after) expect(writer.write(c)).toBe(false);
    server.resume();
    const got = await server.received(big.length + 10_000);
    expect(got.equals(Buffer.concat([big, ...after]))).toBe(true);
  });

  it('ends the socket with the error when a write fails, as the Writable would', async () => {
    const server = await sink();
    const socket = await connect(server.port, false);
    const writer = new SocketWriter(socket);
    const closed = new Promise<NodeJS.ErrnoException | null>((resolve) => {
      let error: NodeJS.ErrnoException | null = null;
      socket.on('error', (e) => (error = e));
      socket.on('close', () => resolve(error));
    });
    // Not reading: the reset shows in a write, not in a read.
    socket.pause();
    await new Promise((r) => setTimeout(r, 50));
    server.sockets[0]!.resetAndDestroy();
    // Keep writing until the reset arrives and a write fails.
    for (let i = 0; i < 200 && !socket.destroyed; i++) {
      writer.write(chunk(i, 1000));
      await new Promise((r) => setTimeout(r, 5));
    }
    const err = await closed;
    expect(['EPIPE', 'ECONNRESET']).toContain(err?.code);
    expect(err?.syscall).toBe('write');
    // Writing to the ended socket is a no-op, not a throw.
    expect(writer.write(chunk(0, 10))).toBe(true);
  });
});

describe('readDirectly', () => {
  it.each([false, true])(
    "hands reads from the socket's own buffer straight to the client (TLS: %s), and leaves the end to Node",
    async (secure) => {
      const payload = Buffer.concat(Array.from({ length: 50 }, (_, i) => chunk(i, 10_000)));
      const onSocket = (s: net.Socket) => s.end(payload);
      const server = secure
        ? tls.createServer({ key: certs.valid.key, cert: certs.valid.cert }, onSocket)
        : net.createServer(onSocket);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      track({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
      const port = (server.address() as net.AddressInfo).port;
      const buffer = Buffer.allocUnsafe(16 * 1024);
      let viaNode = 0;
      const parts: Buffer[] = [];
      const onread = {
        buffer,
        callback: () => {
          viaNode++;
          return true;
        },
      };
      const socket = await new Promise<net.Socket>((resolve) => {
        const o = { host: '127.0.0.1', port, onread };
        const s = secure
          ? tls.connect({ ...o, ca: certs.ca.cert }, () => resolve(s))
          : net.connect(o, () => resolve(s));
      });
      track({ close: () => socket.destroy() });
      expect(readDirectly(socket, buffer, (n, b) => parts.push(Buffer.from(b.subarray(0, n))))).toBe(true);
      // The server's end still ends the socket (Node's callback handles a read of no bytes).
      await new Promise((resolve) => socket.once('close', resolve));
      expect(Buffer.concat(parts).equals(payload)).toBe(true);
      expect(viaNode).toBe(0);
    },
  );
});
