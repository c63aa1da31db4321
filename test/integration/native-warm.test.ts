import https from 'node:https';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { warmConnections } from '../../electron/engine/native/drivers/warm-pool.ts';
import { makeTestCerts, type TestCerts } from '../helpers/certs.ts';
import { endAfterAll, endAfterEach } from '../helpers/cleanup.ts';
import { oneTarget, runTarget } from '../helpers/engine.ts';
import { nginxStatus, startNginx, type NginxServer } from '../helpers/nginx.ts';
import { startRawServer } from '../helpers/servers.ts';

/*
 * The open model's warm phase, end to end (pre-flight, shards, result): before the first
 * scheduled send every connection of the pool is open, its TLS handshake done, and no request
 * went out on it; a server that accepts connections and never answers TLS delays the run by
 * the warm deadline at most, and the result says so.
 */

const keep = endAfterAll();
const each = endAfterEach();
let nginx: NginxServer;
let certs: TestCerts;

beforeAll(async () => {
  certs = makeTestCerts();
  nginx = keep(await startNginx({ https: true, certs }));
});
afterAll(() => certs.remove());

const tls = () => ({ tls: { caFile: certs.ca.certFile } });

/** A proxy whose first connection (the pre-flight's) goes through to nginx; later ones are held silent. */
async function silentAfterFirst(): Promise<{ port: number; silent: Set<net.Socket> }> {
  let accepted = 0;
  const silent = new Set<net.Socket>();
  const proxy = each(
    await startRawServer((socket) => {
      if (accepted++ === 0) {
        const upstream = net.connect(Number(new URL(nginx.httpsUrl!).port), '127.0.0.1');
        socket.pipe(upstream).pipe(socket);
        upstream.on('error', () => socket.destroy());
        socket.on('error', () => upstream.destroy());
      } else {
        silent.add(socket);
        socket.on('error', () => undefined);
      }
    }),
  );
  return { port: proxy.port, silent };
}

describe('native engine, open model: warm connections before the first send', () => {
  it(
    'https, two engine workers: the pool each sized from the pre-flight, every connection open first',
    { tags: ['timing'] },
    async () => {
      const before = await nginxStatus(nginx);
      const { result } = await runTarget(
        oneTarget(`${nginx.httpsUrl!}test.html`, {
          load: { model: 'open', rate: 1000, durationSeconds: 0.5, maxInFlight: 200 },
          options: { ...tls(), workers: 2 },
        }),
      );
      const after = await nginxStatus(nginx);
      expect(result.status).toBe('completed');
      const warm = result.warm!;
      expect(warm.roundTripMs).toBeGreaterThan(0);
      // Each worker sizes its share: half the rate, half the in-flight cap.
      const share = warmConnections({
        rate: 500,
        roundTripMs: warm.roundTripMs,
        maxInFlight: 100,
        perConnection: 1,
      });
      expect(warm.wanted).toBe(2 * share);
      expect(warm.ready).toBe(warm.wanted);
      expect(warm.seconds).toBeGreaterThan(0);
      expect(result.warnings.filter((w) => w.message.includes('warm connections'))).toEqual([]);
      // nginx accepted the pre-flight's, the pool's and the status reader's (one per reading).
      expect(after.accepts - before.accepts).toBeGreaterThanOrEqual(1 + warm.wanted + 1);
      // The warm phase sends nothing: nginx served the pre-flight's request, the run's and the status reader's.
      expect(after.requests - before.requests).toBe(1 + result.requests.total + 1);
      // Every scheduled request went out, or was dropped when a stall of this busy machine outlasted the schedule.
      expect(result.requests.total + result.requests.dropped!).toBe(500);
      // The measured requests ran on connections opened before the schedule, nearly all reused: the median setup is 0.
      expect(result.phases!.setup!.median).toBe(0);
    },
  );

  it('HTTP/2: one session', async () => {
    const { result } = await runTarget(
      oneTarget(`${nginx.httpsUrl!}test.html`, {
        load: { model: 'open', rate: 500, durationSeconds: 0.3, maxInFlight: 100 },
        options: { ...tls(), workers: 1, protocol: 'h2' },
      }),
    );
    expect(result.status).toBe('completed');
    expect(result.warm).toMatchObject({ wanted: 1, ready: 1 });
    expect(result.requests.ok + result.requests.dropped!).toBe(150);
  });

  it('a server counting TLS sessions sees the whole pool before the first scheduled request', async () => {
    const sessionsAt: number[] = [];
    const requestsAt: number[] = [];
    const server = https.createServer({ key: certs.valid.key, cert: certs.valid.cert }, (_req, res) => {
      requestsAt.push(performance.now());
      res.end('ok');
    });
    server.keepAliveTimeout = 30_000;
    server.on('secureConnection', () => sessionsAt.push(performance.now()));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    each({ close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))) });
    const port = (server.address() as net.AddressInfo).port;
    const { result } = await runTarget(
      oneTarget(`https://127.0.0.1:${port}/`, {
        load: { model: 'open', rate: 400, durationSeconds: 0.3, maxInFlight: 100 },
        options: { ...tls(), workers: 1 },
      }),
    );
    expect(result.status).toBe('completed');
    const warm = result.warm!;
    expect(warm.ready).toBe(warm.wanted);
    // Requests in order: the pre-flight's, then the schedule's.
    expect(requestsAt).toHaveLength(1 + result.requests.total);
    expect(result.requests.total + result.requests.dropped!).toBe(120);
    const firstScheduled = requestsAt[1]!;
    const sessionsBefore = sessionsAt.filter((t) => t < firstScheduled).length;
    expect(sessionsBefore).toBeGreaterThanOrEqual(1 + warm.wanted);
  });

  it(
    'a server that accepts but never answers TLS: the run starts after the deadline (the request timeout here) and says so',
    { tags: ['timing'] },
    async () => {
      const proxy = await silentAfterFirst();
      const t = performance.now();
      const { result } = await runTarget(
        oneTarget(`https://127.0.0.1:${proxy.port}/test.html`, {
          load: { model: 'open', rate: 100, durationSeconds: 0.3, maxInFlight: 50 },
          options: { ...tls(), workers: 1, timeoutMs: 1000 },
        }),
      );
      const seconds = (performance.now() - t) / 1000;
      expect(result.status).toBe('completed');
      expect(result.warm).toMatchObject({ ready: 0 });
      expect(result.warm!.wanted).toBeGreaterThan(0);
      // The deadline: the request timeout (1 s) when shorter than the 3 s default (its timer fires
      // up to 2 ms early, and late on a busy machine: the bound lies halfway to the default).
      expect(result.warm!.seconds).toBeGreaterThan(1 - 0.002);
      expect(result.warm!.seconds).toBeLessThan(2);
      expect(result.warnings.map((w) => w.message)).toContainEqual(
        expect.stringMatching(
          /^the warm connections were not all open after 1\.\d s: 0 of \d+; the schedule started anyway/,
        ),
      );
      // Its requests then time out on silent connections: measured, not hung.
      expect(result.requests.total + result.requests.dropped!).toBe(30);
      expect(result.errors[0]?.kind).toBe('timeout');
      // Warm deadline 1 s + schedule 0.3 s + request timeout 1 s, with room for worker starts on a busy machine.
      expect(seconds).toBeLessThan(8);
      for (const s of proxy.silent) s.destroy();
    },
  );

  it(
    'a machine of a plan (--shard) that cannot open its pool still starts at the common start, and says so',
    { tags: ['timing'] },
    async () => {
      const proxy = await silentAfterFirst();
      // The common start (2 s on: room for the worker's start on a busy machine) comes before
      // the warm deadline (3 s from the warm phase's begin, the request timeout here).
      const startAt = Date.now() + 2000;
      const load = { model: 'open' as const, rate: 100, durationSeconds: 0.3, maxInFlight: 50 };
      const { result } = await runTarget(
        oneTarget(`https://127.0.0.1:${proxy.port}/test.html`, {
          load,
          options: { ...tls(), workers: 1, timeoutMs: 3000 },
        }),
        {
          placement: {
            shard: { index: 0, count: 1, offsetMs: 0, arrivalPhase: 0 },
            planId: 'warm-cut',
            planLoad: load,
            startAt,
          },
        },
      );
      expect(result.status).toBe('completed');
      expect(result.warm).toMatchObject({ ready: 0, cutAtStart: true });
      // Cut before the start (by its 100 ms margin: under 1.9 s), not at the 3 s deadline, which
      // would begin the load 1 s after the start and more (the worker's start on top): the
      // bounds lie between the two.
      expect(result.warm!.seconds).toBeLessThan(2.5);
      expect(result.shard!.clock.startOffsetMs).toBeLessThan(1000);
      expect(result.warnings.map((w) => w.message)).toContainEqual(
        expect.stringMatching(
          /^the warm connections were not all open at the plan's common start, \d\.\d s after they began opening: 0 of \d+; the load started on time/,
        ),
      );
      for (const s of proxy.silent) s.destroy();
    },
  );
});
