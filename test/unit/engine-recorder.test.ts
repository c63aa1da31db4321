import { describe, expect, it } from 'vitest';
import { Recorder } from '../../electron/engine/recording/recorder.ts';
import { bucketStats } from '../helpers/buckets.ts';

describe('Recorder', () => {
  it('counts responses and errors, and folds each window into the totals at tick', () => {
    const r = new Recorder({ sloMs: null, warmup: false, now: 0 });
    r.started();
    r.sent(10, 100);
    // Written again on a new connection: its bytes count again, the request does not.
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
    expect([t.inBody, t.inTotal, t.sent, t.outBody, t.outTotal]).toEqual([19, 310, 1, 20, 200]);
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
    r.started();
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
    expect(r.totals.outTotal).toBe(0);
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

  it("folds a run's short last window into the one before: one window, rates over both, nothing lost", () => {
    const r = new Recorder({ sloMs: null, warmup: false, now: 0 });
    r.response(200, 1000, 5, 100);
    const first = r.tick(1000, 10);
    for (let i = 0; i < 996; i++) r.response(200, 2000, 5, 100);
    for (let i = 0; i < 4; i++) r.error('reset', 'read ECONNRESET');
    const second = r.tick(2000, 50);
    for (let i = 0; i < 40; i++) r.response(200, 40_000, 5, 100);
    for (let i = 0; i < 7; i++) r.response(503, 40_000, 5, 100);
    r.error('reset', 'read ECONNRESET');
    r.error('timeout', 'slow');
    r.error('timeout', 'slow');
    r.inFlight = 2;
    const last = r.tick(2050, 80, true);
    expect([first.seq, second.seq]).toEqual([0, 1]);
    // It replaces the sample before it (same seq) and spans both windows.
    expect(last.seq).toBe(1);
    expect(last.final).toBe(true);
    expect(last.elapsedSeconds).toBe(2.05);
    expect(last.intervalSeconds).toBeCloseTo(1.05, 9);
    expect(last.requests).toBe(1050);
    expect(last.requestsPerSecond).toBeCloseTo(1050 / 1.05, 6);
    expect(last.bytesInPerSecond).toBeCloseTo((1043 * 100) / 1.05, 6);
    expect(last.statusCodes).toEqual({ '200': 1036, '503': 7 });
    expect(last.errors).toEqual({ reset: 5, timeout: 2 });
    expect(last.inFlight).toBe(2);
    expect(last.totalRequests).toBe(1051);
    // Percentiles of both windows' latencies: 47 of 1043 answers (4.5 %) took 40 ms.
    expect(last.latency!.p50).toBeCloseTo(2, 2);
    expect(last.latency!.p99).toBeCloseTo(40, 1);
    expect(last.latency!.max).toBeCloseTo(40, 1);
    expect(last.latency!.mean).toBeCloseTo((996 * 2 + 47 * 40) / 1043, 1);
    expect(last.cpuPercent).toBeCloseTo((50 * 1 + 80 * 0.05) / 1.05, 9);
    // The totals are as without the fold.
    expect(r.totals.total).toBe(1051);
    expect(r.statusCodes()).toEqual({ '200': 1037, '503': 7 });
    expect(r.histogram.totalCount).toBe(1044);
  });

  it('keeps a last window of half a tick or more, any short window that is not the last, and a lone one', () => {
    const timed = new Recorder({ sloMs: null, warmup: false, now: 0 });
    timed.tick(1000);
    expect(timed.tick(1600, undefined, true)).toMatchObject({ seq: 1, intervalSeconds: 0.6, final: true });

    const short = new Recorder({ sloMs: null, warmup: false, now: 0 });
    short.tick(1000);
    expect(short.tick(1100)).toMatchObject({ seq: 1, intervalSeconds: 0.1 });

    // A run stopped at once has a single, short, final window: it is all there is.
    const stopped = new Recorder({ sloMs: null, warmup: false, now: 0 });
    expect(stopped.tick(20, undefined, true)).toMatchObject({ seq: 0, intervalSeconds: 0.02, final: true });

    // The first measured window is never folded into the warm-up's last.
    const warmed = new Recorder({ sloMs: null, warmup: true, now: 0 });
    warmed.tick(1000);
    warmed.startMeasuring();
    expect(warmed.tick(1010, undefined, true)).toMatchObject({ seq: 1, warmup: false, final: true });
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
    // A window without scheduled sends carries no lateness.
    expect(r.tick(3000, undefined, true).sendLatenessP99).toBeUndefined();
    // The warm-up's 50 ms stays out of the run's figure (ms).
    const run = bucketStats(r.latenessBuckets(), [50, 99])!;
    expect(run.max).toBe(20);
    // The p99's bucket reaches 20.015 ms; a percentile is never above the max.
    expect(run.percentiles).toEqual({ '50': 0.049, '99': 20 });
    expect(run.min).toBe(0.001);
  });
});
