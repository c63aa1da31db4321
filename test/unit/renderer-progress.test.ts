import { describe, expect, it } from 'vitest';
import { scenarioSchema } from '../../shared/model/scenario.ts';
import { progressOf } from '../../renderer/views/Run/progress.ts';
import { sampleFixture } from '../helpers/run-result.ts';

describe('run progress', () => {
  it('counts a duration run by the clock, warm-up included', () => {
    const s = scenarioSchema.parse({
      targets: [{ url: 'http://127.0.0.1/' }],
      load: { model: 'closed', limit: { kind: 'duration', seconds: 10 } },
      options: { warmupSeconds: 2 },
    });
    expect(progressOf(s, 1, null)).toEqual({ elapsed: 1, remaining: 11, fraction: 1 / 12, warmup: true });
    expect(progressOf(s, 6, null)).toEqual({ elapsed: 6, remaining: 6, fraction: 0.5, warmup: false });
    // Waiting for the last answers past the end: full, nothing left.
    expect(progressOf(s, 13, null)).toEqual({ elapsed: 13, remaining: 0, fraction: 1, warmup: false });
  });

  it('counts an open run by its duration', () => {
    const s = scenarioSchema.parse({
      targets: [{ url: 'http://127.0.0.1/' }],
      load: { model: 'open', rate: 100, durationSeconds: 4 },
    });
    expect(progressOf(s, 1, null)).toMatchObject({ remaining: 3, fraction: 0.25 });
  });

  it('counts a request-count run by requests, estimating the time left from the rate', () => {
    const s = scenarioSchema.parse({
      targets: [{ url: 'http://127.0.0.1/' }],
      load: { model: 'closed', limit: { kind: 'requests', count: 10_000 } },
    });
    expect(progressOf(s, 0.5, null)).toEqual({ elapsed: 0.5, remaining: null, fraction: 0, warmup: false });
    const last = sampleFixture({ totalRequests: 2500, requestsPerSecond: 2500 });
    expect(progressOf(s, 1, last)).toEqual({ elapsed: 1, remaining: 3, fraction: 0.25, warmup: false });
  });
});
