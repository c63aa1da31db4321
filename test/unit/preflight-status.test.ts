import { describe, expect, it } from 'vitest';
import {
  ConnectionPrefix,
  firstLineOf,
  http1Body,
  http2Body,
  LINE_CHARS,
  PREVIEW_BYTES,
} from '../../electron/engine/native/http1/body-line.ts';
import { statusFailure } from '../../electron/engine/preflight/preflight.ts';
import { buildRunSpec } from '../../electron/engine/spec.ts';
import { formatPreflightFailures } from '../../shared/format/comparison-text.ts';
import { PREFLIGHT_FIX_FLAGS } from '../../shared/model/preflight.ts';
import { fixesFor } from '../../shared/model/preflight.ts';
import { scenarioSchema } from '../../shared/model/scenario.ts';

const NGINX_404 =
  'HTTP/1.1 404 Not Found\r\nServer: nginx\r\nContent-Type: text/html\r\nContent-Length: 153\r\n\r\n' +
  '<html>\r\n<head><title>404 Not Found</title></head>\r\n<body>\r\n<center><h1>404 Not Found</h1></center>\r\n' +
  '<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

describe("the pre-flight's body line", () => {
  it("skips nginx's bare <html> line and shows the page's first words", () => {
    expect(firstLineOf(http1Body(Buffer.from(NGINX_404)))).toBe('404 Not Found');
  });

  it('reads a chunked body across its chunks', () => {
    const raw =
      'HTTP/1.1 401 Unauthorized\r\nTransfer-Encoding: chunked\r\n\r\n' +
      '6\r\n\n  log\r\n9\r\nin needed\r\n0\r\n\r\n';
    expect(firstLineOf(http1Body(Buffer.from(raw)))).toBe('login needed');
  });

  it('is null for an empty body or a head cut short, and at most 200 characters', () => {
    expect(
      firstLineOf(http1Body(Buffer.from('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n'))),
    ).toBeNull();
    expect(firstLineOf(http1Body(Buffer.from('HTTP/1.1 404 Not Fo')))).toBeNull();
    const long = firstLineOf(Buffer.from('x'.repeat(5000)));
    expect(long).toHaveLength(LINE_CHARS);
    expect(long!.endsWith('…')).toBe(true);
  });

  it("takes an HTTP/2 stream's DATA frames, padding removed, and leaves other streams' out", () => {
    const frame = (type: number, flags: number, stream: number, payload: Buffer) => {
      const head = Buffer.alloc(9);
      head.writeUIntBE(payload.length, 0, 3);
      head[3] = type;
      head[4] = flags;
      head.writeUInt32BE(stream, 5);
      return Buffer.concat([head, payload]);
    };
    const raw = Buffer.concat([
      frame(0x4, 0, 0, Buffer.alloc(6)), // SETTINGS
      frame(0x1, 0x4, 1, Buffer.from([0x8d])), // HEADERS (:status 404, HPACK)
      frame(0x0, 0, 3, Buffer.from('other stream\n')),
      frame(
        0x0,
        0x8,
        1,
        Buffer.concat([Buffer.from([3]), Buffer.from('No such page\nmore'), Buffer.alloc(3)]),
      ),
    ]);
    expect(firstLineOf(http2Body(raw, 1))).toBe('No such page');
  });

  it(`keeps at most ${PREVIEW_BYTES} bytes of a connection`, () => {
    const p = new ConnectionPrefix();
    p.add(Buffer.alloc(10_000, 0x61));
    p.add(Buffer.alloc(10_000, 0x62));
    p.add(Buffer.alloc(10, 0x63));
    const bytes = p.bytes();
    expect(bytes.length).toBe(PREVIEW_BYTES);
    expect(bytes[PREVIEW_BYTES - 1]).toBe(0x62);
  });
});

describe('an error status before the load', () => {
  it('names the method, the URL, the status and the body line', async () => {
    const scenario = scenarioSchema.parse({ targets: [{ url: 'http://127.0.0.1:8080/1kb.html' }] });
    const built = await buildRunSpec(scenario, 0, { runId: 'r', appVersion: '0.0.0' });
    if (!built.ok) throw new Error('spec');
    expect(statusFailure(built.spec, { status: 404, bodyLine: '404 Not Found' })).toBe(
      'GET http://127.0.0.1:8080/1kb.html answered 404 Not Found: “404 Not Found” — check the URL, or run anyway to measure this answer on purpose',
    );
    expect(statusFailure(built.spec, { status: 599, bodyLine: null })).toContain('answered 599 —');
    const long = scenarioSchema.parse({
      targets: [{ url: `http://127.0.0.1:8080/1kb.html?data=${'x'.repeat(1024)}` }],
    });
    const longSpec = await buildRunSpec(long, 0, { runId: 'r', appVersion: '0.0.0' });
    if (!longSpec.ok) throw new Error('spec');
    // Seed 003's 1 KB query string is cut, so the status is not lost after it.
    expect(statusFailure(longSpec.spec, { status: 404, bodyLine: null })).toBe(
      `GET http://127.0.0.1:8080/1kb.html?data=${'x'.repeat(63)}… answered 404 Not Found — check the URL, or run anyway to measure this answer on purpose`,
    );
  });

  it('offers "run anyway", on the command line as --allow-error-status', () => {
    expect(fixesFor({ kind: 'status', certificateRejected: false, h2Refused: false })).toEqual([
      'run-anyway',
    ]);
    expect(fixesFor({ kind: 'refused', certificateRejected: false, h2Refused: false })).toEqual([]);
    const text = formatPreflightFailures(
      [
        {
          url: 'http://127.0.0.1:8080/1kb.html',
          protocol: 'http1.1',
          targets: ['nginx'],
          kind: 'status',
          message: 'GET http://127.0.0.1:8080/1kb.html answered 404 Not Found',
          fixes: ['run-anyway'],
        },
      ],
      (f) => PREFLIGHT_FIX_FLAGS[f],
    );
    expect(text).toContain('fix: --allow-error-status');
  });

  it('checks by default, in a preset saved before the option existed too', () => {
    const old = scenarioSchema.parse({
      targets: [{ url: 'http://127.0.0.1:8080/' }],
      options: { keepAlive: true },
    });
    expect(old.options.checkStatus).toBe(true);
    expect(() =>
      scenarioSchema.parse({ targets: [{ url: 'http://127.0.0.1:8080/' }], options: { checkStatus: 'no' } }),
    ).toThrow();
  });
});
