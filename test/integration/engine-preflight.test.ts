import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scenarioSchema, type ScenarioInput } from '../../shared/scenario.ts';
import { preflight } from '../../electron/engine/preflight.ts';
import { buildRunSpec } from '../../electron/engine/spec.ts';
import { makeTestCerts, type TestCerts } from '../helpers/certs.ts';
import { oneTarget } from '../helpers/engine.ts';
import { handlers, startHttpServer } from '../helpers/servers.ts';

async function check(input: ScenarioInput) {
  const built = await buildRunSpec(scenarioSchema.parse(input), 0, { runId: 'p', appVersion: '0' });
  if (!built.ok) throw new Error(built.result.error?.message);
  return preflight(built.spec, new AbortController().signal);
}

async function h2Server(opts: { tls?: { key: string; cert: string } }) {
  const onStream = (stream: http2.ServerHttp2Stream) => {
    stream.respond({ ':status': 200, server: 'h2-test', 'content-length': 7 });
    stream.end('h2 body');
  };
  const server = opts.tls
    ? http2.createSecureServer({ key: opts.tls.key, cert: opts.tls.cert, allowHTTP1: false })
    : http2.createServer();
  server.on('stream', onStream);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe('pre-flight facts', () => {
  let certs: TestCerts;
  beforeAll(() => {
    certs = makeTestCerts();
  });
  afterAll(() => certs.remove());
  const trustCa = () => ({ verify: true, caFile: certs.ca.certFile, servername: null });

  it('learns the server software, document length and HTTP version over HTTP/1.1', async () => {
    const s = await startHttpServer(handlers.ok('twelve bytes', { server: 'test-server/1.0' }));
    try {
      const out = await check(oneTarget(`${s.url}page?q=1`));
      expect(out).toEqual({
        ok: true,
        facts: {
          tls: null,
          server: {
            software: 'test-server/1.0',
            hostname: '127.0.0.1',
            port: s.port,
            documentPath: '/page?q=1',
            documentLength: 12,
            httpVersion: '1.1',
          },
        },
      });
    } finally {
      await s.close();
    }
  });

  it('speaks HTTP/2 over TLS (ALPN h2) and in clear text (prior knowledge)', async () => {
    const secure = await h2Server({ tls: certs.valid });
    const clear = await h2Server({});
    try {
      const tls = await check(
        oneTarget(`https://127.0.0.1:${secure.port}/`, { options: { protocol: 'h2', tls: trustCa() } }),
      );
      expect(tls.ok).toBe(true);
      if (tls.ok) {
        expect(tls.facts.server).toMatchObject({ software: 'h2-test', documentLength: 7, httpVersion: '2' });
        expect(tls.facts.tls).toMatchObject({ alpn: 'h2', verified: true });
      }
      const h2c = await check(oneTarget(`http://127.0.0.1:${clear.port}/`, { options: { protocol: 'h2' } }));
      expect(h2c.ok && h2c.facts.server.httpVersion).toBe('2');
    } finally {
      await secure.close();
      await clear.close();
    }
  });

  it('an HTTPS server without HTTP/2 fails an h2 scenario with a protocol error', async () => {
    const s = await startHttpServer(handlers.ok(), { tls: certs.valid });
    try {
      const out = await check(oneTarget(s.url, { options: { protocol: 'h2', tls: trustCa() } }));
      expect(out.ok).toBe(false);
      if (!out.ok) {
        expect(out.error.kind).toBe('protocol');
        expect(out.error.message).toMatch(/did not agree to HTTP\/2/);
      }
    } finally {
      await s.close();
    }
  });
});
