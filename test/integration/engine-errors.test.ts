import type net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeTestCerts, type TestCerts } from '../helpers/certs.ts';
import { scenarioSchema } from '../../shared/model/scenario.ts';
import { startRun } from '../../electron/engine/run.ts';
import { buildRunSpec } from '../../electron/engine/spec.ts';
import { autocannonTarget, oneTarget, runTarget } from '../helpers/engine.ts';
import {
  handlers,
  refusedPort,
  startHttpServer,
  startRawServer,
  type TestServer,
} from '../helpers/servers.ts';

const short = (seconds: number) => ({
  model: 'closed' as const,
  connections: 2,
  limit: { kind: 'duration' as const, seconds },
});

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe('pre-flight: a bad target fails fast with a named error and no load', () => {
  it('refused', async () => {
    const port = await refusedPort();
    const { result, samples } = await runTarget(
      autocannonTarget(`http://127.0.0.1:${port}/`, { load: short(5) }),
    );
    expect(result.status).toBe('failed');
    expect(result.error?.kind).toBe('refused');
    expect(result.error?.message).toContain('ECONNREFUSED');
    expect(result.error?.message).toContain(`127.0.0.1:${port}`);
    expect(result.requests.total).toBe(0);
    expect(samples).toEqual([]);
  });

  it('DNS: an .invalid host name', async () => {
    const { result } = await runTarget(
      autocannonTarget('http://trebuchet-test.invalid/', { load: short(5) }),
    );
    expect(result.status).toBe('failed');
    expect(result.error?.kind).toBe('dns');
    expect(result.error?.message).toMatch(/cannot resolve trebuchet-test\.invalid: .*(ENOTFOUND|EAI_AGAIN)/);
  });

  it('timeout: a server that never answers, with a short timeout', async () => {
    const s = (server = await startHttpServer(handlers.neverAnswer()));
    const { result } = await runTarget(
      autocannonTarget(s.url, { load: short(5), options: { timeoutMs: 300 } }),
    );
    expect(result.status).toBe('failed');
    expect(result.error?.kind).toBe('timeout');
    expect(result.error?.message).toContain('timed out after 300 ms');
    expect(s.requests).toBe(1);
  });

  it('reset in the middle of the response', async () => {
    const s = (server = await startHttpServer(handlers.resetMidResponse()));
    const { result } = await runTarget(autocannonTarget(s.url, { load: short(5) }));
    expect(result.status).toBe('failed');
    expect(result.error?.kind).toBe('reset');
    expect(s.requests).toBe(1);
  });

  it('engines that cannot run the scenario say so instead of measuring badly', async () => {
    const s = (server = await startHttpServer(handlers.ok()));
    const keepAliveOff = await runTarget(
      autocannonTarget(s.url, { load: short(1), options: { keepAlive: false, engine: 'autocannon' } }),
    );
    expect(keepAliveOff.result.status).toBe('failed');
    expect(keepAliveOff.result.error?.message).toMatch(/reconnectRate.*native/);
    const h2 = await runTarget(
      autocannonTarget(s.url, { load: short(1), options: { protocol: 'h2', engine: 'autocannon' } }),
    );
    expect(h2.result.error?.message).toMatch(/HTTP\/2/);
    expect(s.requests).toBe(0);
  });
});

describe('errors during the load are counted by kind, with a first message', () => {
  it('reset mid-response', async () => {
    const s = (server = await startHttpServer(handlers.firstOk(handlers.resetMidResponse())));
    const { result } = await runTarget(autocannonTarget(s.url, { load: short(0.8) }));
    expect(result.status).toBe('completed');
    const reset = result.errors.find((e) => e.kind === 'reset');
    expect(reset?.count).toBeGreaterThan(5);
    expect(reset?.message).toMatch(/ECONNRESET|closed/);
    expect(result.requests.responses).toBe(0);
    expect(result.requests.errors).toBe(result.requests.total);
    expect(result.successRatio).toBe(0);
  });

  it('timeout: the server stops answering after the pre-flight', async () => {
    const s = (server = await startHttpServer(handlers.firstOk(handlers.neverAnswer())));
    const { result } = await runTarget(
      autocannonTarget(s.url, { load: short(1.3), options: { timeoutMs: 250 } }),
    );
    const timeouts = result.errors.find((e) => e.kind === 'timeout');
    // Two connections, each times out every 250 ms: about 10 in 1.3 s.
    expect(timeouts?.count).toBeGreaterThanOrEqual(4);
    expect(timeouts?.count).toBeLessThanOrEqual(12);
    expect(timeouts?.message).toBe('no response within 250 ms');
    expect(result.requests.responses).toBe(0);
    expect(result.requests.inFlightAtEnd).toBeLessThanOrEqual(2);
  });

  it('protocol: a response that is not HTTP', async () => {
    let connections = 0;
    const s = (server = await startRawServer((socket: net.Socket) => {
      const first = connections++ === 0;
      socket.on('error', () => undefined);
      socket.on('data', () => {
        socket.write(first ? 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok' : 'HTPP/9 banana\r\n\r\n');
      });
    }));
    const { result } = await runTarget(autocannonTarget(s.url, { load: short(0.5) }));
    const protocol = result.errors.find((e) => e.kind === 'protocol');
    expect(protocol?.count).toBeGreaterThan(0);
    expect(protocol?.message).toMatch(/^invalid HTTP response/);
    expect(result.requests.responses).toBe(0);
  });
});

describe('TLS', () => {
  let certs: TestCerts;
  beforeAll(() => {
    certs = makeTestCerts();
  });
  afterAll(() => certs.remove());

  const tlsServer = async (pair: { key: string; cert: string }) =>
    (server = await startHttpServer(handlers.ok(), { tls: { key: pair.key, cert: pair.cert } }));

  it.each([
    ['self-signed', 'selfSigned', 'DEPTH_ZERO_SELF_SIGNED_CERT', /self-signed/],
    ['expired', 'expired', 'CERT_HAS_EXPIRED', /certificate has expired/],
    ['wrong host', 'wrongHost', 'ERR_TLS_CERT_ALTNAME_INVALID', /does not match the host name/],
  ] as const)(
    '%s certificate with verification on: failed, kind tls, no load',
    async (_, which, code, words) => {
      const s = await tlsServer(certs[which]);
      const { result } = await runTarget(
        autocannonTarget(s.url, {
          load: short(2),
          options: { tls: { verify: true, caFile: certs.ca.certFile, servername: null } },
        }),
      );
      expect(result.status).toBe('failed');
      expect(result.error?.kind).toBe('tls');
      expect(result.error?.message).toContain(code);
      expect(result.error?.message).toMatch(words);
      expect(result.error?.message).toContain(
        `for ${s.url} — turn off certificate verification to test it anyway`,
      );
      expect(result.tls?.verified).toBe(false);
      expect(s.requests).toBe(0);
    },
  );

  it('a certificate from an unknown CA fails without the CA file', async () => {
    const s = await tlsServer(certs.valid);
    const { result } = await runTarget(autocannonTarget(s.url, { load: short(2) }));
    expect(result.error?.kind).toBe('tls');
    expect(result.error?.message).toContain('UNABLE_TO_VERIFY_LEAF_SIGNATURE');
  });

  it('with the CA file the valid certificate verifies (also by SNI name)', async () => {
    const s = await tlsServer(certs.valid);
    for (const servername of [null, 'localhost']) {
      const { result } = await runTarget(
        autocannonTarget(s.url, {
          load: { model: 'closed', connections: 2, limit: { kind: 'requests', count: 100 } },
          options: { tls: { verify: true, caFile: certs.ca.certFile, servername } },
        }),
      );
      expect(result.status).toBe('completed');
      expect(result.requests.responses).toBe(100);
      expect(result.tls).toMatchObject({ verified: true, authorizationError: null, alpn: 'http/1.1' });
      expect(result.tls?.protocol).toMatch(/^TLSv1\.[23]$/);
      expect(result.tls?.cipher).toBeTruthy();
      expect(result.warnings.map((w) => w.code)).not.toContain('tls-not-verified');
    }
  });

  it('with verification off a self-signed server is measured, with a tls-not-verified warning', async () => {
    const s = await tlsServer(certs.selfSigned);
    const { result } = await runTarget(
      autocannonTarget(s.url, {
        load: { model: 'closed', connections: 2, limit: { kind: 'requests', count: 100 } },
        options: { tls: { verify: false, caFile: null, servername: null } },
      }),
    );
    expect(result.status).toBe('completed');
    expect(result.requests.responses).toBe(100);
    expect(result.tls?.verified).toBe(false);
    expect(result.tls?.authorizationError).toContain('DEPTH_ZERO_SELF_SIGNED_CERT');
    const warning = result.warnings.find((w) => w.code === 'tls-not-verified');
    expect(warning?.message).toContain('self-signed');
  });

  it('an unreadable CA file fails the target, naming the field', async () => {
    const { result } = await runTarget(
      autocannonTarget('https://127.0.0.1:1/', {
        options: { tls: { verify: true, caFile: '/nonexistent/ca.pem', servername: null } },
      }),
    );
    expect(result.status).toBe('failed');
    expect(result.error?.message).toBe('options.tls.caFile: /nonexistent/ca.pem does not exist');
  });
});

describe('the host side never throws', () => {
  it('a worker that dies gives a failed result naming why', async () => {
    const built = await buildRunSpec(scenarioSchema.parse({ targets: [{ url: 'http://127.0.0.1:1/' }] }), 0, {
      runId: 'crash',
      appVersion: '0',
    });
    if (!built.ok) throw new Error('spec expected');
    // A spec the worker rejects: it throws before doing anything, as a crash would.
    const broken = { ...built.spec, target: { ...built.spec.target, url: 'not a url' } };
    const handle = startRun(broken);
    const result = await handle.done;
    expect(result.status).toBe('failed');
    expect(result.error?.kind).toBe('other');
    expect(result.error?.message).toMatch(
      /^engine crashed: run spec is invalid: target\.url: URL is not valid/,
    );
    // stop() after the end hands back the same result.
    expect(await handle.stop()).toBe(result);
  });

  it('stop() during the pre-flight cancels without load and without an error', async () => {
    // The server never answers; it tells the test when the pre-flight request is in.
    let arrived: () => void = () => undefined;
    const preflightIn = new Promise<void>((resolve) => (arrived = resolve));
    const s = (server = await startHttpServer(() => arrived()));
    const built = await buildRunSpec(scenarioSchema.parse(autocannonTarget(s.url)), 0, {
      runId: 'x',
      appVersion: '0',
    });
    if (!built.ok) throw new Error('spec expected');
    const handle = startRun(built.spec);
    // Stop once the pre-flight request is at the server, however long the worker took to start.
    await preflightIn;
    expect(s.requests).toBe(1);
    const result = await handle.stop();
    expect(result.status).toBe('cancelled');
    expect(result.error).toBeNull();
    expect(result.requests.total).toBe(0);
    expect(s.requests).toBe(1);
  });
});

describe('TLS versions older than Node accepts by default', () => {
  let certs: TestCerts;
  beforeAll(() => {
    certs = makeTestCerts();
  });
  afterAll(() => certs.remove());

  /** An HTTPS server that offers only this version (SHA-1 handshakes need OpenSSL's level 0). */
  const onlyTls = async (version: 'TLSv1' | 'TLSv1.1') =>
    (server = await startHttpServer(handlers.ok(), {
      tls: { ...certs.valid, minVersion: version, maxVersion: version, ciphers: 'DEFAULT@SECLEVEL=0' },
    }));

  it.each([
    ['TLSv1', 'TLS 1.0', ''],
    ['TLSv1.1', 'TLS 1.1', ' or older'],
  ] as const)(
    'a %s-only server fails the pre-flight saying so and how to allow it',
    async (version, words, older) => {
      const s = await onlyTls(version);
      const { result } = await runTarget(
        oneTarget(s.url, { options: { tls: { caFile: certs.ca.certFile } } }),
      );
      expect(result.status).toBe('failed');
      expect(result.error).toEqual({
        kind: 'tls',
        message: `TLS handshake with ${new URL(s.url).host} failed: the server offers only ${words}${older}, which this Node refuses by default (it requires TLS 1.2 or later): set options.tls.minVersion to ${version} (--tls-min-version ${version}) to test it anyway`,
      });
      expect(s.requests).toBe(0);
    },
  );

  it('with options.tls.minVersion TLSv1 both engines measure a TLS 1.0-only server, certificate verified', async () => {
    const s = await onlyTls('TLSv1');
    for (const engine of ['native', 'autocannon'] as const) {
      const { result } = await runTarget(
        oneTarget(s.url, {
          load: { model: 'closed', connections: 2, limit: { kind: 'requests', count: 30 } },
          options: { engine, tls: { caFile: certs.ca.certFile, minVersion: 'TLSv1' } },
        }),
      );
      expect(result.status, engine).toBe('completed');
      expect(result.requests, engine).toMatchObject({ total: 30, ok: 30, errors: 0 });
      expect(result.tls, engine).toMatchObject({ protocol: 'TLSv1', verified: true });
    }
  });

  it('a minimum above what the server offers names the scenario setting', async () => {
    const s = (server = await startHttpServer(handlers.ok(), {
      tls: { ...certs.valid, maxVersion: 'TLSv1.2' },
    }));
    const { result } = await runTarget(
      oneTarget(s.url, { options: { tls: { caFile: certs.ca.certFile, minVersion: 'TLSv1.3' } } }),
    );
    expect(result.error?.message).toMatch(
      /the server offers only TLS 1\.2 or older, below options\.tls\.minVersion \(TLSv1\.3\): set options\.tls\.minVersion to TLSv1\.2/,
    );
  });
});
