import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type tls from 'node:tls';

/** A server a test started on 127.0.0.1 (port 0); close() ends every open connection too. */
export interface TestServer {
  url: string;
  port: number;
  /** TCP connections accepted so far. */
  readonly connections: number;
  /** HTTP requests received so far (0 for raw servers). */
  readonly requests: number;
  close(): Promise<void>;
}

interface Tracked {
  server: net.Server;
  sockets: Set<net.Socket>;
  counts: { connections: number; requests: number };
}

function track(server: net.Server, event: 'connection' | 'secureConnection'): Tracked {
  const t: Tracked = { server, sockets: new Set(), counts: { connections: 0, requests: 0 } };
  // Count at TCP accept for both: TLS handshakes that fail still opened a connection.
  server.on('connection', (socket: net.Socket) => {
    t.sockets.add(socket);
    socket.on('close', () => t.sockets.delete(socket));
  });
  server.on(event, () => t.counts.connections++);
  return t;
}

async function listen(t: Tracked, scheme: string): Promise<TestServer> {
  await new Promise<void>((resolve, reject) => {
    t.server.once('error', reject);
    t.server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (t.server.address() as AddressInfo).port;
  return {
    url: `${scheme}://127.0.0.1:${port}/`,
    port,
    get connections() {
      return t.counts.connections;
    },
    get requests() {
      return t.counts.requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of t.sockets) s.destroy();
        t.server.close(() => resolve());
      }),
  };
}

/**
 * An HTTP (or, with tls, HTTPS) server running handler for every request; tls may also limit
 * the versions it offers (a TLS 1.0-only server needs its ciphers at OpenSSL's level 0).
 */
export function startHttpServer(
  handler: http.RequestListener,
  opts: {
    tls?: { key: string; cert: string } & Pick<
      tls.SecureContextOptions,
      'minVersion' | 'maxVersion' | 'ciphers'
    >;
  } = {},
): Promise<TestServer> {
  const server = opts.tls ? https.createServer({ ...opts.tls }, handler) : http.createServer(handler);
  server.keepAliveTimeout = 30_000;
  const t = track(server, opts.tls ? 'secureConnection' : 'connection');
  server.on('request', () => t.counts.requests++);
  return listen(t, opts.tls ? 'https' : 'http');
}

/** A TCP server that hands each connection to onSocket (for resets and silent peers). */
export function startRawServer(onSocket: (socket: net.Socket) => void): Promise<TestServer> {
  const server = net.createServer(onSocket);
  return listen(track(server, 'connection'), 'http');
}

/**
 * Loopback ports nothing listens on right now, all different: each is bound while the next is
 * picked, then all are released (free for a server to bind). Picked one after another, two
 * could be the same port, handed out again once released (H2O then refused a config that
 * served http and https on one port).
 */
export async function freePorts(count: number): Promise<number[]> {
  const held: net.Server[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const s = net.createServer();
      held.push(s);
      await new Promise<void>((resolve, reject) => {
        s.once('error', reject);
        s.listen(0, '127.0.0.1', () => resolve());
      });
    }
    return held.map((s) => (s.address() as AddressInfo).port);
  } finally {
    await Promise.all(held.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  }
}

/** A loopback port nothing listens on right now (bound once, then released): free for a server to bind. */
export const freePort = async (): Promise<number> => (await freePorts(1))[0]!;

/** A loopback port that refuses connections: a free one, as long as nothing binds it. */
export const refusedPort = freePort;

/** Ready-made request handlers for the behaviours the tests need. */
export const handlers = {
  /** 200 with a fixed body. */
  ok(body = 'hello', headers: http.OutgoingHttpHeaders = {}): http.RequestListener {
    const buf = Buffer.from(body);
    return (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': buf.length, ...headers });
      res.end(buf);
    };
  },
  /** 200 after a fixed delay. */
  delay(ms: number, body = 'slow'): http.RequestListener {
    return (_req, res) => {
      setTimeout(() => res.end(body), ms);
    };
  },
  /** Headers only after headerDelayMs, then the body after bodyDelayMs more. */
  phased(headerDelayMs: number, bodyDelayMs: number, body = 'phased'): http.RequestListener {
    return (_req, res) => {
      setTimeout(() => {
        res.writeHead(200, { 'content-length': Buffer.byteLength(body) });
        res.flushHeaders();
        setTimeout(() => res.end(body), bodyDelayMs);
      }, headerDelayMs);
    };
  },
  /** A fixed status code (and optional status text and headers, e.g. malicious ones for CSV tests). */
  status(
    code: number,
    statusText?: string,
    body = '',
    headers: http.OutgoingHttpHeaders = {},
  ): http.RequestListener {
    return (_req, res) => {
      res.writeHead(code, statusText ?? http.STATUS_CODES[code] ?? '', {
        'content-length': Buffer.byteLength(body),
        ...headers,
      });
      res.end(body);
    };
  },
  /**
   * A server of known capacity: `slots` requests served at a time, each held `holdMs`, the rest
   * queued in arrival order (slots / holdMs per ms at most: 10 slots of 5 ms serve 2,000 req/s).
   * Each request takes the slot that frees first and ends holdMs after it began, by the clock,
   * so a timer that fires late delays that answer but never shrinks the capacity.
   */
  limited(slots: number, holdMs: number): http.RequestListener {
    const freeAt = new Array<number>(slots).fill(0);
    return (_req, res) => {
      const now = performance.now();
      let slot = 0;
      for (let i = 1; i < slots; i++) if (freeAt[i]! < freeAt[slot]!) slot = i;
      const end = Math.max(now, freeAt[slot]!) + holdMs;
      freeAt[slot] = end;
      setTimeout(() => {
        res.writeHead(200, { 'content-length': 2 });
        res.end('ok');
      }, end - now);
    };
  },
  /** Status codes taken in turn from a list, so the test knows the exact counts it sent. */
  cycle(codes: readonly number[]): http.RequestListener {
    let i = 0;
    return (_req, res) => {
      const code = codes[i++ % codes.length]!;
      res.writeHead(code, { 'content-length': 2 });
      res.end('ok');
    };
  },
  /** Sends headers and part of the body, then resets the connection. */
  resetMidResponse(): http.RequestListener {
    return (req, res) => {
      res.writeHead(200, { 'content-length': 1000 });
      res.write('partial');
      setTimeout(() => req.socket.resetAndDestroy(), 5);
    };
  },
  /** Accepts the request and never answers. */
  neverAnswer(): http.RequestListener {
    return () => undefined;
  },
  /** A large body of `bytes` bytes (Content-Length framed), written in 64 KiB chunks. */
  largeBody(bytes: number): http.RequestListener {
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    return (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': bytes });
      let left = bytes;
      const write = (): void => {
        while (left > 0) {
          const n = Math.min(left, chunk.length);
          left -= n;
          if (!res.write(n === chunk.length ? chunk : chunk.subarray(0, n))) {
            res.once('drain', write);
            return;
          }
        }
        res.end();
      };
      write();
    };
  },
  /** A chunked body (no Content-Length): `chunks` chunks of `size` bytes. */
  chunked(chunks: number, size: number): http.RequestListener {
    const piece = Buffer.alloc(size, 0x62);
    return (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      for (let i = 0; i < chunks; i++) res.write(piece);
      res.end();
    };
  },
  /** Answers the first request (an engine's pre-flight) with 200 "ok", every later one with `then`. */
  firstOk(then: http.RequestListener): http.RequestListener {
    let first = true;
    return (req, res) => {
      if (!first) return then(req, res);
      first = false;
      res.writeHead(200, { 'content-length': 2 });
      res.end('ok');
    };
  },
  /** Echoes the request body length and method, for body/method tests. */
  echo(): http.RequestListener {
    return (req, res) => {
      let n = 0;
      req.on('data', (d: Buffer) => (n += d.length));
      req.on('end', () => res.end(JSON.stringify({ method: req.method, bytes: n, headers: req.headers })));
    };
  },
};
