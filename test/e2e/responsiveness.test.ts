import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNginx, type NginxServer } from '../helpers/nginx.ts';
import {
  ARTIFACTS,
  fillScenario,
  startFrameTimer,
  stopFrameTimer,
  waitForStatus,
  type AppPage,
} from './app-page.ts';
import { useE2eApp } from './fixture.ts';

/**
 * How smooth the UI stays while a run pushes as many requests per second as this machine
 * gives (nginx on loopback, the engine in its worker, Chromium and the web host on the same
 * two cores). Frame intervals come from requestAnimationFrame in the page. The figures are
 * printed and written to test-artifacts/frame-times.json; the test asserts only that frames
 * were measured and the run completed, never a time (the machine is shared).
 */

const RUN_SECONDS = 5;
const CONNECTIONS = 50;

const e2e = useE2eApp();
let nginx: NginxServer;
let app: AppPage;

/** Nearest-rank percentile of a list of numbers. */
function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

function frameStats(frames: readonly number[]) {
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    count: frames.length,
    p50Ms: round(percentile(frames, 50)),
    p95Ms: round(percentile(frames, 95)),
    p99Ms: round(percentile(frames, 99)),
    maxMs: round(Math.max(0, ...frames)),
  };
}

beforeAll(async () => {
  nginx = await startNginx({ workers: 1 });
  app = await e2e.open();
});

afterAll(async () => {
  await nginx?.stop();
});

describe('UI responsiveness under load', () => {
  it('measures frame times while a run pushes as many req/s as the machine gives', async () => {
    const { page } = app;
    const report: Record<string, unknown> = {
      target: 'nginx 1 worker, 5-byte test.html, 127.0.0.1',
      connections: CONNECTIONS,
      seconds: RUN_SECONDS,
    };

    // Baseline: the same page, idle, for comparison with the figures under load.
    await startFrameTimer(app);
    await page.waitForTimeout(1500);
    report.idle = frameStats(await stopFrameTimer(app));

    await fillScenario(app, {
      url: `${nginx.httpUrl}test.html`,
      connections: CONNECTIONS,
      seconds: RUN_SECONDS,
    });
    const runs: Record<string, unknown>[] = [];
    await page.getByTestId('section-measurement').locator('.section__head').click();
    // The default 1 s tick, then the fastest tick the schema allows (ten chart updates a second).
    for (const sampleIntervalMs of [1000, 100]) {
      await page.getByTestId('opt-sample-interval').fill(String(sampleIntervalMs));
      app.events.length = 0;
      await startFrameTimer(app);
      await page.getByTestId('run-button').click();
      expect(await waitForStatus(app, ['completed', 'cancelled', 'failed'], 60_000)).toBe('completed');
      const frames = await stopFrameTimer(app);
      const [result] = app.results();
      expect(result!.status).toBe('completed');
      expect(frames.length).toBeGreaterThan(0);
      const samples = app.samples().length;
      const run = {
        sampleIntervalMs,
        requestsPerSecond: Math.round(result!.throughput.requestsPerSecond),
        requests: result!.requests.total,
        samples,
        frames: frameStats(frames),
      };
      runs.push(run);
      console.log(
        `frame times at ${run.requestsPerSecond} req/s, ${sampleIntervalMs} ms tick (${samples} samples): ` +
          `p50 ${run.frames.p50Ms} ms, p95 ${run.frames.p95Ms} ms, max ${run.frames.maxMs} ms over ${run.frames.count} frames`,
      );
    }
    report.runs = runs;
    writeFileSync(join(ARTIFACTS, 'frame-times.json'), `${JSON.stringify(report, null, 2)}\n`);
    await app.screenshot('e2e-under-load.png');
  });
});
