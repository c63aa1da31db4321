import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_PERCENTILES } from '../../shared/model/defaults.ts';
import { targetUrlSchema } from '../../shared/model/scenario.ts';
import { parseWith } from '../../shared/model/validation.ts';
import { formatCount, formatMsValue, formatRateValue } from '../../shared/figures/units.ts';
import { ScriptedEngine } from '../helpers/scripted-engine.ts';
import { handlers, refusedPort, startHttpServer, type TestServer } from '../helpers/servers.ts';
import { fillScenario, pointLog, waitForPoints, waitForStatus, watchThroughputPoints } from './app-page.ts';
import { useE2eApp } from './fixture.ts';

// One run against a real server on the real engine (the run's end-to-end test), then the run
// view's behaviour on a scripted engine: each run sends 3 samples and waits to be stopped or
// resumed, so a test acts on a run that is still going however slow the machine is.
const e2e = useE2eApp();
const engine = new ScriptedEngine({ pauseAfter: 3 });
let target: TestServer;

beforeAll(async () => {
  target = await startHttpServer(handlers.ok('hello from the e2e target'));
});

afterAll(async () => {
  await target?.close();
});

describe('dashboard in Chromium against the web host and the real engine', () => {
  it('runs 50 connections for 3 s, draws the charts live and reports the req/s of the result', async () => {
    const app = await e2e.open();
    const { page } = app;
    await fillScenario(app, { url: target.url, connections: 50, seconds: 3 });
    await watchThroughputPoints(app);
    await page.getByTestId('run-button').click();

    await waitForPoints(app, 1);
    await app.screenshot('e2e-running.png');
    expect(await waitForStatus(app, ['completed', 'cancelled', 'failed'])).toBe('completed');

    // The throughput chart gained points one by one while the run was still going.
    const whileRunning = (await pointLog(app)).filter((e) => e.status === 'running').map((e) => e.points);
    expect(whileRunning.filter((n) => n > 0).length).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < whileRunning.length; i++)
      expect(whileRunning[i]).toBeGreaterThanOrEqual(whileRunning[i - 1]!);

    const [result] = app.results();
    expect(result).toBeDefined();
    expect(result!.status).toBe('completed');
    expect(result!.load).toMatchObject({
      model: 'closed',
      connections: 50,
      limit: { kind: 'duration', seconds: 3 },
    });
    expect(result!.requests.total).toBeGreaterThan(0);
    expect(target.requests).toBeGreaterThanOrEqual(result!.requests.total);

    // The summary shows the result's figures, formatted as the report formats them.
    const rps = page.getByTestId('summary-rps');
    expect(await rps.textContent()).toBe(formatRateValue(result!.throughput.requestsPerSecond));
    expect(Number(await rps.getAttribute('data-value'))).toBe(result!.throughput.requestsPerSecond);
    expect(await page.getByTestId('summary-requests').textContent()).toBe(
      formatCount(result!.requests.total),
    );

    // Every window of the run is a point on the chart (a sample under the last one's seq, the
    // engine's final fold, replaces it), the same windows as the result's (and its CSV's) samples.
    const samples = app.samples();
    const windows = new Set(samples.map((s) => s.seq)).size;
    expect(windows).toBeGreaterThanOrEqual(3);
    expect(Number(await page.getByTestId('chart-throughput').getAttribute('data-points'))).toBe(windows);
    expect(result!.samples.map((s) => s.seq)).toEqual([...new Set(samples.map((s) => s.seq))]);

    // ab's percentile table, row by row, and the percentile distribution chart.
    const rows = page.getByTestId('percentile-table').locator('tr');
    expect(await rows.count()).toBe(REPORT_PERCENTILES.length);
    const p50 = await rows.first().locator('td.num').textContent();
    expect(p50).toBe(formatMsValue(result!.latency!.percentiles['50']!));
    expect(
      Number(await page.getByTestId('chart-percentiles').getAttribute('data-points')),
    ).toBeGreaterThanOrEqual(REPORT_PERCENTILES.length);
    expect(
      await page.getByTestId('status-table').locator('tr[data-code="200"] td').first().textContent(),
    ).toBe(formatCount(result!.statusCodes['200']!));

    // The whole page: its top is the 1280x800 window's view, so that is not taken again apart.
    await app.screenshot('report-light-full.png', true);
    await page.emulateMedia({ colorScheme: 'dark' });
    // Charts redraw in the dark palette on the media change; give them a frame.
    await page.waitForTimeout(200);
    await app.screenshot('report-dark-full.png', true);
  });
});

describe('the run view on a scripted engine', () => {
  beforeAll(() => e2e.useEngine(engine));

  it('stops a run half-way and shows the partial result marked cancelled', async () => {
    const app = await e2e.open();
    const { page } = app;
    await fillScenario(app, { url: target.url, connections: 20, seconds: 20 });
    await page.getByTestId('run-button').click();
    await waitForPoints(app, 2);
    await page.getByTestId('stop-button').click();
    expect(await waitForStatus(app, ['completed', 'cancelled', 'failed'])).toBe('cancelled');

    const [result] = app.results();
    expect(result!.status).toBe('cancelled');
    expect(result!.durationSeconds).toBeGreaterThan(1);
    expect(result!.durationSeconds).toBeLessThan(20);
    expect(result!.requests.total).toBeGreaterThan(0);
    expect(await page.getByTestId('report').getAttribute('data-status')).toBe('cancelled');
    expect(await page.getByTestId('run-status').textContent()).toContain('partial');
    // The progress bar stays where the run was stopped.
    expect(Number(await page.getByTestId('progress').getAttribute('aria-valuenow'))).toBeLessThan(100);
    expect(await page.getByTestId('summary-requests').textContent()).toBe(
      formatCount(result!.requests.total),
    );
    expect(await page.getByTestId('summary-rps').textContent()).toBe(
      formatRateValue(result!.throughput.requestsPerSecond),
    );
    await app.screenshot('e2e-cancelled.png');

    expect(engine.stopped).toEqual([0]);

    // Escape stops too: run again with the keyboard and stop with Escape.
    app.events.length = 0;
    await page.keyboard.press('Control+Enter');
    await waitForPoints(app, 1);
    await page.keyboard.press('Escape');
    expect(await waitForStatus(app, ['completed', 'cancelled', 'failed'])).toBe('cancelled');
    expect(app.results()[0]!.status).toBe('cancelled');
  });

  it('takes a run up again after a reload: the live chart goes on and the result arrives', async () => {
    const app = await e2e.open();
    const { page } = app;
    await fillScenario(app, { url: target.url, connections: 10, seconds: 6, name: 'survives a reload' });
    const clicked = Date.now();
    await page.getByTestId('run-button').click();
    await waitForPoints(app, 2);
    // The run has been going 2 s when the page reloads: its clock must not start again at 0.
    await page.waitForTimeout(Math.max(0, 2000 - (Date.now() - clicked)));

    await page.reload();
    await page.getByTestId('target-url-0').waitFor();
    // The page shows the run going on, with the samples it had before the reload.
    expect(await waitForStatus(app, ['running', 'completed'])).toBe('running');
    const replayed = Number(await page.getByTestId('chart-throughput').getAttribute('data-points'));
    expect(replayed).toBeGreaterThanOrEqual(2);
    expect(await page.getByTestId('scenario-name').inputValue()).toBe('survives a reload');
    expect(await page.getByTestId('target-url-0').inputValue()).toBe(target.url);
    expect(await page.getByTestId('stop-button').isVisible()).toBe(true);
    // The clock goes on from where the run is, not from the reload.
    const elapsed = (await page.getByTestId('progress-elapsed').textContent()) ?? '';
    expect(Number(elapsed.split(':')[1])).toBeGreaterThanOrEqual(2);
    await watchThroughputPoints(app);
    engine.resume();
    await waitForPoints(app, replayed + 1);
    await app.screenshot('e2e-reattached.png');

    expect(await waitForStatus(app, ['completed', 'cancelled', 'failed'])).toBe('completed');
    const whileRunning = (await pointLog(app)).filter((e) => e.status === 'running').map((e) => e.points);
    expect(Math.max(...whileRunning)).toBeGreaterThan(replayed);
    const [result] = app.results();
    expect(result!.status).toBe('completed');
    expect(await page.getByTestId('summary-rps').textContent()).toBe(
      formatRateValue(result!.throughput.requestsPerSecond),
    );
    // The chart holds the whole run, from before the reload and after.
    expect(Number(await page.getByTestId('chart-throughput').getAttribute('data-points'))).toBe(
      result!.samples.length,
    );
    // The host saves the run before its 'done' event, which follows the target's result.
    await page.getByTestId('run-saved').waitFor({ timeout: 10_000 });
  });

  it("shows an invalid URL's message next to the field and keeps Run disabled", async () => {
    const app = await e2e.open();
    const { page } = app;
    const expected = parseWith(targetUrlSchema, 'not a url');
    expect(expected.ok).toBe(false);
    await page.getByTestId('target-url-0').fill('not a url');
    const message = page.getByTestId('error-targets.0.url');
    expect(await message.textContent()).toBe(!expected.ok && expected.issues[0]!.message);
    expect(await page.getByTestId('target-url-0').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByTestId('run-button').isDisabled()).toBe(true);
    // The message sits right under its field.
    const field = await page.getByTestId('target-url-0').boundingBox();
    const msg = await message.boundingBox();
    expect(msg!.y).toBeGreaterThan(field!.y);
    expect(msg!.y - (field!.y + field!.height)).toBeLessThan(40);
    // The shortcut does not start it either.
    await page.keyboard.press('Control+Enter');
    expect(await page.getByTestId('welcome').isVisible()).toBe(true);
    expect(app.events).toEqual([]);
    await app.screenshot('e2e-invalid-url.png');

    await page.getByTestId('target-url-0').fill(target.url);
    expect(await message.count()).toBe(0);
    expect(await page.getByTestId('run-button').isEnabled()).toBe(true);
  });

  it('shows a clear error for a target that is down', async () => {
    const app = await e2e.open();
    const { page } = app;
    const port = await refusedPort();
    await fillScenario(app, { url: `http://127.0.0.1:${port}/`, connections: 5, seconds: 1 });
    await page.getByTestId('run-button').click();
    const status = await waitForStatus(app, ['completed', 'cancelled', 'failed']);
    const [result] = app.results();
    expect(result!.status).toBe(status);
    expect(result!.requests.responses).toBe(0);
    const error = page.getByTestId('run-error');
    expect(await error.isVisible()).toBe(true);
    expect((await error.textContent())!.toLowerCase()).toContain('refused');
    // No figure cards or empty charts for a target that never answered: the error is the report.
    expect(await page.getByTestId('summary').count()).toBe(result!.requests.total > 0 ? 1 : 0);
    expect(await page.getByTestId('percentile-table').count()).toBe(0);
    await app.screenshot('e2e-target-down.png');
  });
});
