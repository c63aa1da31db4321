import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatCount } from '../../shared/figures/units.ts';
import { ScriptedEngine } from '../helpers/scripted-engine.ts';
import { handlers, startHttpServer, type TestServer } from '../helpers/servers.ts';
import { waitForStatus } from './app-page.ts';
import { useE2eApp } from './fixture.ts';

// The stage rows of the real engine's runs are test/integration/stages.test.ts's.
const e2e = useE2eApp({ engine: new ScriptedEngine() });
let target: TestServer;

beforeAll(async () => {
  target = await startHttpServer(handlers.ok('staged'));
});

afterAll(async () => {
  await target?.close();
});

describe('a staged load in Chromium against the web host and a scripted engine', () => {
  it('builds a stage plan in the editor, previews its curve and reports one row per stage', async () => {
    const app = await e2e.open();
    const { page } = app;
    await page.getByTestId('target-url-0').fill(target.url);
    await page.getByTestId('load-model-open').click();
    // The switch's input is drawn by its label, as a person sees it.
    await page.getByText('Ramp the rate in stages').click();
    expect(await page.getByTestId('load-staged').isChecked()).toBe(true);

    // Stages on: the table replaces the rate and the duration, starting from ramp, hold, ramp down.
    expect(await page.getByTestId('load-rate').count()).toBe(0);
    expect(await page.getByTestId('stages-editor').locator('.stage-row').count()).toBe(3);
    // A plan of two stages: 0 to 100 req/s over 1 s, then 1 s at 100.
    await page.getByTestId('stage-2-remove').click();
    await page.getByTestId('stage-0-duration').fill('1s');
    await page.getByTestId('stage-0-target').fill('100');
    await page.getByTestId('stage-1-duration').fill('1');
    await page.getByTestId('stage-1-target').fill('100');
    // The preview draws 0 at the start, then each stage's end: a ramp, then a flat line.
    const d = await page.getByTestId('stage-preview-line').getAttribute('d');
    const points = d!
      .slice(1)
      .split(' L')
      .map((p) => p.split(',').map(Number));
    expect(points).toHaveLength(3);
    expect(points[0]![1]).toBeGreaterThan(points[1]![1]!);
    expect(points[1]![1]).toBe(points[2]![1]);
    expect(await page.getByTestId('stage-preview').textContent()).toContain('2 s, peak 100 req/s');

    // A target below 0 is named beside its field and holds the run back; fixed, the run goes.
    await page.getByTestId('stage-1-target').fill('-3');
    expect(await page.getByTestId('run-button').isDisabled()).toBe(true);
    expect(await page.getByTestId('error-load.stages.1.target').textContent()).toBe(
      'stage target must be at least 0',
    );
    await page.getByTestId('stage-1-target').fill('100');
    await page.getByTestId('run-button').click();
    expect(await waitForStatus(app, ['completed', 'cancelled', 'failed'])).toBe('completed');

    const [result] = app.results();
    expect(result!.load).toMatchObject({
      model: 'open',
      stages: [
        { durationSeconds: 1, target: 100 },
        { durationSeconds: 1, target: 100 },
      ],
    });
    const stages = result!.stages!;
    expect(stages.map((s) => s.planned)).toEqual([50, 100]);
    expect(stages.reduce((n, s) => n + s.requests, 0)).toBe(result!.requests.total);

    // The report's stage table: one row per stage, the counts the result holds.
    const rows = page.getByTestId('stages-table').locator('tbody tr');
    expect(await rows.count()).toBe(2);
    for (const [i, s] of stages.entries()) {
      const cells = await rows.nth(i).locator('td').allTextContents();
      expect(cells[0]).toBe(i === 0 ? '0.0-1.0' : '1.0-2.0');
      expect(cells[1]).toBe(i === 0 ? '0 → 100 req/s' : '100 req/s');
      expect(cells[3]).toBe(formatCount(s.requests));
    }
    // The live throughput chart drew the stages' target beside the req/s.
    const chart = page.getByTestId('chart-throughput');
    expect(Number(await chart.getAttribute('data-points'))).toBeGreaterThanOrEqual(2);
    expect(await chart.getAttribute('data-series')).toBe('rps target');
    await app.screenshot('stages-report.png', true);
  });
});
