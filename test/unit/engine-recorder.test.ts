import { describe, expect, it } from 'vitest';
import { Recorder } from '../../electron/engine/recorder.ts';

describe('Recorder', () => {
  it('counts responses and errors, and folds each window into the totals at tick', () => {
    const r = new Recorder({ sloMs: null, warmup: false, now: 0 });
    r.sent(10, 100);
    r.response(200, 1500, 5, 80);
    r.response(200, 2500, 5, 80);
    r.response(404, 1000, 9, 90);
    r.response(301, 700, 0, 60);
    r.error('reset', 'read ECONNRESET');
    r.error('reset', 'second message is not kept');
    r.inFlight = 3;
    const s = r.tick(500, 42);
    expect(s).toMatchObject({
      seq: 0,
      elapsedSeconds: 0.5,
      intervalSeconds: 0.5,
      warmup: false,
      requests: 6,
      totalRequests: 6,
      requestsPerSecond: 12,
      bytesInPerSecond: (80 + 80 + 90 + 60) / 0.5,
      statusCodes: { '200': 2, '301': 1, '404': 1 },
      errors: { reset: 2 },
      inFlight: 3,
      cpuPercent: 42,
    });
    // 0.7, 1.0, 1.5, 2.5 ms: the median is the second value.
    expect(s.latency).toMatchObject({ p50: 1, max: 2.5 });
    expect(s.latency!.mean).toBeCloseTo(1.425, 2);
    const t = r.totals;
    expect([t.total, t.responses, t.ok, t.non2xx, t.errors]).toEqual([6, 4, 3, 2, 2]);
    expect([t.inBody, t.inTotal, t.sent, t.outBody, t.outTotal]).toEqual([19, 310, 1, 10, 100]);
    expect(t.errorSet.get('reset')).toEqual({ count: 2, message: 'read ECONNRESET' });
    expect(r.statusCodes()).toEqual({ '200': 2, '301': 1, '404': 1 });
    expect(r.histogram.totalCount).toBe(4);
    // Latencies keep microsecond resolution (3 significant digits).
    expect(r.histogram.getValueAtPercentile(100)).toBeGreaterThanOrEqual(2500);
    expect(r.histogram.getValueAtPercentile(100)).toBeLessThan(2503);

    const next = r.tick(1500);
    expect(next).toMatchObject({
      seq: 1,
      requests: 0,
      intervalSeconds: 1,
      latency: null,
      statusCodes: {},
      errors: {},
    });
    expect(next.cpuPercent).toBeUndefined();
  });

  it('keeps the warm-up out of the totals but still samples it', () => {
    const r = new Recorder({ sloMs: null, warmup: true, now: 0 });
    r.sent(0, 50);
    r.response(200, 900, 5, 50);
    r.error('timeout', 'slow');
    const warm = r.tick(1000);
    expect(warm).toMatchObject({ warmup: true, requests: 2, totalRequests: 0, statusCodes: { '200': 1 } });
    r.startMeasuring();
    r.response(200, 1100, 5, 50);
    const measured = r.tick(2000);
    expect(measured).toMatchObject({ warmup: false, requests: 1, totalRequests: 1 });
    expect(r.totals.total).toBe(1);
    expect(r.totals.sent).toBe(0);
    expect(r.totals.errorSet.size).toBe(0);
    expect(r.statusCodes()).toEqual({ '200': 1 });
    expect(r.histogram.totalCount).toBe(1);
  });

  it('counts a response slower than the SLO as a failure of kind slo, not as ok', () => {
    const r = new Recorder({ sloMs: 2, warmup: false, now: 0 });
    r.response(200, 1999, 0, 10);
    r.response(200, 2001, 0, 10);
    r.response(500, 5000, 0, 10);
    const s = r.tick(100);
    expect(s.errors).toEqual({ slo: 2 });
    expect(r.totals).toMatchObject({ total: 3, responses: 3, ok: 1, sloExceeded: 2, errors: 0, non2xx: 1 });
    expect(r.totals.errorSet.get('slo')).toEqual({ count: 2, message: 'response slower than 2 ms' });
  });

  it('records the first measured document only', () => {
    const r = new Recorder({ sloMs: null, warmup: true, now: 0 });
    r.noteDocument('warm/1.0', 1);
    r.startMeasuring();
    r.noteDocument('nginx', 612);
    r.noteDocument('other', 5);
    expect([r.totals.serverSoftware, r.totals.documentLength]).toEqual(['nginx', 612]);
  });

  it('reports send lateness per window (p99) and for the measured run, apart from the latency', () => {
    const r = new Recorder({ sloMs: null, warmup: true, now: 0 });
    r.sentLate(50_000);
    const warm = r.tick(1000);
    expect(warm.sendLatenessP99).toBeCloseTo(50, 1);
    r.startMeasuring();
    // 98 sends on time (0 to 97 us late), 2 sent 20 ms late: the p99 is a late one.
    for (let i = 0; i < 98; i++) r.sentLate(i);
    r.sentLate(20_000);
    r.sentLate(20_000);
    r.response(200, 1500, 5, 50);
    const s = r.tick(2000);
    expect(s.sendLatenessP99).toBeCloseTo(20, 1);
    expect(s.latency?.p99).toBe(1.5);
    // The warm-up's 50 ms stays out of the run's figure (ms).
    const run = r.sendLatenessStats([50, 99])!;
    expect(run.max).toBe(20);
    expect(run.percentiles).toEqual({ '50': 0.049, '99': 20.015 });
    expect(run.min).toBe(0.001);
    // A window without scheduled sends carries no lateness.
    expect(r.tick(3000).sendLatenessP99).toBeUndefined();
  });
});
