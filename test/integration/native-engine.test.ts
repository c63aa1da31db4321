import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runResultSchema } from '../../shared/model/result.ts';
import { makeTestCerts, type TestCerts } from '../helpers/certs.ts';
import { oneTarget, runTarget } from '../helpers/engine.ts';
import { startH2Server } from '../helpers/native.ts';
import { handlers, startHttpServer } from '../helpers/servers.ts';
import { endAfterEach } from '../helpers/cleanup.ts';

const track = endAfterEach();

let certs: TestCerts;
beforeAll(() => {
  certs = makeTestCerts();
});
afterAll(() => certs.remove());

// The native load generator through the whole engine (worker thread, pre-flight, result builder).
describe('native load generator in the engine', () => {
  it('is the default engine and fills an ab-style result (keep-alive off: one connection per request)', async () => {
    const server = track(await startHttpServer(handlers.ok('hello')));
    const { result } = await runTarget(
      oneTarget(server.url, {
        load: { model: 'closed', connections: 5, limit: { kind: 'requests', count: 300 } },
        options: { keepAlive: false },
      }),
    );
    expect(runResultSchema.safeParse(result).success).toBe(true);
    expect(result.status).toBe('completed');
    expect(result.generator.engine).toBe('native');
    expect(result.requests.total).toBe(300);
    expect(result.requests.ok).toBe(300);
    // The pre-flight request has a connection of its own too.
    expect(server.connections).toBe(301);
    expect(server.requests).toBe(301);
    expect(result.server?.httpVersion).toBe('1.1');
    expect(result.server?.documentLength).toBe(5);
    const phases = result.phases!;
    for (const p of ['connect', 'setup', 'waiting', 'processing', 'total'] as const) {
      expect(phases[p]?.max).toBeGreaterThan(0);
    }
    // Every request opened its own connection: none has a zero Connect row.
    expect(phases.setup!.min).toBeGreaterThan(0);
    expect(phases.total!.mean).toBeGreaterThanOrEqual(phases.setup!.mean);
    // No schedule, no send lateness.
    expect(result.sendLateness).toBeNull();
    expect(result.samples.every((s) => s.sendLatenessP99 === undefined)).toBe(true);
  });

  it(
    'reports an open-model run as vegeta does: target and sent rate, attack and wait, late and dropped',
    { tags: ['timing'] },
    async () => {
      const server = track(await startHttpServer(handlers.ok()));
      const { result } = await runTarget(
        oneTarget(server.url, { load: { model: 'open', rate: 100, durationSeconds: 2, maxInFlight: 50 } }),
      );
      expect(runResultSchema.safeParse(result).success).toBe(true);
      // 100/s for 2 s: 200 sent, all but those still unanswered at the end (30 once, on a machine
      // whose cores were both taken by a hog) counted, none dropped (50 may be in flight).
      expect(result.requests.total + result.requests.inFlightAtEnd).toBe(200);
      expect(result.requests.dropped).toBe(0);
      expect(result.requests.late).not.toBeNull();
      expect(result.throughput.targetRate).toBe(100);
      // At least the schedule's span ((n - 1) / rate); with the wait for the last answers it
      // covers the measured time, which ends with them.
      expect(result.attackSeconds).toBeGreaterThan(1.9);
      expect(result.waitSeconds).not.toBeNull();
      expect(result.attackSeconds! + result.waitSeconds!).toBeLessThanOrEqual(result.durationSeconds);
      expect(result.attackSeconds! + result.waitSeconds!).toBeGreaterThan(result.durationSeconds - 0.1);
      // Send lateness beside the latency: every send counted, its p99 in each sample that sent.
      const late = result.sendLateness!;
      expect(late.percentiles['50']).toBeLessThanOrEqual(late.percentiles['99']!);
      expect(late.max).toBeGreaterThanOrEqual(late.percentiles['99']!);
      expect(result.latency!.max).toBeGreaterThanOrEqual(late.percentiles['99']!);
      const measured = result.samples.filter((s) => !s.warmup && s.requests > 0);
      expect(measured.length).toBeGreaterThan(0);
      for (const s of measured) expect(s.sendLatenessP99).toBeGreaterThanOrEqual(0);
    },
  );

  it('runs HTTP/2 over TLS and states the negotiated protocol, TLS version and cipher', async () => {
    const server = track(await startH2Server({ tls: certs.valid }));
    const { result } = await runTarget(
      oneTarget(server.url, {
        load: { model: 'closed', connections: 2, pipelining: 4, limit: { kind: 'requests', count: 200 } },
        options: { protocol: 'h2', tls: { caFile: certs.ca.certFile } },
      }),
    );
    expect(runResultSchema.safeParse(result).success).toBe(true);
    expect(result.status).toBe('completed');
    expect(result.requests.ok).toBe(200);
    expect(result.server?.httpVersion).toBe('2');
    expect(result.tls).toMatchObject({ alpn: 'h2', verified: true });
    expect(result.tls?.protocol).toMatch(/^TLSv1\.[23]$/);
    expect(result.tls?.cipher).toBeTruthy();
  });

  it(
    'reports corrected latency beside the measured one for a rate-capped closed run',
    { tags: ['timing'] },
    async () => {
      const server = track(await startHttpServer(handlers.ok()));
      const { result } = await runTarget(
        oneTarget(server.url, {
          load: { model: 'closed', connections: 2, rate: 200, limit: { kind: 'duration', seconds: 1 } },
        }),
      );
      expect(runResultSchema.safeParse(result).success).toBe(true);
      expect(result.correctedLatency).not.toBeNull();
      expect(result.latency).not.toBeNull();
      // Corrected latency runs from the schedule, so it is never below the measured service time.
      expect(result.correctedLatency!.max).toBeGreaterThanOrEqual(result.latency!.max * 0.99);
      // The 1 s window holds 200 due times, however late the deadline's timer fires.
      expect(result.requests.total).toBeLessThanOrEqual(200);
      expect(result.requests.total).toBeGreaterThan(150);
      // A capped loop sends on a schedule too: its lateness is measured.
      expect(result.sendLateness).not.toBeNull();
      expect(result.sendLateness!.max).toBeGreaterThanOrEqual(0);
    },
  );
});
