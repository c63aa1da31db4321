import { describe, expect, it } from 'vitest';
import { LIVE_CHARTS, pointsOf, statusRates } from '../../renderer/jobs/liveSeries.ts';
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
});
