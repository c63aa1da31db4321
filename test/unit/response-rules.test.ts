import { describe, expect, it } from 'vitest';
import { ResponseParser } from '../../electron/engine/native/http1/response-parser.ts';

/*
 * The rules every response is judged by (native/http1/response-head.ts), in the native engine, the
 * autocannon engine and the pre-flight alike: one row per case, with what it now does.
 */

function parse(text: string): { out: [number, number][]; error: string | null; server: string | null } {
  const out: [number, number][] = [];
  const p = new ResponseParser((status, body) => out.push([status, body]), {
    headRequests: false,
    maxHeadBytes: 1024 * 1024,
  });
  p.captureServer = true;
  const ok = p.execute(Buffer.from(text, 'latin1'), 0, text.length);
  if (ok) p.finish();
  return { out, error: ok ? null : p.error, server: p.server };
}

const head = (lines: string, body = 'hello'): string => `HTTP/1.1 200 OK\r\n${lines}\r\n${body}`;

describe('response rules (RFC 9110, 9112)', () => {
  it.each([
    // [case, response, status and body length read]
    [
      'status 999 (undefined codes 600-999 count as 5xx)',
      'HTTP/1.1 999 Odd\r\nContent-Length: 5\r\n\r\nhello',
      999,
      5,
    ],
    ['status 600', 'HTTP/1.1 600 X\r\nContent-Length: 5\r\n\r\nhello', 600, 5],
    ['a status line without a reason phrase', 'HTTP/1.1 204\r\n\r\n', 204, 0],
    [
      'header folding (obs-fold read as a space)',
      head('X-Folded: a\r\n b\r\n\tc\r\nContent-Length: 5\r\n'),
      200,
      5,
    ],
    ['a folded Content-Length value', head('Content-Length:\r\n 5\r\n'), 200, 5],
    [
      'a whitespace-led line right after the status line (ignored)',
      head(' junk\r\nContent-Length: 5\r\n'),
      200,
      5,
    ],
    ['two equal Content-Lengths', head('Content-Length: 5\r\nContent-Length: 5\r\n'), 200, 5],
    ['a Content-Length list of one value', head('Content-Length: 5, 5\r\n'), 200, 5],
    [
      'Content-Length and Transfer-Encoding: chunked (the coding wins)',
      head('Content-Length: 3\r\nTransfer-Encoding: chunked\r\n', '5\r\nhello\r\n0\r\n\r\n'),
      200,
      5,
    ],
    [
      'Transfer-Encoding gzip and a Content-Length: read to the close',
      head('Transfer-Encoding: gzip\r\nContent-Length: 2\r\n', 'hello'),
      200,
      5,
    ],
    ['a control character other than NUL in a value', head('X-Odd: a\x01b\r\nContent-Length: 5\r\n'), 200, 5],
  ])('accepts %s', (_case, text, status, body) => {
    const r = parse(text);
    expect(r.error).toBeNull();
    expect(r.out).toEqual([[status, body]]);
  });

  it.each([
    ['status 1000', 'HTTP/1.1 1000 X\r\nContent-Length: 5\r\n\r\nhello', /malformed status code "1000"/],
    ['status 099', 'HTTP/1.1 099 X\r\n\r\n', /malformed status code "099"/],
    [
      '"HTTP/2.0 200" on an HTTP/1.1 connection',
      'HTTP/2.0 200 OK\r\nContent-Length: 0\r\n\r\n',
      /says HTTP\/2\.0/,
    ],
    [
      'NUL in a header value',
      head('X-Bad: a\0b\r\nContent-Length: 5\r\n'),
      /NUL \(0x00\) in header line "X-Bad: a"/,
    ],
    ['NUL in the reason phrase', 'HTTP/1.1 200 O\0K\r\nContent-Length: 0\r\n\r\n', /0x00 in the status line/],
    ['a bare CR in a value', head('X-Bad: a\rb\r\nContent-Length: 5\r\n'), /bare CR/],
    [
      'whitespace between a name and its colon',
      head('Content-Length : 5\r\n'),
      /whitespace between header name/,
    ],
    ['a header line without a colon', head('NoColon\r\nContent-Length: 5\r\n'), /has no colon/],
    ['a name that is not a token', head('X(y): 1\r\nContent-Length: 5\r\n'), /0x28 in header name/],
    ['a negative Content-Length', head('Content-Length: -5\r\n'), /malformed Content-Length "-5"/],
    ['a non-numeric Content-Length', head('Content-Length: 5x\r\n'), /malformed Content-Length "5x"/],
    ['an empty Content-Length', head('Content-Length: \r\n'), /empty Content-Length/],
    ['two different Content-Lengths', head('Content-Length: 5\r\nContent-Length: 6\r\n'), /conflicting/],
    ['a Content-Length list of two values', head('Content-Length: 5, 6\r\n'), /conflicting/],
  ])('rejects %s as a protocol error', (_case, text, message) => {
    const r = parse(text);
    expect(r.error).toMatch(message);
    expect(r.out).toEqual([]);
  });

  it('reads a folded Server value as one line', () => {
    expect(parse(head('Server: a\r\n  b\r\nContent-Length: 5\r\n')).server).toBe('a b');
  });
});
