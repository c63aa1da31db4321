import type { RunResult } from '../../shared/model/result.ts';
import { amendResult, runResultFixture, sampleFixture } from './run-result.ts';

/**
 * An open-model step's result at `rate`: the server answers at that rate with p99 `p99` ms,
 * holding `inFlight` requests at each sample; `over` changes any field.
 */
export function stepResult(
  rate: number,
  f: { p99?: number; inFlight?: number; late?: number; dropped?: number; errors?: number; non2xx?: number },
  over: Parameters<typeof amendResult>[1] = {},
): RunResult {
  const base = runResultFixture();
  const total = rate * 3;
  const p99 = f.p99 ?? 2;
  const samples = [1, 2, 3].map((seq) =>
    sampleFixture({ seq, elapsedSeconds: seq, requestsPerSecond: rate, inFlight: f.inFlight ?? 1 }),
  );
  return amendResult(base, {
    load: { model: 'open', rate, durationSeconds: 3, maxInFlight: 1000 },
    requests: {
      total,
      responses: total - (f.errors ?? 0),
      ok: total - (f.errors ?? 0) - (f.non2xx ?? 0),
      non2xx: f.non2xx ?? 0,
      errors: f.errors ?? 0,
      late: f.late ?? 0,
      dropped: f.dropped ?? 0,
    },
    statusCodes: {
      '200': total - (f.errors ?? 0) - (f.non2xx ?? 0),
      ...(f.non2xx ? { '503': f.non2xx } : {}),
    },
    errors: f.errors ? [{ kind: 'reset', count: f.errors, message: 'connection reset' }] : [],
    throughput: { requestsPerSecond: rate, targetRate: rate, sentRate: rate },
    latency: { ...base.latency!, percentiles: { ...base.latency!.percentiles, '50': 1, '99': p99 } },
    generator: { cpuPercentMean: 30, cpuPercentMax: 40, saturated: false },
    samples,
    ...over,
  });
}

/** A server that holds p99 2 ms up to `capacity` req/s and 80 ms above it. */
export const knee = (capacity: number) => (rate: number) =>
  stepResult(rate, { p99: rate <= capacity ? 2 : 80 });
