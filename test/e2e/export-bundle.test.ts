import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openOffline, type TestBrowser } from '../helpers/browser.ts';
import { ScriptedEngine } from '../helpers/scripted-engine.ts';
import { handlers, startHttpServer, type TestServer } from '../helpers/servers.ts';
import { readZip } from '../helpers/zip.ts';
import { ARTIFACTS, fillPlan, fillScenario, saveDownload, waitForStatus } from './app-page.ts';
import { useE2eApp } from './fixture.ts';

/*
 * The export bar of the Run, Compare and Capacity views in Chromium through the web host (a
 * scripted engine):
 * "Download all" saves one zip of every file, a file's button saves that file alone (the same
 * bytes as in the zip), and the HTML report opens offline with the figures on screen.
 */

const e2e = useE2eApp({ engine: new ScriptedEngine() });
let alpha: TestServer;
let beta: TestServer;
let downloads: string;
/** A context of its own for opening exported files offline (the app's keeps its network). */
let offline: TestBrowser;

beforeAll(async () => {
  offline = await e2e.context();
  alpha = await startHttpServer(handlers.ok('alpha'));
  beta = await startHttpServer(handlers.limited(2, 5));
  downloads = mkdtempSync(join(tmpdir(), 'trebuchet-e2e-bundle-'));
});

afterAll(async () => {
  await alpha?.close();
  await beta?.close();
  if (downloads) rmSync(downloads, { recursive: true, force: true });
});

/** Downloads all and one file (by its button), and checks the one is the zip's entry to the byte. */
async function allAndOne(page: Page, base: string, one: string): Promise<Record<string, string>> {
  const zip = await saveDownload(page, 'export-all', downloads);
  expect(zip.name).toBe(`${base}.zip`);
  const files = readZip(zip.path);
  const file = await saveDownload(page, `export-${one.replace(/[._]/g, '-')}`, downloads);
  expect(file.name).toBe(`${base}.${one}`);
  expect(readFileSync(file.path, 'utf8')).toBe(files[file.name]);
  return files;
}

/** The export bar alone, as the view shows it. */
async function barShot(page: Page, name: string): Promise<void> {
  const bar = page.getByRole('group', { name: 'Export' }).first();
  await bar.scrollIntoViewIfNeeded();
  await bar.screenshot({ path: join(ARTIFACTS, name) });
}

describe('the export bar in the browser', () => {
  it('downloads a run, a comparison and a capacity search, all in a zip or one file, and opens the HTML', async () => {
    const app = await e2e.open();
    const { page } = app;

    // A run.
    await fillScenario(app, { url: alpha.url, connections: 2, seconds: 0.5, name: 'bundle run' });
    await page.getByTestId('run-button').click();
    expect(await waitForStatus(app, ['completed', 'cancelled', 'failed'])).toBe('completed');
    const run = await allAndOne(page, 'bundle-run', 'summary.csv');
    expect(Object.keys(run).sort()).toEqual(
      ['json', 'summary.csv', 'timeseries.csv', 'percentiles.csv', 'resources.csv', 'html']
        .concat(['report.txt', 'ab.txt', 'vegeta.txt', 'http_load.txt', 'jmeter.txt'])
        .map((p) => `bundle-run.${p}`)
        .sort(),
    );
    await barShot(page, 'export-bar-run.png');
    const html = await saveDownload(page, 'export-html', downloads);
    const shown = {
      rps: await page.getByTestId('summary-rps').textContent(),
      duration: await page.getByTestId('summary-duration').textContent(),
      word: await page.getByTestId('verdict-state').textContent(),
    };
    const report = await openOffline(offline.context, html.path);
    try {
      expect(report.blocked).toEqual([]);
      const card = (label: string) => report.page.locator(`[data-figure="${label}"] .value`).textContent();
      expect(await card('Requests/s')).toBe(shown.rps);
      expect(await card('Duration')).toBe(shown.duration);
      expect(await report.page.locator('[data-testid="run-1-verdict"] strong').textContent()).toBe(
        `Verdict: ${shown.word}`,
      );
    } finally {
      await report.page.close();
    }

    // A comparison of two servers, two repetitions each.
    await page.getByTestId('tab-compare').click();
    await fillPlan(
      app,
      {
        name: 'bundle comparison',
        targets: [
          { name: 'alpha', url: alpha.url },
          { name: 'beta', url: beta.url },
        ],
      },
      { levels: '1', seconds: 0.5, repetitions: 2, pause: 0 },
    );
    await page.getByTestId('compare-run').click();
    await page.getByTestId('comparison-saved').waitFor({ timeout: 90_000 });
    const comparison = await allAndOne(page, 'bundle-comparison', 'matrix.csv');
    for (const part of [
      'json',
      'summary.csv',
      'timeseries.csv',
      'percentiles-http-c-1.csv',
      'html',
      'ab.txt',
    ]) {
      expect(Object.keys(comparison)).toContain(`bundle-comparison.${part}`);
    }
    await barShot(page, 'export-bar-compare.png');
    const verdicts = await page.getByTestId('cell-verdict').allTextContents();
    const matrixHtml = await openOffline(
      offline.context,
      (await saveDownload(page, 'export-html', downloads)).path,
    );
    try {
      const head = await matrixHtml.page.locator('[data-testid="matrix"] thead th').allTextContents();
      const cells = matrixHtml.page.locator('[data-testid="matrix"] tbody tr');
      for (const [i, verdict] of verdicts.entries()) {
        expect(await cells.nth(i).locator('th, td').nth(head.indexOf('verdict')).textContent()).toBe(verdict);
      }
    } finally {
      await matrixHtml.page.close();
    }

    // A capacity search of two servers, two steps each.
    await page.getByTestId('tab-capacity').click();
    await page.getByTestId('capacity-name').fill('bundle capacity');
    await page.getByTestId('capacity-target-name-0').fill('alpha');
    await page.getByTestId('capacity-target-url-0').fill(alpha.url);
    await page.getByTestId('capacity-target-name-1').fill('beta');
    await page.getByTestId('capacity-target-url-1').fill(beta.url);
    await page.getByTestId('capacity-p99').fill('100');
    await page.getByTestId('capacity-start-rate').fill('50');
    await page.getByTestId('capacity-max-rate').fill('100');
    await page.getByTestId('capacity-step').fill('0.5');
    await page.getByTestId('capacity-warmup').fill('0');
    await page.getByTestId('capacity-run').click();
    await expect
      .poll(() => page.getByTestId('capacity-progress').getAttribute('data-phase'), { timeout: 90_000 })
      .toBe('done');
    const capacity = await allAndOne(page, 'bundle-capacity', 'steps.csv');
    for (const part of ['json', 'answers.csv', 'summary.csv', 'html', 'report.txt']) {
      expect(Object.keys(capacity)).toContain(`bundle-capacity.${part}`);
    }
    const sentence = await page.getByTestId('capacity-answer').textContent();
    expect(capacity['bundle-capacity.report.txt']!.trimEnd().split('\n').at(-1)).toBe(sentence);
    await barShot(page, 'export-bar-capacity.png');
    const capacityHtml = await openOffline(
      offline.context,
      (await saveDownload(page, 'export-html', downloads)).path,
    );
    try {
      expect(capacityHtml.blocked).toEqual([]);
      expect(await capacityHtml.page.getByTestId('capacity-answer').textContent()).toBe(sentence);
      await capacityHtml.page.screenshot({
        path: join(ARTIFACTS, 'export-capacity-html.png'),
        fullPage: true,
      });
    } finally {
      await capacityHtml.page.close();
    }
  });
});
