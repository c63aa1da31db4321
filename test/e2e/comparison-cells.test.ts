import type { Page } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatRateValue } from '../../shared/figures/units.ts';
import { openOffline, type TestBrowser } from '../helpers/browser.ts';
import { ScriptedEngine } from '../helpers/scripted-engine.ts';
import { handlers, startHttpServer, type TestServer } from '../helpers/servers.ts';
import { ARTIFACTS, fillPlan, fillScenario, saveDownload, waitForStatus } from './app-page.ts';
import { useE2eApp } from './fixture.ts';

/*
 * A comparison as complete as a single run, in Chromium against the web host and the real
 * engine: every cell opens its run's full report, the matrix shows the columns asked for and
 * marks every cell whose figures are not the server's, and a run whose every response is a
 * 404 never looks like a clean success. The comparison's end-to-end test: the real engine,
 * but for the HTML export, which is about the page (the figures on screen are the file's): it
 * runs on the scripted engine, the missing page answering 404.
 */

const e2e = useE2eApp();
let alpha: TestServer;
let missing: TestServer;
let downloads: string;
/** A context of its own for opening exported files offline (the app's keeps its network). */
let offline: TestBrowser;
/** The HTML export's engine: the missing page's load answers 404 as its pre-flight did. */
const scripted = new ScriptedEngine({
  server: (url) => (url.startsWith(missing.url) ? { status: 404 } : {}),
});

beforeAll(async () => {
  downloads = mkdtempSync(join(tmpdir(), 'trebuchet-e2e-cells-'));
  offline = await e2e.context();
  alpha = await startHttpServer(handlers.ok('hello from alpha', { server: 'alpha/1.0' }));
  missing = await startHttpServer(handlers.status(404, undefined, 'no such page'));
});

afterAll(async () => {
  await alpha?.close();
  await missing?.close();
  if (downloads) rmSync(downloads, { recursive: true, force: true });
});

/** The focused element's test id and cell index, as the page sees it. */
function focused(page: Page) {
  return page.evaluate(() => {
    const el = (
      globalThis as unknown as { document: { activeElement: { dataset: Record<string, string> } | null } }
    ).document.activeElement;
    return { testId: el?.dataset.testid ?? null, cell: el?.dataset.cellIndex ?? null };
  });
}

describe('a comparison whose every cell opens its run', () => {
  it('opens a cell and a repetition as a full report, marks the all-404 server, and goes back by keyboard', async () => {
    const app = await e2e.open();
    const { page } = app;
    await page.getByTestId('tab-compare').click();
    await fillPlan(
      app,
      {
        name: 'alpha vs a missing page',
        targets: [
          { name: 'alpha', url: alpha.url },
          { name: 'missing', url: missing.url },
        ],
      },
      { levels: '1, 2', seconds: 0.5, repetitions: 2, pause: 0 },
    );
    await page.getByTestId('compare-run').click();
    // The missing page is measured on purpose: past the pre-flight's stop with "Run anyway".
    await page.getByTestId('preflight-fix-run-anyway').click();
    await page.getByTestId('comparison-saved').waitFor({ timeout: 90_000 });

    // The missing page's cells are marked in the matrix and said in words under it.
    const rows = page.getByTestId('comparison-cell');
    expect(await rows.count()).toBe(4);
    const verdicts = await Promise.all(
      (await rows.all()).map(async (r) => [
        await r.getAttribute('data-target'),
        await r.getAttribute('data-verdict'),
      ]),
    );
    expect(verdicts).toEqual([
      ['alpha', 'clean'],
      ['missing', 'all-non-2xx'],
      ['alpha', 'clean'],
      ['missing', 'all-non-2xx'],
    ]);
    const caveats = page.getByTestId('matrix-caveat');
    expect(await caveats.count()).toBe(2);
    expect(await caveats.first().textContent()).toContain(
      'Every response was 404 Not Found over 2 runs: check the path.',
    );
    expect(await rows.nth(1).getByTestId('cell-verdict').textContent()).toBe('all non-2xx · all 404');
    // In the progress matrix too: the missing page's four runs in the caveat's colour.
    expect(await page.getByTestId('matrix-progress').locator('[data-verdict="caveat"]').count()).toBe(4);
    await app.screenshot('e2e-compare-caveats.png', true);

    // The per-repetition table: a row per run, its req/s the run's own.
    const reps = page.getByTestId('repetition-row');
    expect(await reps.count()).toBe(8);

    // A cell opens its first run's full report: the Run tab's parts, for this run alone.
    await rows.nth(0).getByTestId('open-run').click();
    const cell = page.getByTestId('cell-run');
    await cell.waitFor();
    expect(await page.getByTestId('cell-run-title').textContent()).toBe('alpha · http · c=1');
    // The focus moves to the way back.
    expect((await focused(page)).testId).toBe('cell-back');
    expect(await page.getByTestId('comparison-report').count()).toBe(0);
    for (const part of [
      'verdict',
      'summary',
      'percentile-table',
      'status-table',
      'error-set-empty',
      'generator-facts',
    ]) {
      expect(await cell.getByTestId(part).count(), part).toBe(1);
    }
    expect(await cell.getByTestId('verdict').getAttribute('data-state')).toBe('clean');
    expect(Number(await cell.getByTestId('chart-history-rps').getAttribute('data-points'))).toBeGreaterThan(
      0,
    );
    // Its repetitions, one tab each; the second opens the second run.
    const tabs = cell.getByTestId('target-strip').getByRole('tab');
    expect(await tabs.count()).toBe(2);
    const firstRps = await cell.getByTestId('summary-rps').textContent();
    await tabs.nth(1).click();
    await expect.poll(() => cell.getByText('repetition 2 of 2').count()).toBe(1);
    expect(await cell.getByTestId('summary-rps').textContent()).not.toBe(firstRps);
    await app.screenshot('e2e-cell-run.png', true);

    // Back to the matrix with the keyboard: then the focus is on the cell's button again.
    await page.getByTestId('cell-back').focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('comparison-report').waitFor();
    const back = await focused(page);
    expect(back.testId).toBe('open-run');
    expect(back.cell).toBe(await rows.nth(0).getByTestId('open-run').getAttribute('data-cell-index'));

    // The all-404 cell's run: its verdict says so, not a clean success.
    await rows.nth(1).getByTestId('open-run').click();
    await cell.waitFor();
    expect(await cell.getByTestId('verdict').getAttribute('data-state')).toBe('all-non-2xx');
    expect(await cell.getByTestId('verdict').textContent()).toContain(
      'Every response was 404 Not Found: check the path.',
    );
    expect(await cell.getByTestId('summary-card-success').getAttribute('data-caveat')).toBe('true');
    expect(await cell.getByTestId('summary-success').textContent()).toBe('0.00%');
    await app.screenshot('e2e-cell-run-404.png');
    await page.emulateMedia({ colorScheme: 'dark' });
    await app.screenshot('e2e-cell-run-404-dark.png');
    await page.getByTestId('cell-back').click();
    await app.screenshot('e2e-compare-caveats-dark.png', true);
    await page.emulateMedia({ colorScheme: 'light' });

    // A square of the matrix's progress opens that very repetition.
    await page.getByTestId('matrix-progress').getByTestId('open-repetition').nth(3).click();
    await cell.waitFor();
    expect(await page.getByText('repetition 2 of 2').count()).toBe(1);
    await page.getByTestId('cell-back').click();

    // The columns: the picker adds mean latency and takes p95 away.
    const header = (id: string) =>
      page.getByTestId('comparison-table').locator(`thead th[data-column="${id}"]`);
    expect(await header('latencyMean').count()).toBe(0);
    await page.getByTestId('column-picker-toggle').click();
    await page.getByTestId('column-latencyMean').check();
    await page.getByTestId('column-p95').uncheck();
    expect(await header('latencyMean').count()).toBe(1);
    expect(await header('p95').count()).toBe(0);
    await app.screenshot('e2e-column-picker.png');
    const rps = Number(await rows.nth(0).getAttribute('data-rps'));
    expect(await rows.nth(0).getByTestId('cell-rps').textContent()).toBe(formatRateValue(rps));
  });
});

describe('a run whose every response is a 404', () => {
  it('is not shown as a clean success: the badge and the verdict say so', async () => {
    const app = await e2e.open();
    const { page } = app;
    await fillScenario(app, { url: missing.url, connections: 2, seconds: 0.5 });
    await page.getByTestId('run-button').click();
    // Measured on purpose: the pre-flight stops at the 404 (the run failed, as preflight-status
    // waits for too) and "Run anyway" runs it; a run that failed again says so, not a timeout.
    expect(await waitForStatus(app, ['completed', 'cancelled', 'failed'])).toBe('failed');
    await page.getByTestId('run-anyway').click();
    expect(await waitForStatus(app, ['completed', 'cancelled', 'failed'])).toBe('completed');
    const badge = page.getByTestId('run-status');
    expect(await badge.textContent()).toBe('completed · all non-2xx');
    expect(await badge.getAttribute('class')).toContain('badge--caveat');
    expect(await badge.getAttribute('class')).not.toContain('badge--completed');
    const verdict = page.getByTestId('verdict');
    expect(await verdict.getAttribute('data-state')).toBe('all-non-2xx');
    expect(await page.getByTestId('verdict-state').textContent()).toBe('all non-2xx');
    expect(await page.getByTestId('summary-success').textContent()).toBe('0.00%');
    await app.screenshot('e2e-run-all-404.png');
    await page.emulateMedia({ colorScheme: 'dark' });
    await app.screenshot('e2e-run-all-404-dark.png');
    await page.emulateMedia({ colorScheme: 'light' });
  });
});

describe('the HTML export of the UI', () => {
  beforeAll(() => e2e.useEngine(scripted));

  it('downloads one self-contained file for a run and for a comparison, with the figures on screen', async () => {
    const app = await e2e.open();
    const { page } = app;
    await fillScenario(app, { url: alpha.url, connections: 2, seconds: 0.5, name: 'alpha for the record' });
    await page.getByTestId('run-button').click();
    expect(await waitForStatus(app, ['completed', 'cancelled', 'failed'])).toBe('completed');
    const run = await saveDownload(page, 'export-html', downloads);
    expect(run.name).toBe('alpha-for-the-record.html');
    const shownRps = await page.getByTestId('summary-rps').textContent();
    const runPage = await openOffline(offline.context, run.path);
    try {
      expect(runPage.blocked).toEqual([]);
      expect(await runPage.page.locator('[data-figure="Requests/s"] .value').textContent()).toBe(shownRps);
      expect(await runPage.page.locator('[data-testid="run-1-verdict"]').getAttribute('data-state')).toBe(
        'clean',
      );
      expect(await runPage.page.locator('[data-testid="run-1-chart-throughput"] svg').count()).toBe(1);
    } finally {
      await runPage.page.close();
    }

    await page.getByTestId('tab-compare').click();
    await fillPlan(
      app,
      {
        name: 'html of a comparison',
        targets: [
          { name: 'alpha', url: alpha.url },
          { name: 'missing', url: missing.url },
        ],
      },
      { levels: '1', seconds: 0.5, repetitions: 1, pause: 0 },
    );
    await page.getByTestId('compare-run').click();
    await page.getByTestId('preflight-fix-run-anyway').click();
    await page.getByTestId('comparison-saved').waitFor({ timeout: 60_000 });
    const rows = page.getByTestId('comparison-cell');
    const screen = await Promise.all((await rows.all()).map((r) => r.getByTestId('cell-rps').textContent()));
    const file = await saveDownload(page, 'export-html', downloads);
    expect(file.name).toBe('html-of-a-comparison.html');
    const report = await openOffline(offline.context, file.path);
    try {
      expect(report.blocked).toEqual([]);
      const matrix = report.page.locator('[data-testid="matrix"] tbody tr');
      expect(await matrix.count()).toBe(2);
      const head = await report.page.locator('[data-testid="matrix"] thead th').allTextContents();
      const rpsAt = head.indexOf('req/s');
      for (const [i, rps] of screen.entries()) {
        expect(await matrix.nth(i).locator('th, td').nth(rpsAt).textContent()).toBe(rps);
      }
      expect(await report.page.locator('[data-testid="chart-compare-bars"] svg').count()).toBe(1);
      expect((await report.page.textContent('body')) ?? '').toContain('Every response was 404 Not Found');
      await report.page.screenshot({ path: join(ARTIFACTS, 'e2e-html-comparison.png'), fullPage: true });
    } finally {
      await report.page.close();
    }
  });
});
