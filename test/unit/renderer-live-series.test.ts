import { describe, expect, it } from 'vitest';
import { drawnWindows, LIVE_CHARTS, pointsOf, statusRates } from '../../renderer/live/liveSeries.ts';
import { sampleFixture } from '../helpers/run-result.ts';

describe('live chart series', () => {
  it('turns a window into per-second rates by status class and errors', () => {
    const s = sampleFixture({
      intervalSeconds: 0.5,
      statusCodes: { '200': 400, '204': 100, '301': 10, '404': 20, '503': 5 },
      errors: { refused: 3, timeout: 2 },
    });
    expect(statusRates(s)).toEqual({ '2xx': 1000, '3xx': 20, '4xx': 40, '5xx': 10, errors: 10 });
  });

  it('gives one point per series at the sample time, null where no response finished', () => {
    const byId = Object.fromEntries(LIVE_CHARTS.map((c) => [c.id, c]));
    const s = sampleFixture({ elapsedSeconds: 3, requestsPerSecond: 15_000 });
    expect(pointsOf(byId.throughput!, s)).toEqual([{ x: 3, y: 15_000 }]);
    expect(pointsOf(byId.latency!, s)).toEqual([
      { x: 3, y: 1.8 },
      { x: 3, y: 3.1 },
      { x: 3, y: 7.4 },
    ]);
    expect(pointsOf(byId.latency!, sampleFixture({ latency: null })).map((p) => p.y)).toEqual([
      null,
      null,
      null,
    ]);
    expect(pointsOf(byId.status!, s).map((p) => p.y)).toEqual([1000, 0, 0, 0, 0]);
  });

  it("folds a run's short last window into the one before: rates over both, nothing lost", () => {
    const windows = drawnWindows([
      sampleFixture({ seq: 1, elapsedSeconds: 1 }),
      sampleFixture({ seq: 2, elapsedSeconds: 2, errors: { reset: 4 } }),
      sampleFixture({
        seq: 3,
        elapsedSeconds: 2.05,
        intervalSeconds: 0.05,
        final: true,
        requests: 50,
        requestsPerSecond: 1000,
        bytesInPerSecond: 20_000,
        statusCodes: { '200': 40, '503': 10 },
        errors: { reset: 1, timeout: 2 },
        latency: { mean: 40, p50: 30, p90: 80, p99: 95, max: 120 },
      }),
    ]);
    expect(windows.map((w) => w.seq)).toEqual([1, 3]);
    const last = windows[1]!;
    expect(last.elapsedSeconds).toBe(2.05);
    expect(last.intervalSeconds).toBeCloseTo(1.05, 9);
    expect(last.requests).toBe(1050);
    expect(last.requestsPerSecond).toBeCloseTo(1050 / 1.05, 6);
    expect(last.bytesInPerSecond).toBeCloseTo((120_000 + 20_000 * 0.05) / 1.05, 6);
    expect(last.statusCodes).toEqual({ '200': 1040, '503': 10 });
    expect(last.errors).toEqual({ reset: 5, timeout: 2 });
    // The 1000-request window's percentiles, the larger max, the request-weighted mean.
    expect(last.latency).toEqual({
      p50: 1.8,
      p90: 3.1,
      p99: 7.4,
      max: 120,
      mean: (2 * 1000 + 40 * 50) / 1050,
    });
    expect(statusRates(last)['5xx']).toBeCloseTo(10 / 1.05, 6);
  });

  it('keeps a last window of half a tick or more, and any short window that is not the last', () => {
    const timed = drawnWindows([
      sampleFixture({ seq: 1 }),
      sampleFixture({ seq: 2, elapsedSeconds: 1.6, intervalSeconds: 0.6, final: true }),
    ]);
    expect(timed.map((w) => [w.seq, w.intervalSeconds])).toEqual([
      [1, 1],
      [2, 0.6],
    ]);
    const short = drawnWindows([sampleFixture({ seq: 1 }), sampleFixture({ seq: 2, intervalSeconds: 0.1 })]);
    expect(short.map((w) => w.seq)).toEqual([1, 2]);
    // A run stopped at once has a single, short, final window: it is all there is.
    expect(drawnWindows([sampleFixture({ intervalSeconds: 0.02, final: true })])).toHaveLength(1);
  });
});
