import { describe, expect, it } from 'vitest';
import {
  http1Request,
  http2Request,
  INLINE_BODY_BYTES,
  notSentWarnings,
} from '../../electron/engine/native/request-bytes.ts';

const URL = 'http://127.0.0.1:8080/p?q=1';
const h = (name: string, value: string) => ({ name, value });
const text = (bytes: Buffer) => bytes.toString('latin1');

describe('the request builder (pre-flight and both engines send its bytes)', () => {
  it("-H 'Content-Length: 100' on a GET: left out, no body, no length", () => {
    const r = http1Request({ url: URL, method: 'GET', headers: [h('Content-Length', '100')] }, null, {
      keepAlive: true,
      appVersion: '1',
    });
    expect(text(r.bytes)).toBe(
      'GET /p?q=1 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nUser-Agent: Trebuchet/1\r\nAccept: */*\r\n\r\n',
    );
    expect(r.notSent.map((n) => n.header)).toEqual(['Content-Length: 100']);
    expect(r.notSent[0]!.why).toMatch(/frames the body/);
  });

  it("-m POST --body hello -H 'Transfer-Encoding: chunked': one framing, Content-Length", () => {
    const r = http1Request(
      { url: URL, method: 'POST', headers: [h('Transfer-Encoding', 'chunked'), h('X-A', '1')] },
      Buffer.from('hello'),
      { keepAlive: false, appVersion: '1' },
    );
    expect(text(r.bytes)).toBe(
      'POST /p?q=1 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nUser-Agent: Trebuchet/1\r\nAccept: */*\r\nX-A: 1\r\n' +
        'Connection: close\r\nContent-Length: 5\r\n\r\nhello',
    );
    expect(r.body).toBeNull();
    expect(r.length).toBe(r.bytes.length);
    expect(r.notSent.map((n) => n.header)).toEqual(['Transfer-Encoding: chunked']);
  });

  it('a body above the inline size is shared, not copied behind the head', () => {
    const body = new Uint8Array(new SharedArrayBuffer(INLINE_BODY_BYTES + 1));
    const r = http1Request({ url: URL, method: 'PUT', headers: [] }, body, {
      keepAlive: true,
      appVersion: '1',
    });
    expect(r.body).toBe(body);
    expect(text(r.bytes)).toMatch(/Content-Length: 65537\r\n\r\n$/);
    expect(r.length).toBe(r.bytes.length + body.byteLength);
    expect(r.bodyBytes).toBe(body.byteLength);
  });

  it('--http2 drops connection-specific headers (RFC 9113 section 8.2.2), keeps TE: trailers and every repeat', () => {
    const r = http2Request(
      {
        url: 'https://example.test/x',
        method: 'POST',
        headers: [
          h('Connection', 'x'),
          h('Keep-Alive', '5'),
          h('Upgrade', 'h2c'),
          h('Transfer-Encoding', 'chunked'),
          h('Proxy-Connection', 'keep-alive'),
          h('TE', 'gzip'),
          h('te', 'trailers'),
          h('Host', 'other.test'),
          h('Content-Length', '9'),
          h('Cookie', 'a=1'),
          h('Cookie', 'b=2'),
        ],
      },
      Buffer.from('hi'),
      '1',
    );
    expect(r.fields).toEqual([
      [':method', 'POST'],
      [':path', '/x'],
      [':scheme', 'https'],
      [':authority', 'other.test'],
      ['user-agent', 'Trebuchet/1'],
      ['accept', '*/*'],
      ['te', 'trailers'],
      ['cookie', 'a=1'],
      ['cookie', 'b=2'],
      ['content-length', '2'],
    ]);
    expect(r.notSent.map((n) => n.header)).toEqual([
      'Connection: x',
      'Keep-Alive: 5',
      'Upgrade: h2c',
      'Transfer-Encoding: chunked',
      'Proxy-Connection: keep-alive',
      'TE: gzip',
      'Content-Length: 9',
    ]);
  });

  it('says in the result which headers were left out', () => {
    const { notSent } = http2Request({ url: URL, method: 'GET', headers: [h('Connection', 'x')] }, null, '1');
    expect(notSentWarnings(notSent)).toEqual([
      {
        code: 'other',
        message:
          'Headers left out of every request (the pre-flight\'s and the load\'s): "Connection: x" (HTTP/2 forbids connection-specific headers, RFC 9113 section 8.2.2).',
      },
    ]);
    expect(notSentWarnings([])).toEqual([]);
  });
});
