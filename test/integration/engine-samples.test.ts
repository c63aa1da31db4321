import { describe, expect, it } from 'vitest';
import type { RunResult, Sample } from '../../shared/model/result.ts';
import { endAfterEach } from '../helpers/cleanup.ts';
import { autocannonTarget, oneTarget, runTarget } from '../helpers/engine.ts';
import { handlers, startHttpServer } from '../helpers/servers.ts';

const track = endAfterEach();
const serve = async () => track(await startHttpServer(handlers.ok()));

/** What every run's samples must satisfy, whatever the load. */
function expectHonestSamples(samples: Sample[], result: RunResult): void {
  expect(result.samples).toEqual(samples);
  // Exactly one final sample, the last.
  expect(samples.map((s) => s.final === true)).toEqual(samples.map((_, i) => i === samples.length - 1));
  // Windows tile the run: their lengths add up to the elapsed time, no gap and no overlap.
  let previous = 0;
  for (const s of samples) {
    // (within the recorder's 1 ms floor on a window's length)
    expect(s.intervalSeconds).toBeCloseTo(s.elapsedSeconds - previous, 2);
    previous = s.elapsedSeconds;
  }
  // The totals still count every request: the measured windows add up to them.
  const measured = samples.filter((s) => !s.warmup);
  expect(measured.reduce((a, s) => a + s.requests, 0)).toBe(result.requests.total);
  expect(samples.at(-1)!.totalRequests).toBe(result.requests.total);
  // The measured time ends with the final window (not after the engine's summary work). An
  // open run's is its attack plus wait (first scheduled send to last answer, so the Duration,
  // attack and wait a report shows add up): it starts within the first window, after the
  // engine's start-up there, and ends with the last.
  const measuredSeconds = measured.reduce((a, s) => a + s.intervalSeconds, 0);
  const { attackSeconds: attack, waitSeconds: wait } = result;
  if (attack !== null && wait !== null && attack + wait > 0) {
    expect(result.durationSeconds).toBeCloseTo(attack + wait, 9);
    expect(measuredSeconds - result.durationSeconds).toBeGreaterThanOrEqual(-0.005);
    expect(measuredSeconds - result.durationSeconds).toBeLessThan(measured[0]!.intervalSeconds);
  } else {
    expect(result.durationSeconds).toBeCloseTo(measuredSeconds, 2);
  }
}

describe('live samples', () => {
  it(
    'open model, 100 req/s for 2 s: no window, the last included, reports under half the rate',
    { tags: ['timing'] },
    async () => {
      const s = await serve();
      const { result, samples } = await runTarget(
        oneTarget(s.url, { load: { model: 'open', rate: 100, durationSeconds: 2 } }),
      );
      expect(result.status).toBe('completed');
      expect(result.requests.total).toBe(200);
      expectHonestSamples(samples, result);
      for (const x of samples) {
        expect(x.requestsPerSecond).toBeGreaterThanOrEqual(50);
        expect(x.requestsPerSecond).toBeLessThanOrEqual(150);
      }
      // The tick at the planned end (2 s) is folded into the final window: not a sliver of wind-down.
      expect(samples.at(-1)!.intervalSeconds).toBeGreaterThan(0.25);
    },
  );

  it(
    'closed model with a rate cap, 100 ms ticks: the final window is a full share of the schedule',
    { tags: ['timing'] },
    async () => {
      const s = await serve();
      const { result, samples } = await runTarget(
        oneTarget(s.url, {
          load: { model: 'closed', connections: 4, rate: 200, limit: { kind: 'duration', seconds: 1 } },
          options: { sampleIntervalMs: 100 },
        }),
      );
      expect(result.status).toBe('completed');
      expectHonestSamples(samples, result);
      const last = samples.at(-1)!;
      // A full share: its rate is the run's within a factor of two (a sliver's count over a
      // full tick, or a tick's over a sliver, is off by far more). Against the run's own rate,
      // not the cap's 200: four connections to a server slowed by a busy machine held 79/s.
      const rate = result.throughput.requestsPerSecond;
      expect(last.requestsPerSecond).toBeGreaterThanOrEqual(rate / 2);
      expect(last.requestsPerSecond).toBeLessThanOrEqual(Math.min(2 * rate, 300));
      expect(last.intervalSeconds).toBeGreaterThan(0.025);
    },
  );

  it(
    'marks the final sample of a warmed-up autocannon run, and of a stopped run',
    { tags: ['timing'] },
    async () => {
      const s = await serve();
      const warmed = await runTarget(
        autocannonTarget(s.url, {
          load: { model: 'closed', connections: 2, limit: { kind: 'duration', seconds: 1 } },
          options: { warmupSeconds: 0.5, sampleIntervalMs: 200 },
        }),
      );
      expect(warmed.samples.some((x) => x.warmup)).toBe(true);
      expectHonestSamples(warmed.samples, warmed.result);

      const stopped = await runTarget(
        oneTarget(s.url, {
          load: { model: 'closed', connections: 2, limit: { kind: 'duration', seconds: 30 } },
          options: { sampleIntervalMs: 200 },
        }),
        { stopAfterMs: 500 },
      );
      expect(stopped.result.status).toBe('cancelled');
      expectHonestSamples(stopped.samples, stopped.result);
    },
  );
});
