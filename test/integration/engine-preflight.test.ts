import { beforeAll, describe, expect, it } from 'vitest';
import { scenarioSchema, type ScenarioInput } from '../../shared/model/scenario.ts';
import { preflight } from '../../electron/engine/preflight/preflight.ts';
import { buildRunSpec } from '../../electron/engine/spec.ts';
import { makeTestCerts, type TestCerts } from '../helpers/certs.ts';
import { endAfterAll, endAfterEach } from '../helpers/cleanup.ts';
import { DEFAULTS } from '../../shared/model/defaults.ts';
import { autocannonTarget, oneTarget, runTarget } from '../helpers/engine.ts';
import { runNative, startH2Server } from '../helpers/native.ts';
import { handlers, startHttpServer } from '../helpers/servers.ts';

async function check(input: ScenarioInput) {
  const built = await buildRunSpec(scenarioSchema.parse(input), 0, { runId: 'p', appVersion: '0' });
  if (!built.ok) throw new Error(built.result.error?.message);
  return preflight(built.spec, new AbortController().signal);
}

const track = endAfterEach();

describe('pre-flight facts', () => {
  const keep = endAfterAll();
  let certs: TestCerts;
  beforeAll(() => {
    certs = keep(makeTestCerts());
  });
  const trustCa = () => ({ verify: true, caFile: certs.ca.certFile, servername: null });

  it('learns the server software, document length and HTTP version over HTTP/1.1', async () => {
    const s = track(await startHttpServer(handlers.ok('twelve bytes', { server: 'test-server/1.0' })));
    const out = await check(oneTarget(`${s.url}page?q=1`));
    // Timed from the request's write to its answer (the open model's warm pool is sized from it).
    const roundTripMs = out.ok ? out.facts.roundTripMs : null;
    expect(roundTripMs).toBeGreaterThan(0);
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
        roundTripMs,
      },
    });
  });

  it('speaks HTTP/2 over TLS (ALPN h2) and in clear text (prior knowledge)', async () => {
    const secure = track(await startH2Server({ tls: certs.valid, body: 'h2 body', server: 'h2-test' }));
    const clear = track(await startH2Server({ body: 'h2 body', server: 'h2-test' }));
    const tls = await check(oneTarget(secure.url, { options: { protocol: 'h2', tls: trustCa() } }));
    expect(tls.ok).toBe(true);
    if (tls.ok) {
      expect(tls.facts.server).toMatchObject({ software: 'h2-test', documentLength: 7, httpVersion: '2' });
      expect(tls.facts.tls).toMatchObject({ alpn: 'h2', verified: true });
    }
    const h2c = await check(oneTarget(clear.url, { options: { protocol: 'h2' } }));
    expect(h2c.ok && h2c.facts.server.httpVersion).toBe('2');
  });

  it('an HTTPS server without HTTP/2 fails an h2 scenario with a protocol error', async () => {
    const s = track(await startHttpServer(handlers.ok(), { tls: certs.valid }));
    const out = await check(oneTarget(s.url, { options: { protocol: 'h2', tls: trustCa() } }));
    expect(out.ok).toBe(false);
    if (!out.ok) {
      expect(out.error.kind).toBe('protocol');
      expect(out.error.message).toMatch(/did not agree to HTTP\/2/);
    }
  });
});

describe('one response-header limit for the pre-flight and the engines', () => {
  const requests = {
    model: 'closed' as const,
    connections: 2,
    limit: { kind: 'requests' as const, count: 20 },
  };

  it('a server sending 20 KB of headers passes the pre-flight and runs on both engines', async () => {
    const s = track(await startHttpServer(handlers.ok('ok', { 'x-big': 'b'.repeat(20_000) })));
    expect((await check(oneTarget(s.url))).ok).toBe(true);
    for (const engine of ['native', 'autocannon'] as const) {
      const { result } = await runTarget(oneTarget(s.url, { load: requests, options: { engine } }));
      expect(result.status, engine).toBe('completed');
      expect(result.requests, engine).toMatchObject({ total: 20, ok: 20, errors: 0 });
    }
  });

  it('headers above the limit fail the pre-flight naming it, as the engine would fail each response', async () => {
    const limit = DEFAULTS.maxResponseHeaderBytes;
    expect(limit).toBe(1024 * 1024);
    const s = track(await startHttpServer(handlers.ok('ok', { 'x-big': 'b'.repeat(limit + 1000) })));
    const out = await check(oneTarget(s.url));
    expect(out.ok).toBe(false);
    if (!out.ok) {
      expect(out.error).toEqual({
        kind: 'protocol',
        message: `request to ${s.url} failed: response head larger than 1048576 bytes`,
      });
    }
    const { result } = await runTarget(autocannonTarget(s.url, { load: requests }));
    expect(result.status).toBe('failed');
    expect(result.error?.message).toMatch(/response head larger than 1048576 bytes/);
    // Without the pre-flight, the native engine fails every response on the same limit.
    const { recorder } = await runNative({ targets: [{ url: s.url }], load: requests });
    expect(recorder.totals.errorSet.get('protocol')).toEqual({
      count: 20,
      message: 'response head larger than 1048576 bytes',
    });
  });
});
