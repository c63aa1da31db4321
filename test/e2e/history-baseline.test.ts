import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedEngine } from '../helpers/scripted-engine.ts';
import { handlers, startHttpServer, type TestServer } from '../helpers/servers.ts';
import { ARTIFACTS, fillScenario, waitForStatus, type AppPage } from './app-page.ts';
import { useE2eApp } from './fixture.ts';

/*
 * Baselines in History, in Chromium through the web host: a run marked as the baseline of its
 * scenario, the same scenario run again, and the new run's "vs baseline" figures (delta,
 * percentage, noise verdict, from the host's `trebuchet diff` computation) and the diff view's
 * overlaid percentile curves and throughput series. On a scripted engine whose server answers
 * the second run a millisecond slower.
 */

let runs = 0;
const e2e = useE2eApp({
  engine: new ScriptedEngine({ server: () => ({ latencyMs: runs++ === 0 ? [4, 5, 6] : [5, 6, 7] }) }),
});
/** The host saves and answers on a machine shared with other test runs: give it time. */
const POLL = { timeout: 20_000 };
let server: TestServer;

beforeAll(async () => {
  server = await startHttpServer(handlers.ok('hello'));
});
afterAll(async () => {
  await server?.close();
});

async function runOnce(app: AppPage): Promise<void> {
  await app.page.getByTestId('tab-run').click();
  await app.page.getByTestId('run-button').click();
  expect(await waitForStatus(app, ['completed', 'cancelled', 'failed'])).toBe('completed');
}

describe('baselines in History', () => {
  it('marks a baseline, runs again, shows the deltas beside each figure and the overlay charts', async () => {
    const app = await e2e.open();
    const { page } = app;
    await fillScenario(app, { url: server.url, connections: 2, seconds: 0.6, name: 'baseline me' });
    // Windows of 100 ms: a single run's evidence of its own noise (six windows a run, not one).
    await page.getByTestId('section-measurement').getByRole('button').first().click();
    await page.getByTestId('opt-sample-interval').fill('100');
    await runOnce(app);
    await page.getByTestId('tab-history').click();
    const rows = page.getByTestId('history-row');
    await expect.poll(() => rows.count(), POLL).toBe(1);
    await rows.first().getByTestId('history-set-baseline').click();
    await expect.poll(() => rows.first().getByTestId('history-baseline-badge').count(), POLL).toBe(1);
    // The baseline itself is shown against nothing.
    await rows.first().getByTestId('history-open').click();
    await expect.poll(() => page.getByTestId('record-name').textContent(), POLL).toBe('baseline me');
    expect(await page.getByTestId('vs-baseline').count()).toBe(0);

    await runOnce(app);
    await page.getByTestId('tab-history').click();
    await expect.poll(() => rows.count(), POLL).toBe(2);
    // Newest first: the new run, not a baseline, opened against the one that is.
    expect(await rows.nth(0).getByTestId('history-baseline-badge').count()).toBe(0);
    expect(await rows.nth(1).getByTestId('history-baseline-badge').count()).toBe(1);
    await rows.nth(0).getByTestId('history-open').click();
    const table = page.getByTestId('vs-baseline-table');
    await expect.poll(() => table.count(), POLL).toBe(1);
    const figures = await Promise.all(
      (await table.getByTestId('vs-baseline-row').all()).map(async (tr) => ({
        figure: await tr.getAttribute('data-figure'),
        verdict: await tr.getAttribute('data-verdict'),
        cells: await tr.locator('td').allTextContents(),
      })),
    );
    expect(figures.map((f) => f.figure)).toEqual([
      ...['rps', 'mean', 'p50', 'p90', 'p99', 'p99.9', 'max'],
      ...['errors', 'non2xx', 'late', 'cpu'],
    ]);
    const rps = figures[0]!;
    // This run, the baseline, the change, its percentage, the noise verdict.
    const [now = '', base = '', delta = '', percent = '', verdict = ''] = rps.cells;
    const n = (t: string): number => Number(t.replace(/[^0-9.]/g, ''));
    const change = Math.abs(n(now) - n(base));
    expect(n(now)).toBeGreaterThan(0);
    expect(n(base)).toBeGreaterThan(0);
    // The figures shown are rounded: the change and its percentage agree with them to within that.
    expect(Math.abs(n(delta) - change)).toBeLessThanOrEqual(0.02);
    expect(percent).toMatch(/^[-+±][\d,.]+ %$/);
    expect(Math.abs(n(percent) - (change / n(base)) * 100)).toBeLessThan(0.1);
    expect(['beyond-noise', 'within-noise']).toContain(rps.verdict);
    expect(verdict).toMatch(/^(beyond|within) noise \(\|t\| /);
    // A single run each: the host said which test judged the latency (KS on the histograms),
    // and on a few windows that it could not have told a change ("not enough evidence").
    expect(figures.find((f) => f.figure === 'p99')!.cells[4]).toMatch(
      /^(beyond noise|within noise|not enough evidence) \(D /,
    );
    await page.getByTestId('vs-baseline').screenshot({ path: join(ARTIFACTS, 'history-vs-baseline.png') });

    await page.getByTestId('vs-baseline-open').click();
    const percentiles = page.getByTestId('diff-chart-percentiles');
    const throughput = page.getByTestId('diff-chart-throughput');
    await expect.poll(() => percentiles.getAttribute('data-points'), POLL).not.toBeNull();
    // Both curves: every reported percentile of each run; both series: each run's samples.
    expect(Number(await percentiles.getAttribute('data-points'))).toBeGreaterThanOrEqual(2 * 5);
    expect(Number(await throughput.getAttribute('data-points'))).toBeGreaterThanOrEqual(2);
    await page.getByTestId('run-diff').screenshot({ path: join(ARTIFACTS, 'history-baseline-diff.png') });
  });
});
