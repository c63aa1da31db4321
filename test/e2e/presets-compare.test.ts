import { parse } from 'csv-parse/sync';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebHost } from '../../electron/host/server.ts';
import { formatRateValue } from '../../shared/figures/units.ts';
import { ScriptedEngine } from '../helpers/scripted-engine.ts';
import { handlers, startHttpServer, type TestServer } from '../helpers/servers.ts';
import { ARTIFACTS, fillPlan, fillScenario, waitForStatus, saveDownload } from './app-page.ts';
import { STATIC_DIR, useE2eApp } from './fixture.ts';

/*
 * Presets, comparisons, history and exports in Chromium against the web host and a scripted
 * engine (the pre-flights real), clicking as a person would. Downloads are caught and decoded: the PNG must have
 * the chart's pixel size and show something, the CSV must parse back to the numbers shown.
 */

/** A formula a spreadsheet would run: sent by a server as its status text and Server header. */
const FORMULA = '=HYPERLINK("http://evil.example","click")';

// A comparison across a reload is looked at while its second cell runs: that run waits there.
const engine = new ScriptedEngine({
  pauseAfter: (s) => (s.name.startsWith('survives a reload · evil') ? 1 : null),
});
const e2e = useE2eApp({ engine });
let downloads: string;
let plain: TestServer;
let evil: TestServer;

beforeAll(async () => {
  plain = await startHttpServer(handlers.ok('hello from the plain server', { server: 'plain/1.0' }));
  evil = await startHttpServer(
    handlers.status(200, FORMULA, 'hello from the evil server', { server: FORMULA }),
  );
  downloads = mkdtempSync(join(tmpdir(), 'trebuchet-e2e-downloads-'));
});

afterAll(async () => {
  await plain?.close();
  await evil?.close();
  if (downloads) rmSync(downloads, { recursive: true, force: true });
});

/** The two servers a comparison puts side by side, as the plan editor names them. */
const servers = (): [{ name: string; url: string }, { name: string; url: string }] => [
  { name: 'plain', url: plain.url },
  { name: 'evil', url: evil.url },
];

const download = (page: Page, testId: string) => saveDownload(page, testId, downloads);

function csvRecords(path: string): Record<string, string>[] {
  return parse<Record<string, string>>(readFileSync(path, 'utf8'), { columns: true });
}

/** No cell a spreadsheet would read as a formula: text starting with = + - @ is quoted with '. */
function formulaCells(path: string): string[] {
  const rows = parse(readFileSync(path, 'utf8'));
  return rows.flat().filter((cell) => /^[=+@]/.test(cell) || (/^-/.test(cell) && Number.isNaN(Number(cell))));
}

describe('presets in the browser', () => {
  it('saves the scenario as a preset that is still there after a reload, and opens it again', async () => {
    const app = await e2e.open();
    const { page } = app;
    await fillScenario(app, {
      url: plain.url,
      connections: 3,
      seconds: 1,
      name: 'plain server, 3 connections',
    });
    await page.getByTestId('save-scenario-preset').click();
    await expect.poll(() => page.getByTestId('dialog-name').inputValue()).toBe('plain server, 3 connections');
    await page.getByTestId('dialog-name').fill('My plain server');
    await page.getByTestId('dialog-submit').click();
    await page.getByTestId('save-preset-dialog').waitFor({ state: 'detached' });

    await page.reload();
    await page.getByTestId('target-url-0').waitFor();
    await page.getByTestId('tab-presets').click();
    const mine = page.getByTestId('presets-mine').getByTestId('preset-row');
    await expect.poll(() => mine.count()).toBe(1);
    expect(await mine.getByTestId('preset-name').textContent()).toBe('My plain server');
    // The built-in seed presets come first in their own list, read-only: no rename, no delete.
    const builtIn = page.getByTestId('presets-builtin').getByTestId('preset-row');
    expect(await builtIn.count()).toBe(6);
    expect(await builtIn.getByTestId('preset-delete').count()).toBe(0);
    expect(await builtIn.first().getByTestId('preset-duplicate').textContent()).toBe('Duplicate to edit');
    expect(await page.getByTestId('presets-file').textContent()).toBe(join(e2e.dataDir, 'presets'));
    await app.screenshot('e2e-presets.png');
    await app.screenshot('e2e-presets-full.png', true);

    // Export the preset: a JSON file holding the same scenario.
    const exported = await download(page, 'preset-export');
    expect(exported.name).toBe('my-plain-server.trebuchet-preset.json');
    const file = JSON.parse(readFileSync(exported.path, 'utf8')) as {
      format: string;
      scenario: { targets: { url: string }[]; load: { connections: number } };
    };
    expect(file.format).toBe('trebuchet-preset');
    expect(file.scenario.targets[0]!.url).toBe(plain.url);
    expect(file.scenario.load.connections).toBe(3);

    // A built-in comparison opens in the comparison editor, ready for the user's own URLs.
    await builtIn.first().getByTestId('preset-open').click();
    await page.getByTestId('plan-editor').waitFor();
    expect(await page.getByTestId('plan-levels').inputValue()).toBe('100, 1000, 10000');
    expect(await page.getByTestId('plan-target-name-0').inputValue()).toBe('Apache');
    expect(await page.getByTestId('plan-protocol-https').isChecked()).toBe(true);
    await app.screenshot('e2e-compare-editor-preset.png');

    await page.getByTestId('tab-presets').click();
    await mine.getByTestId('preset-open').click();
    await page.getByTestId('target-url-0').waitFor();
    expect(await page.getByTestId('target-url-0').inputValue()).toBe(plain.url);
    expect(await page.getByTestId('load-connections').inputValue()).toBe('3');
    expect(await page.getByTestId('scenario-name').inputValue()).toBe('plain server, 3 connections');
  });
});

describe('a broken presets file', () => {
  it('is kept aside and reported, and the app starts with the built-in presets', async () => {
    const brokenDir = mkdtempSync(join(tmpdir(), 'trebuchet-e2e-broken-data-'));
    writeFileSync(join(brokenDir, 'presets.json'), '{"presets": [{"format": "trebuchet-pre');
    const brokenHost = await startWebHost({ staticDir: STATIC_DIR, appVersion: '0.1.0', dataDir: brokenDir });
    try {
      const app = await e2e.open(brokenHost.url);
      const banner = app.page.getByTestId('store-problems');
      await banner.waitFor();
      const text = await banner.textContent();
      expect(text).toContain('The presets file could not be read (the file is not valid JSON');
      const keptAs = /kept as (\S+\.json);/.exec(text ?? '')?.[1];
      expect(keptAs).toMatch(/presets\.broken-.*\.json$/);
      expect(readFileSync(keptAs!, 'utf8')).toBe('{"presets": [{"format": "trebuchet-pre');
      await app.screenshot('e2e-store-problem.png');
      await app.page.getByTestId('tab-presets').click();
      await expect
        .poll(() => app.page.getByTestId('presets-builtin').getByTestId('preset-row').count())
        .toBe(6);
      expect(await app.page.getByTestId('presets-empty').count()).toBe(1);
      await e2e.closePages();
    } finally {
      await brokenHost.close();
      rmSync(brokenDir, { recursive: true, force: true });
    }
  });
});

describe('one broken preset among good ones', () => {
  it('is named in the banner and kept aside, and the other presets are listed', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'trebuchet-e2e-one-broken-'));
    mkdirSync(join(dataDir, 'presets'));
    const preset = (id: string, name: string) => ({
      format: 'trebuchet-preset',
      version: 2,
      id,
      name,
      createdAt: '2025-01-01T00:00:00.000Z',
      updatedAt: '2025-01-01T00:00:00.000Z',
      kind: 'scenario',
      scenario: { targets: [{ url: plain.url }] },
    });
    writeFileSync(join(dataDir, 'presets', 'good.preset.json'), JSON.stringify(preset('good', 'Still here')));
    const broken = JSON.stringify({ ...preset('bad', 'Broken'), scenario: { targets: [] } });
    writeFileSync(join(dataDir, 'presets', 'bad.preset.json'), broken);
    const host = await startWebHost({ staticDir: STATIC_DIR, appVersion: '0.1.0', dataDir });
    try {
      const app = await e2e.open(host.url);
      const banner = app.page.getByTestId('store-problems');
      await banner.waitFor();
      const text = (await banner.textContent()) ?? '';
      expect(text).toContain('A saved preset could not be read (scenario.targets: add at least one target)');
      const keptAs = /kept as (\S+\.json) and left out/.exec(text)?.[1];
      expect(keptAs).toMatch(/bad\.preset\.broken-.*\.json$/);
      expect(readFileSync(keptAs!, 'utf8')).toBe(broken);
      await app.page.getByTestId('tab-presets').click();
      const mine = app.page.getByTestId('presets-mine').getByTestId('preset-row');
      await expect.poll(() => mine.count()).toBe(1);
      expect(await mine.getByTestId('preset-name').textContent()).toBe('Still here');
      await e2e.closePages();
    } finally {
      await host.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('comparisons in the browser', () => {
  it('runs 2 servers x 2 levels x 2 repetitions, shows the 4-cell table and the charts, and exports them', async () => {
    const app = await e2e.open();
    const { page } = app;
    await page.getByTestId('tab-compare').click();
    await fillPlan(
      app,
      { name: 'plain vs evil', targets: servers() },
      { levels: '1, 2', seconds: 0.6, repetitions: 2 },
    );
    expect(await page.getByTestId('plan-summary').textContent()).toContain('= 8 runs');
    await page.getByTestId('compare-run').click();

    const matrix = page.getByTestId('matrix-progress');
    await expect
      .poll(async () => Number(await matrix.getAttribute('data-finished')), {
        timeout: 60_000,
        interval: 100,
      })
      .toBeGreaterThanOrEqual(3);
    expect(await matrix.getAttribute('data-total')).toBe('8');
    await app.screenshot('e2e-compare-running.png');
    await page.getByTestId('comparison-saved').waitFor({ timeout: 120_000 });
    expect(await matrix.getAttribute('data-finished')).toBe('8');

    // The table: one row per server and level, each the mean of its 2 repetitions.
    const cells = page.getByTestId('comparison-cell');
    expect(await cells.count()).toBe(4);
    const shown = await Promise.all(
      (await cells.all()).map(async (r) => ({
        target: await r.getAttribute('data-target'),
        level: await r.getAttribute('data-level'),
        runs: await r.getAttribute('data-runs'),
        rps: Number(await r.getAttribute('data-rps')),
        text: await r.getByTestId('cell-rps').textContent(),
      })),
    );
    expect(shown.map((c) => [c.target, c.level, c.runs])).toEqual([
      ['plain', '1', '2'],
      ['evil', '1', '2'],
      ['plain', '2', '2'],
      ['evil', '2', '2'],
    ]);
    for (const c of shown) {
      expect(c.rps).toBeGreaterThan(0);
      expect(c.text).toBe(formatRateValue(c.rps));
    }

    // The charts: bars and scaling lines have a point per server and level; the curves a point per percentile.
    const points = async (testId: string) =>
      Number(await page.getByTestId(testId).getAttribute('data-points'));
    expect(await points('chart-compare-bars')).toBe(4);
    expect(await points('chart-compare-rps')).toBe(4);
    expect(await points('chart-compare-p99')).toBe(4);
    expect(await points('chart-compare-percentiles')).toBeGreaterThanOrEqual(2 * 11);
    expect(await page.getByTestId('comparison-percentiles').locator('tbody tr').count()).toBe(11);
    await app.screenshot('e2e-compare-report.png');
    await app.screenshot('e2e-compare-report-full.png', true);

    // A chart as PNG: twice the canvas' size on screen under a title line, opaque, and not blank.
    // chart.js sizes the canvas in device pixels (1 per CSS pixel here) through its width and height.
    const bars = page.getByTestId('chart-compare-bars');
    const size = async () => ({
      width: Number(await bars.getAttribute('width')),
      height: Number(await bars.getAttribute('height')),
    });
    const canvasSize = await size();
    expect(canvasSize.width).toBeGreaterThan(100);
    const png = await download(page, 'png-chart-compare-bars');
    expect(png.name).toMatch(/^trebuchet-rps-by-level-plain-evil-c1-2-\d{4}-\d\d-\d\d\.png$/);
    const image = PNG.sync.read(readFileSync(png.path));
    expect(image.width).toBe(2 * canvasSize.width);
    expect(image.height).toBeGreaterThan(2 * canvasSize.height);
    // The chart on screen is back at its own size.
    expect(await size()).toEqual(canvasSize);
    const [r0, g0, b0] = [image.data[0]!, image.data[1]!, image.data[2]!];
    let opaque = true;
    let drawn = 0;
    for (let i = 0; i < image.data.length; i += 4) {
      if (image.data[i + 3] !== 255) opaque = false;
      if (image.data[i] !== r0 || image.data[i + 1] !== g0 || image.data[i + 2] !== b0) drawn++;
    }
    expect(opaque).toBe(true);
    // Light theme: the card's white; bars, axes and labels cover a good part of it.
    expect([r0, g0, b0]).toEqual([255, 255, 255]);
    expect(drawn).toBeGreaterThan((image.width * image.height) / 50);

    // Dark theme: the chart is redrawn in its colours and exported on the dark card surface.
    await page.emulateMedia({ colorScheme: 'dark' });
    await app.screenshot('e2e-compare-report-dark.png', true);
    const dark = PNG.sync.read(readFileSync((await download(page, 'png-chart-compare-bars')).path));
    expect({ width: dark.width, height: dark.height }).toEqual({ width: image.width, height: image.height });
    expect([...dark.data.subarray(0, 4)]).toEqual([0x12, 0x18, 0x29, 255]);
    await page.emulateMedia({ colorScheme: 'light' });

    // The matrix as CSV: the numbers on screen, the server-chosen text neutralised.
    const csv = await download(page, 'export-matrix-csv');
    expect(csv.name).toBe('plain-vs-evil.matrix.csv');
    const rows = csvRecords(csv.path);
    expect(rows.map((r) => [r['target'], r['connections'], r['repetitions counted']])).toEqual(
      shown.map((c) => [c.target, c.level, '2']),
    );
    rows.forEach((r, i) => {
      expect(Number(r['rate mean (req/s)'])).toBeCloseTo(shown[i]!.rps, 6);
      expect(formatRateValue(Number(r['rate mean (req/s)']))).toBe(shown[i]!.text);
      expect(Number(r['rate min (req/s)'])).toBeLessThanOrEqual(Number(r['rate max (req/s)']));
      expect(Number(r['failed requests'])).toBe(0);
    });
    expect(formulaCells(csv.path)).toEqual([]);

    // Every cell run's summary: the evil server's Server header comes out as text, not a formula.
    const summary = await download(page, 'export-summary-csv');
    const runs = csvRecords(summary.path);
    expect(runs).toHaveLength(8);
    const software = [...new Set(runs.map((r) => r['server software']))].sort();
    expect(software).toEqual([`'${FORMULA}`, 'plain/1.0']);
    expect(formulaCells(summary.path)).toEqual([]);
    expect(readFileSync(summary.path, 'utf8')).not.toContain(`,${FORMULA}`);
  });
});

describe('history in the browser', () => {
  it('keeps every run, opens one with its exports, and compares two saved runs', async () => {
    const app = await e2e.open();
    const { page } = app;
    await fillScenario(app, { url: evil.url, connections: 2, seconds: 1 });
    await page.getByTestId('run-button').click();
    expect(await waitForStatus(app, ['completed', 'cancelled', 'failed'])).toBe('completed');
    await page.getByTestId('run-saved').waitFor();
    const [result] = app.results();

    await page.getByTestId('tab-history').click();
    const rows = page.getByTestId('history-row');
    // This run, and the comparison of the test before.
    await expect.poll(() => rows.count()).toBe(2);
    await rows.first().getByTestId('history-open').click();
    await page.getByTestId('history-record').waitFor();
    expect(await page.getByTestId('history-record').getAttribute('data-kind')).toBe('run');
    await app.screenshot('e2e-history.png');

    // The ab-style text report, copied to the clipboard.
    await e2e.browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: new URL(e2e.host.url).origin,
    });
    await page.getByTestId('export-ab').click();
    const report = await page.getByTestId('text-report').textContent();
    expect(report).toContain(
      `Requests per second:    ${result!.throughput.requestsPerSecond.toFixed(2)} [#/sec] (mean)`,
    );
    expect(report).toContain(`Server Software:        ${FORMULA}`);
    await page.getByTestId('copy-report').click();
    await expect.poll(() => page.getByTestId('copy-report').textContent()).toBe('Copied');
    const clipboard = await page.evaluate(() =>
      (
        globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }
      ).navigator.clipboard.readText(),
    );
    expect(clipboard).toBe(report);
    await app.screenshot('e2e-history-report.png');
    await page.keyboard.press('Escape');

    // The same run as http_load and JMeter print theirs.
    await page.getByTestId('export-http-load').click();
    expect(await page.getByTestId('text-report').textContent()).toContain(
      `${result!.requests.total} fetches, 2 max parallel,`,
    );
    await page.keyboard.press('Escape');
    await page.getByTestId('export-jmeter').click();
    const jmeter = (await page.getByTestId('text-report').textContent()) ?? '';
    expect(jmeter.split('\n').filter((l) => /^(Aggregate|Summary) Report$/.test(l))).toHaveLength(2);
    expect(jmeter).toContain(String(result!.requests.total));
    await page.keyboard.press('Escape');

    // The run's time series as CSV: one row per sample, the numbers of the result.
    const series = await download(page, 'export-timeseries-csv');
    const samples = csvRecords(series.path);
    expect(samples).toHaveLength(result!.samples.length);
    // CSV keeps 6 decimals (latency resolution is 1 µs): equal to the result to that precision.
    samples.forEach((s, i) => {
      expect(Number(s['rate (req/s)'])).toBeCloseTo(result!.samples[i]!.requestsPerSecond, 5);
      expect(Number(s['total requests'])).toBe(result!.samples[i]!.totalRequests);
    });

    // The comparison's first cell against this run, computed as `trebuchet diff` computes it
    // (the older entry is A whichever is ticked first): two repetitions against one run is
    // uneven evidence, so no noise test, and it says so.
    await rows.nth(0).getByTestId('history-select').check();
    await rows.nth(1).getByTestId('history-select').check();
    await page.getByTestId('history-compare').click();
    await page.getByTestId('diff-table').waitFor();
    expect(await page.getByTestId('diff-evidence').textContent()).toContain(
      '2 and 1 runs: no noise test (it needs 2 or more runs on each side, or one on each)',
    );
    const rps = page.locator('[data-testid="diff-row"][data-figure="rps"]');
    expect(await rps.getAttribute('data-verdict')).toBe('untested');
    expect(await rps.getByTestId('diff-verdict').textContent()).toBe('not tested');
    expect(await rps.getByTestId('diff-percent').textContent()).toMatch(/^[-+±][\d,]+\.\d %$/);
    await app.screenshot('e2e-run-diff.png');
    expect(existsSync(join(ARTIFACTS, 'e2e-run-diff.png'))).toBe(true);
  });
});

describe('a comparison across a reload', () => {
  it('is taken up again: the matrix keeps its finished cells and the report arrives', async () => {
    const app = await e2e.open();
    const { page } = app;
    await page.getByTestId('tab-compare').click();
    await fillPlan(
      app,
      { name: 'survives a reload', targets: servers() },
      { levels: '1', seconds: 1.5, repetitions: 1 },
    );
    await page.getByTestId('compare-run').click();
    const finished = async () =>
      Number(await page.getByTestId('matrix-progress').getAttribute('data-finished'));
    await expect.poll(finished, { timeout: 60_000, interval: 100 }).toBeGreaterThanOrEqual(1);

    await page.reload();
    // Back on the comparison, with its plan and the cell it had finished.
    await page.getByTestId('matrix-progress').waitFor();
    expect(await page.getByTestId('plan-name').inputValue()).toBe('survives a reload');
    expect(await finished()).toBeGreaterThanOrEqual(1);
    expect(await page.getByTestId('matrix-progress').getAttribute('data-total')).toBe('2');
    engine.resume();
    await page.getByTestId('comparison-saved').waitFor({ timeout: 60_000 });
    expect(await finished()).toBe(2);
    expect(await page.getByTestId('comparison-cell').count()).toBe(2);
    const cells = await page.getByTestId('comparison-cell').all();
    expect(await Promise.all(cells.map((c) => c.getAttribute('data-runs')))).toEqual(['1', '1']);
  });
});
