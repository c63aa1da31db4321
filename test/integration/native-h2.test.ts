import http2 from 'node:http2';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestCerts, type TestCerts } from '../helpers/certs.ts';
import { runNative, startH2Server } from '../helpers/native.ts';
import { startNginx } from '../helpers/nginx.ts';
import { handlers, startHttpServer, startRawServer } from '../helpers/servers.ts';
import { endAfterEach } from '../helpers/cleanup.ts';
import { DOCROOT_FILES } from '../helpers/server-process.ts';
import { startH2o } from '../helpers/web-servers.ts';

const track = endAfterEach();

/** An h2c server running onStream for every stream. */
async function h2c(
  onStream: (stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders) => void,
): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http2.createServer();
  server.on('stream', (stream, headers) => {
    stream.on('error', () => undefined);
    onStream(stream, headers);
  });
  const open = new Set<http2.ServerHttp2Session>();
  server.on('session', (session) => {
    open.add(session);
    session.on('close', () => open.delete(session));
    session.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const session of open) session.destroy();
      }),
  };
}

let certs: TestCerts;
beforeAll(() => {
  certs = makeTestCerts();
});
afterAll(() => certs.remove());

const h2Closed = (connections: number, streams: number, count: number) => ({
  load: {
    model: 'closed' as const,
    connections,
    pipelining: streams,
    limit: { kind: 'requests' as const, count },
  },
  options: { protocol: 'h2' as const, tls: { caFile: 'ca' } },
});

describe('native load generator, HTTP/2', () => {
  it('runs h2c (prior knowledge) with connections x concurrent streams', async () => {
    const server = track(await startH2Server());
    const { recorder, outcome } = await runNative({
      targets: [{ url: server.url }],
      ...h2Closed(2, 10, 500),
    });
    expect(recorder.totals.total).toBe(500);
    expect(recorder.totals.ok).toBe(500);
    expect(recorder.totals.inBody).toBe(500 * 'hello h2'.length);
    expect(server.answered).toBe(500);
    expect(server.sessions).toBe(2);
    expect(outcome.httpVersion).toBe('2');
    expect(outcome.tls).toBeNull();
    expect(recorder.totals.serverSoftware).toBe('node-h2-test');
  });

  it('without keep-alive opens one HTTP/2 connection per request', async () => {
    const server = track(await startH2Server());
    const { recorder } = await runNative({
      targets: [{ url: server.url }],
      load: { model: 'closed', connections: 2, limit: { kind: 'requests', count: 40 } },
      options: { protocol: 'h2', keepAlive: false },
    });
    expect(recorder.totals.ok).toBe(40);
    expect(server.sessions).toBe(40);
    expect(server.answered).toBe(40);
  });

  it('negotiates h2 over TLS by ALPN and reports protocol, TLS version and cipher', async () => {
    const server = track(await startH2Server({ tls: certs.valid }));
    const { recorder, outcome } = await runNative(
      { targets: [{ url: server.url }], ...h2Closed(2, 5, 200) },
      { ca: certs.ca.cert },
    );
    expect(recorder.totals.ok).toBe(200);
    expect(outcome.httpVersion).toBe('2');
    expect(outcome.tls).toMatchObject({ alpn: 'h2', verified: true });
    expect(outcome.tls?.protocol).toMatch(/^TLSv1\.[23]$/);
    expect(outcome.tls?.cipher).toBeTruthy();
    expect(outcome.phases?.tls?.max).toBeGreaterThan(0);
  });

  it('reconnects on GOAWAY without losing a count (closed and open model)', async () => {
    const server = track(await startH2Server({ goawayAfter: 50 }));
    const { recorder } = await runNative({ targets: [{ url: server.url }], ...h2Closed(2, 10, 600) });
    expect(recorder.totals.total).toBe(600);
    expect(recorder.totals.errors).toBe(0);
    expect(recorder.totals.responses).toBe(server.answered);
    expect(server.goaways).toBeGreaterThanOrEqual(10);

    const before = server.answered;
    const open = await runNative({
      targets: [{ url: server.url }],
      load: { model: 'open', rate: 300, durationSeconds: 1, maxInFlight: 50 },
      options: { protocol: 'h2' },
    });
    expect(open.recorder.totals.total).toBe(300);
    expect(open.recorder.totals.errors).toBe(0);
    expect(open.recorder.totals.responses).toBe(server.answered - before);
  });

  it('counts streams reset by the server apart from HTTP errors', async () => {
    let n = 0;
    const { url } = track(
      await h2c((stream) => {
        n++;
        if (n % 5 === 0) {
          stream.close(http2.constants.NGHTTP2_INTERNAL_ERROR);
          return;
        }
        stream.respond({ ':status': n % 5 === 1 ? 503 : 200 });
        stream.end('x');
      }),
    );
    const { recorder } = await runNative({ targets: [{ url }], ...h2Closed(1, 1, 100) });
    expect(recorder.totals.total).toBe(100);
    expect(recorder.totals.errors).toBe(20);
    const reset = recorder.totals.errorSet.get('reset');
    expect(reset?.count).toBe(20);
    expect(reset?.message).toMatch(/RST_STREAM INTERNAL_ERROR/);
    expect(recorder.statusCodes()).toEqual({ 200: 60, 503: 20 });
  });

  it('sends request bodies under flow control and counts large responses byte for byte', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024, 0x61);
    const received: number[] = [];
    // A Server value nghttp2 Huffman-codes: the client's decoder must read it back exactly.
    const software = 'Test-Server/9.8.7 (Debian; x86_64) ~!@#$%^&*()_+{}|:"<>?';
    const { url } = track(
      await h2c((stream, headers) => {
        let n = 0;
        stream.on('data', (d: Buffer) => (n += d.length));
        stream.on('end', () => {
          received.push(n);
          stream.respond({ ':status': 200, server: software });
          stream.end(headers[':path'] === '/big' ? big : 'ok');
        });
      }),
    );
    const upload = await runNative({
      targets: [{ url, method: 'POST', body: { kind: 'text', text: 'b'.repeat(200_000) } }],
      ...h2Closed(1, 2, 6),
    });
    expect(upload.recorder.totals.ok).toBe(6);
    expect(upload.recorder.totals.outBody).toBe(6 * 200_000);
    expect(received).toEqual(Array(6).fill(200_000));
    expect(upload.recorder.totals.serverSoftware).toBe(software);

    const download = await runNative({ targets: [{ url: `${url}big` }], ...h2Closed(1, 2, 4) });
    expect(download.recorder.totals.ok).toBe(4);
    expect(download.recorder.totals.inBody).toBe(4 * big.length);
  });

  it("decodes responses that refer to the server's HPACK dynamic table", async () => {
    // nghttp2 (node:http2) indexes repeated fields: after each connection's first response,
    // x-custom, server and date are one-byte references to its dynamic table.
    const custom = 'c'.repeat(300);
    let answered = 0;
    const { url } = track(
      await h2c((stream) => {
        answered++;
        stream.respond({ ':status': 200, 'x-custom': custom, server: 'node-hpack-test' });
        stream.end('x');
      }),
    );
    const { recorder, outcome } = await runNative({ targets: [{ url }], ...h2Closed(2, 5, 300) });
    expect(recorder.totals.total).toBe(300);
    expect(recorder.totals.ok).toBe(300);
    expect(recorder.totals.errors).toBe(0);
    expect(recorder.statusCodes()).toEqual({ 200: 300 });
    expect(answered).toBe(300);
    expect(outcome.httpVersion).toBe('2');
    expect(recorder.totals.serverSoftware).toBe('node-hpack-test');
    // The table was in use: about 25 bytes of frames a response; spelling x-custom out each time
    // (Huffman-coded) takes over 250.
    expect(recorder.totals.inTotal).toBeLessThan(300 * 100);
  });

  it('splits a header block larger than a frame into HEADERS and CONTINUATION', async () => {
    const seen: string[] = [];
    const { url } = track(
      await h2c((stream, headers) => {
        seen.push(headers['x-large'] as string);
        stream.respond({ ':status': 204 });
        stream.end();
      }),
    );
    const large = 'L'.repeat(40_000);
    const { recorder } = await runNative({
      targets: [{ url, headers: [{ name: 'X-Large', value: large }] }],
      ...h2Closed(1, 1, 3),
    });
    expect(recorder.totals.ok).toBe(3);
    expect(recorder.statusCodes()).toEqual({ 204: 3 });
    expect(seen).toEqual([large, large, large]);
  });

  it('times out streams the server never answers', async () => {
    const { url } = track(await h2c(() => undefined));
    const { recorder } = await runNative({
      targets: [{ url }],
      ...h2Closed(1, 3, 3),
      options: { protocol: 'h2', timeoutMs: 200 },
    });
    expect(recorder.totals.errors).toBe(3);
    expect(recorder.totals.errorSet.get('timeout')?.count).toBe(3);
  });

  it('dials again after a TLS handshake that never finishes', async () => {
    const server = track(await startH2Server({ tls: certs.valid }));
    const serverPort = Number(new URL(server.url).port);
    let accepted = 0;
    const front = track(
      await startRawServer((socket) => {
        // The first connection is accepted and never answered; later ones reach the server.
        if (accepted++ === 0) return;
        const upstream = net.connect(serverPort, '127.0.0.1');
        upstream.on('error', () => socket.destroy());
        socket.on('error', () => upstream.destroy());
        socket.pipe(upstream).pipe(socket);
      }),
    );
    const { recorder } = await runNative(
      {
        targets: [{ url: `https://127.0.0.1:${front.port}/` }],
        ...h2Closed(1, 1, 20),
        options: { protocol: 'h2', timeoutMs: 300, tls: { caFile: 'ca' } },
      },
      { ca: certs.ca.cert },
    );
    // The request that waited on the stuck handshake times out; a new dial carries the rest.
    expect(recorder.totals.errorSet.get('timeout')?.count).toBe(1);
    expect(recorder.totals.ok).toBe(19);
    expect(server.sessions).toBe(1);
  });

  it('fails with a protocol error when the server does not offer h2 by ALPN', async () => {
    const server = track(await startHttpServer(handlers.ok(), { tls: certs.valid }));
    const { recorder } = await runNative(
      { targets: [{ url: server.url }], ...h2Closed(1, 1, 3) },
      { ca: certs.ca.cert },
    );
    expect(recorder.totals.errors).toBe(3);
    expect(recorder.totals.errorSet.get('protocol')?.message).toMatch(/ALPN/);
  });

  it("runs against nginx's HTTP/2 and loses no count over its keepalive_requests GOAWAYs", async () => {
    const nginx = track(await startNginx({ https: true, keepaliveRequests: 50 }));
    const { recorder, outcome } = await runNative({
      targets: [{ url: `${nginx.httpsUrl!}test.html` }],
      load: { model: 'closed', connections: 4, pipelining: 10, limit: { kind: 'requests', count: 1000 } },
      options: { protocol: 'h2', tls: { verify: false } },
    });
    expect(recorder.totals.total).toBe(1000);
    expect(recorder.totals.ok).toBe(1000);
    expect(recorder.totals.errors).toBe(0);
    expect(recorder.totals.inBody).toBe(1000 * 5);
    expect(outcome.tls?.alpn).toBe('h2');
    expect(outcome.httpVersion).toBe('2');
    expect(recorder.totals.serverSoftware).toMatch(/^nginx/);
    // nginx ended each connection after 50 requests: about 20 of the 1000 requests opened
    // one (2%, so the 99th percentile of setup is a handshake); 4 connections alone would be 0.4%.
    expect(outcome.phases?.setup?.percentiles['99']).toBeGreaterThan(0);
  });

  it("runs against Debian's H2O 2.2, which indexes its dynamic table whatever the client announces", async () => {
    const h2o = track(await startH2o({ certs }));
    const { recorder, outcome } = await runNative(
      {
        targets: [{ url: `${h2o.httpsUrl}test.html` }],
        load: { model: 'closed', connections: 4, pipelining: 10, limit: { kind: 'requests', count: 1000 } },
        options: { protocol: 'h2', tls: { caFile: 'ca' } },
      },
      { ca: certs.ca.cert },
    );
    expect(recorder.totals.total).toBe(1000);
    expect(recorder.totals.ok).toBe(1000);
    expect(recorder.totals.errors).toBe(0);
    expect(recorder.statusCodes()).toEqual({ 200: 1000 });
    expect(recorder.totals.inBody).toBe(1000 * DOCROOT_FILES['test.html'].length);
    expect(outcome.tls).toMatchObject({ alpn: 'h2', verified: true });
    expect(outcome.httpVersion).toBe('2');
    expect(recorder.totals.serverSoftware).toMatch(/^h2o\/2\.2\.\d+$/);
  });
});
