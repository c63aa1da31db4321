import { describe, expect, it } from 'vitest';
import { ResponseParser } from '../../electron/engine/native/http1/response-parser.ts';

interface Parsed {
  status: number;
  body: number;
  total: number;
  close: boolean;
}

function parser(opts: { head?: boolean; maxHeadBytes?: number } = {}) {
  const out: Parsed[] = [];
  const p = new ResponseParser((status, body, total, close) => out.push({ status, body, total, close }), {
    headRequests: opts.head ?? false,
    maxHeadBytes: opts.maxHeadBytes ?? 1024 * 1024,
  });
  return { p, out };
}

/** Feeds the bytes in pieces cut at the given offsets, through one reused buffer (like net's onread). */
function feed(p: ResponseParser, bytes: Buffer, cuts: number[]): boolean {
  const shared = Buffer.alloc(bytes.length + 64, 0x58);
  let from = 0;
  for (const to of [...cuts, bytes.length]) {
    const n = to - from;
    shared.fill(0x58);
    bytes.copy(shared, 0, from, to);
    if (!p.execute(shared, 0, n)) return false;
    from = to;
  }
  return true;
}

const CHUNKED =
  'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nServer: t\r\n\r\n' +
  '5;name=value;other="x"\r\nhello\r\n' +
  'A\r\n0123456789\r\n' +
  '0\r\nExpires: never\r\nX-Trailer: 1\r\n\r\n';

describe('ResponseParser', () => {
  it('frames a Content-Length response and counts head and body bytes', () => {
    const text = 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\nServer: nginx\r\n\r\nhello';
    const { p, out } = parser();
    p.captureServer = true;
    expect(p.execute(Buffer.from(text), 0, text.length)).toBe(true);
    expect(out).toEqual([{ status: 200, body: 5, total: text.length, close: false }]);
    expect(p.server).toBe('nginx');
    expect(p.idle).toBe(true);
  });

  it('reads chunked bodies with extensions and trailers', () => {
    const { p, out } = parser();
    expect(feed(p, Buffer.from(CHUNKED), [])).toBe(true);
    expect(out).toEqual([{ status: 200, body: 15, total: CHUNKED.length, close: false }]);
  });

  it('gives the same result for a chunked response split at every byte boundary', () => {
    const bytes = Buffer.from(CHUNKED);
    for (let cut = 1; cut < bytes.length; cut++) {
      const { p, out } = parser();
      expect(feed(p, bytes, [cut])).toBe(true);
      expect(out).toEqual([{ status: 200, body: 15, total: bytes.length, close: false }]);
    }
  });

  it('gives the same result when every byte arrives alone', () => {
    const bytes = Buffer.from(CHUNKED + 'HTTP/1.1 204 No Content\r\n\r\n');
    const { p, out } = parser();
    expect(
      feed(
        p,
        bytes,
        Array.from({ length: bytes.length - 1 }, (_, i) => i + 1),
      ),
    ).toBe(true);
    expect(out.map((r) => [r.status, r.body])).toEqual([
      [200, 15],
      [204, 0],
    ]);
  });

  it('handles a head split around its CRLFCRLF at every position', () => {
    const text =
      'HTTP/1.1 404 Not Found\r\nContent-Length: 3\r\n\r\nabcHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n';
    const bytes = Buffer.from(text);
    for (let cut = 1; cut < bytes.length; cut++) {
      const { p, out } = parser();
      expect(feed(p, bytes, [cut])).toBe(true);
      expect(out.map((r) => [r.status, r.body])).toEqual([
        [404, 3],
        [200, 0],
      ]);
    }
  });

  it('parses heads far larger than one read', () => {
    const big = 'x'.repeat(200 * 1024);
    const text = `HTTP/1.1 200 OK\r\nX-Big: ${big}\r\nContent-Length: 2\r\n\r\nok`;
    const bytes = Buffer.from(text);
    const { p, out } = parser();
    const cuts = [];
    for (let i = 16 * 1024; i < bytes.length; i += 16 * 1024) cuts.push(i);
    expect(feed(p, bytes, cuts)).toBe(true);
    expect(out).toEqual([{ status: 200, body: 2, total: bytes.length, close: false }]);
  });

  it('rejects a head over the limit', () => {
    const { p } = parser({ maxHeadBytes: 1000 });
    const text = `HTTP/1.1 200 OK\r\nX-Big: ${'y'.repeat(2000)}`;
    expect(p.execute(Buffer.from(text), 0, text.length)).toBe(false);
    expect(p.error).toMatch(/larger than 1000 bytes/);
  });

  it('rejects a complete head over the limit, in one read or split just under it', () => {
    const text = `HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX-Big: ${'y'.repeat(1000)}\r\n\r\nok`;
    const whole = parser({ maxHeadBytes: 1000 });
    expect(whole.p.execute(Buffer.from(text), 0, text.length)).toBe(false);
    expect(whole.p.error).toBe('response head larger than 1000 bytes');
    // 990 bytes first (under the limit, no end yet), then the rest with the end of the head.
    const split = parser({ maxHeadBytes: 1000 });
    expect(feed(split.p, Buffer.from(text), [990])).toBe(false);
    expect(split.p.error).toBe('response head larger than 1000 bytes');
    expect(split.out).toEqual([]);
  });

  it('parses many pipelined responses delivered in one read', () => {
    const one = 'HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\ntest';
    const text = one.repeat(50) + 'HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nte';
    const { p, out } = parser();
    expect(p.execute(Buffer.from(text), 0, text.length)).toBe(true);
    expect(out).toHaveLength(50);
    expect(out.every((r) => r.total === one.length && r.body === 4)).toBe(true);
    expect(p.idle).toBe(false);
    expect(p.execute(Buffer.from('st'), 0, 2)).toBe(true);
    expect(out).toHaveLength(51);
  });

  it('reads no body for HEAD, 204 and 304 whatever Content-Length says', () => {
    const head = parser({ head: true });
    const h = 'HTTP/1.1 200 OK\r\nContent-Length: 1234\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 99\r\n\r\n';
    expect(head.p.execute(Buffer.from(h), 0, h.length)).toBe(true);
    expect(head.out.map((r) => r.body)).toEqual([0, 0]);

    const { p, out } = parser();
    const t =
      'HTTP/1.1 204 No Content\r\nContent-Length: 10\r\n\r\n' +
      'HTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\n\r\n' +
      'HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nz';
    expect(p.execute(Buffer.from(t), 0, t.length)).toBe(true);
    expect(out.map((r) => [r.status, r.body])).toEqual([
      [204, 0],
      [304, 0],
      [200, 1],
    ]);
  });

  it('skips 1xx informational responses and counts their bytes with the final one', () => {
    const t = 'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok';
    const { p, out } = parser();
    expect(p.execute(Buffer.from(t), 0, t.length)).toBe(true);
    expect(out).toEqual([{ status: 201, body: 2, total: t.length, close: false }]);
  });

  it('reads a body without framing until the connection closes', () => {
    const { p, out } = parser();
    const t = 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nsome body';
    expect(p.execute(Buffer.from(t), 0, t.length)).toBe(true);
    expect(p.execute(Buffer.from(' more'), 0, 5)).toBe(true);
    expect(out).toHaveLength(0);
    expect(p.finish()).toBe(true);
    expect(out).toEqual([{ status: 200, body: 14, total: t.length + 5, close: true }]);
  });

  it('reports a response cut short by the close', () => {
    const { p, out } = parser();
    const t = 'HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\npartial';
    p.execute(Buffer.from(t), 0, t.length);
    expect(p.finish()).toBe(false);
    expect(out).toHaveLength(0);
  });

  it('flags Connection: close, and HTTP/1.0 without keep-alive', () => {
    const { p, out } = parser();
    const t =
      'HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: keep-alive\r\n\r\n' +
      'HTTP/1.1 200 OK\r\nContent-Length: 0\r\nconnection: Close\r\n\r\n';
    p.execute(Buffer.from(t), 0, t.length);
    expect(out.map((r) => r.close)).toEqual([false, true]);

    const old = parser();
    const o =
      'HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\nHTTP/1.0 200 OK\r\nContent-Length: 0\r\nConnection: keep-alive\r\n\r\n';
    old.p.execute(Buffer.from(o), 0, o.length);
    expect(old.out.map((r) => r.close)).toEqual([true, false]);
    expect(old.p.minorVersion).toBe(0);
  });

  it('stops after halt() so a closing connection ignores what follows', () => {
    const t = 'HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n'.repeat(3);
    const out: number[] = [];
    const p: ResponseParser = new ResponseParser(
      (status) => {
        out.push(status);
        p.halt();
      },
      { headRequests: false, maxHeadBytes: 1024 },
    );
    expect(p.execute(Buffer.from(t), 0, t.length)).toBe(true);
    expect(out).toEqual([200]);
  });

  it('rejects input that is not HTTP', () => {
    for (const bad of [
      'SSH-2.0-OpenSSH_9.2\r\n\r\n',
      'HTTP/1.1 2x0 OK\r\n\r\n',
      'HTTP/1.1 200 OK\r\nContent-Length: 12a\r\n\r\n',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
    ]) {
      const { p, out } = parser();
      expect(p.execute(Buffer.from(bad), 0, bad.length)).toBe(false);
      expect(p.error).toBeTruthy();
      expect(out).toHaveLength(0);
    }
  });

  it('answers a head that repeats the last one from memory, and sees any byte that changed', () => {
    const head = (status: string, length: number, connection: string, minor = '1') =>
      `HTTP/1.${minor} ${status}\r\nServer: s\r\nContent-Length: ${length}\r\nConnection: ${connection}\r\n\r\n`;
    const body = (n: number) => 'x'.repeat(n);
    // Same-length variants of one head: each differs only in what frames it.
    const responses = [
      head('200 OK', 5, 'keep-alive') + body(5),
      head('200 OK', 5, 'keep-alive') + body(5),
      head('200 OK', 7, 'keep-alive') + body(7),
      head('404 No', 5, 'keep-alive') + body(5),
      head('200 OK', 5, 'close     ') + body(5),
      head('200 OK', 5, 'keep-alive') + body(5),
      head('200 OK', 5, 'upgrade-no', '0') + body(5),
      head('200 OK', 5, 'keep-alive') + body(5),
    ];
    const { p, out } = parser();
    // One read, then one read per response, then each split in two mid-head.
    for (const cut of [null, 'each', 'split'] as const) {
      out.length = 0;
      const bytes = Buffer.from(responses.join(''));
      const ends = responses.map((_, i) => responses.slice(0, i + 1).join('').length);
      const cuts =
        cut === null
          ? []
          : cut === 'each'
            ? ends.slice(0, -1)
            : ends.flatMap((e, i) => [e - responses[i]!.length + 20, e]).slice(0, -1);
      expect(feed(p, bytes, cuts)).toBe(true);
      expect(out.map((r) => [r.status, r.body, r.total, r.close])).toEqual(
        responses.map((r, i) => [i === 3 ? 404 : 200, i === 2 ? 7 : 5, r.length, i === 4 || i === 6]),
      );
    }
  });

  it('reads the Server header when asked even from a head it remembers', () => {
    const text = 'HTTP/1.1 200 OK\r\nServer: first\r\nContent-Length: 0\r\n\r\n';
    const { p, out } = parser();
    expect(p.execute(Buffer.from(text), 0, text.length)).toBe(true);
    expect(p.server).toBeNull();
    p.captureServer = true;
    expect(p.execute(Buffer.from(text), 0, text.length)).toBe(true);
    expect(p.server).toBe('first');
    expect(out).toHaveLength(2);
  });
});
