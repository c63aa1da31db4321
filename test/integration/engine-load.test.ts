import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeHistogram } from '../../electron/engine/recording/histogram.ts';
import { autocannonTarget, runTarget } from '../helpers/engine.ts';
import { handlers, startHttpServer, type TestServer } from '../helpers/servers.ts';

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function serve(handler: Parameters<typeof startHttpServer>[0]): Promise<TestServer> {
  server = await startHttpServer(handler);
  return server;
}

describe('engine (autocannon load generator) against a real server', () => {
  it(
    'measures a 20 ms delay at microsecond resolution: p50 that of the server’s holds, within half a hold',
    { tags: ['timing'] },
    async () => {
      // The server holds each answer 20 ms by its timer and notes how long it really did (a busy
      // machine fires the timer late, and up to 2 ms early), on the clock the engine's worker
      // reads too.
      const held: number[] = [];
      const s = await serve((_req, res) => {
        const received = performance.now();
        setTimeout(() => {
          held.push(performance.now() - received);
          res.end('slow');
        }, 20);
      });
      const { result } = await runTarget(
        autocannonTarget(s.url, {
          load: { model: 'closed', connections: 5, limit: { kind: 'duration', seconds: 1.5 } },
        }),
      );
      expect(result.status).toBe('completed');
      expect(result.error).toBeNull();
      const p50 = result.latency!.percentiles['50']!;
      const heldMedian = [...held].sort((a, b) => a - b)[held.length >> 1]!;
      expect(heldMedian).toBeGreaterThan(20 - 2);
      // Sent before the server had it, read after its answer: each latency holds its hold (the
      // histogram's 3 significant digits: 16 us buckets at 20 ms). A latency counted twice, or
      // in whole milliseconds off by one, is off by far more than the loop turns between.
      expect(p50).toBeGreaterThanOrEqual(heldMedian - 0.016);
      expect(p50).toBeLessThan(heldMedian + 10);
      // Microsecond resolution: the figures are not whole milliseconds (autocannon's own are).
      expect(Number.isInteger(p50)).toBe(false);
      expect(result.requests.total).toBeGreaterThan(50);
      expect(result.requests.errors).toBe(0);
      expect(result.statusCodes).toEqual({ '200': result.requests.responses });
      expect(result.durationSeconds).toBeGreaterThan(1.4);
      expect(result.durationSeconds).toBeLessThan(2.5);
      // The encoded histogram decodes to the same count.
      expect(decodeHistogram(result.histogram!).totalCount).toBe(result.requests.responses);
      expect(result.generator.engine).toBe('autocannon');
      expect(result.warnings.map((w) => w.code)).toContain('closed-loop-latency');
    },
  );

  it('completes exactly 1000 requests for limit 1000 (pipelining 1 and 4)', async () => {
    for (const pipelining of [1, 4]) {
      const s = await serve(handlers.ok('hello'));
      const { result } = await runTarget(
        autocannonTarget(s.url, {
          load: { model: 'closed', connections: 10, pipelining, limit: { kind: 'requests', count: 1000 } },
        }),
      );
      expect(result.status).toBe('completed');
      expect(result.requests.total).toBe(1000);
      expect(result.requests.responses).toBe(1000);
      expect(result.requests.inFlightAtEnd).toBe(0);
      expect(result.statusCodes).toEqual({ '200': 1000 });
      // The server saw the pre-flight request and exactly the 1000 of the load.
      expect(s.requests).toBe(1001);
      expect(result.bytes.inBody).toBe(5000);
      expect(result.server?.documentLength).toBe(5);
      await s.close();
      server = null;
    }
  });

  it('counts status codes exactly as the server sent them; 3xx/4xx/5xx are not errors', async () => {
    const codes = [200, 200, 301, 404, 500, 503];
    const s = await serve(handlers.cycle(codes));
    const n = 600;
    const { result } = await runTarget(
      autocannonTarget(s.url, {
        load: { model: 'closed', connections: 4, limit: { kind: 'requests', count: n } },
      }),
    );
    // Request 0 was the pre-flight; the load got requests 1..n of the cycle.
    const expected: Record<string, number> = {};
    for (let k = 1; k <= n; k++)
      expected[codes[k % codes.length]!] = (expected[codes[k % codes.length]!] ?? 0) + 1;
    expect(result.statusCodes).toEqual(expected);
    expect(result.requests.errors).toBe(0);
    expect(result.errors).toEqual([]);
    expect(result.requests.non2xx).toBe(n - expected['200']!);
    expect(result.requests.ok).toBe(expected['200']! + expected['301']!);
    expect(result.successRatio).toBeCloseTo((expected['200']! + expected['301']!) / n, 10);
  });

  it('counts a 50 MB body byte for byte', async () => {
    const size = 50 * 1024 * 1024;
    const s = await serve(handlers.largeBody(size));
    const { result } = await runTarget(
      autocannonTarget(s.url, {
        load: { model: 'closed', connections: 1, limit: { kind: 'requests', count: 2 } },
      }),
    );
    expect(result.status).toBe('completed');
    expect(result.requests.responses).toBe(2);
    expect(result.bytes.inBody).toBe(2 * size);
    expect(result.bytes.inTotal).toBeGreaterThan(2 * size);
    expect(result.server?.documentLength).toBe(size);
  });

  it('counts chunked bodies', async () => {
    const s = await serve(handlers.chunked(10, 1000));
    const { result } = await runTarget(
      autocannonTarget(s.url, {
        load: { model: 'closed', connections: 2, limit: { kind: 'requests', count: 200 } },
      }),
    );
    expect(result.requests.responses).toBe(200);
    expect(result.bytes.inBody).toBe(200 * 10_000);
    expect(result.statusCodes).toEqual({ '200': 200 });
  });

  it('sends the method, headers and body (text and file), and ends HEAD answers at their headers', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trebuchet-body-'));
    try {
      const seen: { method: string; bytes: number; header: string | undefined }[] = [];
      const s = await serve((req, res) => {
        let bytes = 0;
        req.on('data', (d: Buffer) => (bytes += d.length));
        req.on('end', () => {
          seen.push({ method: req.method!, bytes, header: req.headers['x-test'] as string | undefined });
          res.writeHead(200, { 'content-length': 4 });
          res.end(req.method === 'HEAD' ? undefined : 'done');
        });
      });
      const file = join(dir, 'body.bin');
      writeFileSync(file, Buffer.alloc(3000, 7));
      const load = {
        model: 'closed' as const,
        connections: 2,
        limit: { kind: 'requests' as const, count: 50 },
      };
      const text = await runTarget(
        autocannonTarget(s.url, {
          load,
          target: {
            method: 'POST',
            headers: [{ name: 'X-Test', value: 'yes' }],
            body: { kind: 'text', text: 'hello world' },
          },
        }),
      );
      expect(text.result.requests.responses).toBe(50);
      expect(text.result.bytes.outBody).toBe(50 * 11);
      expect(seen.slice(1).every((r) => r.method === 'POST' && r.bytes === 11 && r.header === 'yes')).toBe(
        true,
      );

      seen.length = 0;
      const fromFile = await runTarget(
        autocannonTarget(s.url, { load, target: { method: 'PUT', body: { kind: 'file', path: file } } }),
      );
      expect(fromFile.result.bytes.outBody).toBe(50 * 3000);
      expect(seen.slice(1).every((r) => r.method === 'PUT' && r.bytes === 3000)).toBe(true);

      const head = await runTarget(
        autocannonTarget(s.url, { load, target: { method: 'HEAD' }, options: { timeoutMs: 2000 } }),
      );
      expect(head.result.requests.responses).toBe(50);
      expect(head.result.requests.errors).toBe(0);
      expect(head.result.bytes.inBody).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('opens a new connection after a Connection: close answer instead of losing a request', async () => {
    const s = await serve(handlers.ok('bye', { connection: 'close' }));
    const { result } = await runTarget(
      autocannonTarget(s.url, {
        load: { model: 'closed', connections: 2, limit: { kind: 'requests', count: 200 } },
      }),
    );
    expect(result.requests.responses).toBe(200);
    expect(result.requests.errors).toBe(0);
    // One connection per request, plus the pre-flight's.
    expect(s.connections).toBeGreaterThanOrEqual(201);
    expect(s.requests).toBe(201);
  });

  it('posts one sample per tick, not one per request', { tags: ['timing'] }, async () => {
    const s = await serve(handlers.ok());
    const { result, samples } = await runTarget(
      autocannonTarget(s.url, {
        load: { model: 'closed', connections: 2, limit: { kind: 'duration', seconds: 1 } },
        options: { sampleIntervalMs: 100 },
      }),
    );
    // 1 s at 100 ms: ten full windows and a short last one (timers may slip on a busy machine).
    expect(samples.length).toBeGreaterThanOrEqual(8);
    expect(samples.length).toBeLessThanOrEqual(13);
    expect(result.requests.total).toBeGreaterThan(samples.length * 10);
    expect(samples.map((x) => x.seq)).toEqual(samples.map((_, i) => i));
    expect(samples.reduce((a, x) => a + x.requests, 0)).toBe(result.requests.total);
    expect(samples.at(-1)!.totalRequests).toBe(result.requests.total);
    expect(result.samples).toEqual(samples);
    const full = samples.slice(0, -1);
    for (const x of full) expect(x.intervalSeconds).toBeGreaterThan(0.05);
    expect(full.every((x) => x.cpuPercent !== undefined)).toBe(true);
  });

  it('leaves warm-up requests out of the result', { tags: ['timing'] }, async () => {
    const s = await serve(handlers.delay(5));
    const { result, samples } = await runTarget(
      autocannonTarget(s.url, {
        load: { model: 'closed', connections: 2, limit: { kind: 'duration', seconds: 1 } },
        options: { warmupSeconds: 0.6, sampleIntervalMs: 200 },
      }),
    );
    const warm = samples.filter((x) => x.warmup);
    const measured = samples.filter((x) => !x.warmup);
    expect(warm.length).toBeGreaterThanOrEqual(2);
    const warmRequests = warm.reduce((a, x) => a + x.requests, 0);
    expect(warmRequests).toBeGreaterThan(20);
    expect(measured.reduce((a, x) => a + x.requests, 0)).toBe(result.requests.total);
    expect(result.durationSeconds).toBeGreaterThan(0.9);
    expect(result.durationSeconds).toBeLessThan(1.8);
    // Everything the server received: the pre-flight, the warm-up, the measured part, and
    // what was still in flight at the end (some of which the server may not have read yet).
    const accounted = 1 + warmRequests + result.requests.total;
    expect(s.requests).toBeGreaterThanOrEqual(accounted);
    expect(s.requests).toBeLessThanOrEqual(accounted + result.requests.inFlightAtEnd);
    expect(decodeHistogram(result.histogram!).totalCount).toBe(result.requests.responses);
  });

  it('counts exactly N measured requests after a warm-up', async () => {
    const s = await serve(handlers.delay(2));
    const { result, samples } = await runTarget(
      autocannonTarget(s.url, {
        load: { model: 'closed', connections: 3, limit: { kind: 'requests', count: 300 } },
        options: { warmupSeconds: 0.3, sampleIntervalMs: 100 },
      }),
    );
    expect(samples.some((x) => x.warmup)).toBe(true);
    expect(result.requests.total).toBe(300);
    expect(result.requests.inFlightAtEnd).toBe(0);
  });

  it('stops a 10 s run after about 1 s: cancelled, partial counts kept', { tags: ['timing'] }, async () => {
    const s = await serve(handlers.delay(10));
    const { result, stopMs, elapsedBound } = await runTarget(
      autocannonTarget(s.url, {
        load: { model: 'closed', connections: 4, limit: { kind: 'duration', seconds: 10 } },
        options: { sampleIntervalMs: 200 },
      }),
      { stopAfterMs: 1000 },
    );
    expect(result.status).toBe('cancelled');
    expect(result.error).toBeNull();
    expect(result.requests.total).toBeGreaterThan(0);
    expect(result.latency).not.toBeNull();
    // Measured until the stop (sent 1 s into the load), and not past the moment the result
    // arrived: bounds from the run's own clock, whatever the machine's speed.
    // (Node's timers may fire up to 2 ms early against performance.now(): see native-http1's
    // duration test.)
    expect(result.durationSeconds).toBeGreaterThan(1 - 0.002);
    expect(result.durationSeconds).toBeLessThanOrEqual(elapsedBound!);
    expect(result.requests.inFlightAtEnd).toBeLessThanOrEqual(4);
    expect(stopMs).not.toBeNull();
    // The in-flight count is reported, not hidden.
    if (result.requests.inFlightAtEnd > 0) {
      expect(result.warnings.map((w) => w.code)).toContain('in-flight-at-end');
    }
  });

  it('counts responses slower than the SLO as failures and evaluates thresholds', async () => {
    const s = await serve(handlers.delay(20));
    const { result } = await runTarget(
      autocannonTarget(s.url, {
        load: { model: 'closed', connections: 2, limit: { kind: 'requests', count: 40 } },
        options: {
          sloMs: 10,
          thresholds: [
            { metric: 'p50', op: '<', value: 5 },
            { metric: 'p50', op: '>=', value: 20 },
            { metric: 'errorRate', op: '<', value: 1 },
          ],
        },
      }),
    );
    expect(result.requests.sloExceeded).toBe(40);
    expect(result.requests.ok).toBe(0);
    expect(result.successRatio).toBe(0);
    expect(result.errors).toEqual([{ kind: 'slo', count: 40, message: 'response slower than 10 ms' }]);
    expect(result.thresholds.map((t) => t.passed)).toEqual([false, true, false]);
    expect(result.thresholds[2]!.actual).toBe(100);
  });

  it('caps a closed loop at a rate and says how autocannon spaces it', async () => {
    const s = await serve(handlers.ok());
    const { result } = await runTarget(
      autocannonTarget(s.url, {
        load: { model: 'closed', connections: 5, rate: 50, limit: { kind: 'duration', seconds: 1.5 } },
      }),
    );
    // Two per-second bursts of 50 at most (t = 0 and t = 1 s).
    expect(result.requests.total).toBeGreaterThanOrEqual(40);
    expect(result.requests.total).toBeLessThanOrEqual(110);
    expect(result.throughput.targetRate).toBe(50);
    const limit = result.warnings.find((w) => w.code === 'engine-limit');
    expect(limit?.message).toMatch(/bursts/);
  });
});

describe('autocannon load generator wind-down', () => {
  it('resolves only after autocannon has finished its own last tick (no timer of it left running)', async () => {
    // autocannon compresses its histograms (zlib) on the tick after stop(); a worker terminated
    // while that runs aborts the whole process, so the load generator must outlast it.
    const s = await serve(handlers.ok());
    const { AutocannonLoadGenerator } = await import('../../electron/engine/autocannon/load-generator.ts');
    const { Recorder } = await import('../../electron/engine/recording/recorder.ts');
    const { runSpecFixture } = await import('../helpers/engine.ts');
    const spec = runSpecFixture(
      autocannonTarget(s.url, {
        load: { model: 'closed', connections: 2, limit: { kind: 'requests', count: 50 } },
      }),
    );
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    const recorder = new Recorder({ sloMs: null, warmup: false, now: performance.now() });
    await new AutocannonLoadGenerator().run({
      spec,
      recorder,
      signal: new AbortController().signal,
      warmupSeconds: 0,
      warmupDone: Promise.resolve(),
      startGate: () => Promise.resolve(),
    });
    expect(recorder.totals.total).toBe(50);
    expect(timers()).toBeLessThanOrEqual(before);
  });
});
