import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedEngine } from '../helpers/scripted-engine.ts';
import { handlers, startHttpServer, type TestServer } from '../helpers/servers.ts';
import { fillPlan, fillScenario, waitForRunDone } from './app-page.ts';
import { useE2eApp } from './fixture.ts';

/*
 * What a new user tripped over in the first ten minutes (issue 19), clicked through in
 * Chromium against the web host and a scripted engine (its servers answer in 4 to 6 ms): the
 * caveat banner within the page, the
 * first screen's way to the seed presets, messages at their fields, the comparison's column
 * picker and toolbar, the Capacity sidebar, and History's titles.
 */

// The host reads body files in this folder only (--files-dir), so a missing one in it is
// the host's refusal of a field.
const dir = mkdtempSync(join(tmpdir(), 'trebuchet-e2e-newcomer-'));
const e2e = useE2eApp({ filesDir: dir, engine: new ScriptedEngine() });
let alpha: TestServer;
let beta: TestServer;

beforeAll(async () => {
  alpha = await startHttpServer(handlers.ok('alpha'));
  beta = await startHttpServer(handlers.ok('beta'));
});

afterAll(async () => {
  await alpha?.close();
  await beta?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The few DOM members the in-page probes use (this file is type-checked without the DOM lib). */
interface ProbeElement {
  scrollWidth: number;
  clientWidth: number;
  scrollHeight: number;
  clientHeight: number;
  getBoundingClientRect(): { left: number; right: number; top: number; bottom: number; height: number };
}
interface ProbeGlobals {
  innerWidth: number;
  document: { documentElement: ProbeElement };
}

/** How wide the page is against the window: the page must not grow past it. */
const pageWidth = (page: Page): Promise<{ page: number; window: number }> =>
  page.evaluate(() => {
    const w = globalThis as unknown as ProbeGlobals;
    return { page: w.document.documentElement.scrollWidth, window: w.innerWidth };
  });

const box = (l: Locator) =>
  l.evaluate((el) => {
    const e = el as unknown as ProbeElement;
    const r = e.getBoundingClientRect();
    return {
      left: r.left,
      right: r.right,
      height: r.height,
      scrollWidth: e.scrollWidth,
      clientWidth: e.clientWidth,
      scrollHeight: e.scrollHeight,
      clientHeight: e.clientHeight,
    };
  });

describe('the first ten minutes (issue 19)', () => {
  // One request in flight at 4-6 ms carries 200 req/s: 5,000 is out of reach, on any machine
  // (against a real loopback server it answered in 0.2 ms and kept 5,000 clean).
  it('wraps a long caveat within the page (an in-flight cap of 1 at 5,000 req/s)', async () => {
    const app = await e2e.open();
    const { page } = app;
    await page.getByTestId('target-url-0').fill(alpha.url);
    await page.getByTestId('load-model-open').click();
    await page.getByTestId('load-rate').fill('5000');
    await page.getByTestId('load-open-duration').fill('1');
    await page.getByTestId('load-max-in-flight').fill('1');
    await page.getByTestId('run-button').click();
    await waitForRunDone(app);
    const verdict = page.getByTestId('verdict');
    await verdict.waitFor();
    expect(await verdict.getAttribute('data-state')).not.toBe('clean');
    const width = await pageWidth(page);
    const caveats = await box(verdict.locator('.verdict__caveats'));
    console.log(`caveat banner: page ${width.page} px wide in a ${width.window} px window`);
    // The page grew to 1,628-2,729 px with the advice off-screen.
    expect(width.page).toBeLessThanOrEqual(width.window);
    expect(caveats.right).toBeLessThanOrEqual(width.window);
    expect(caveats.scrollWidth).toBeLessThanOrEqual(caveats.clientWidth);
    await verdict.scrollIntoViewIfNeeded();
    await app.screenshot('newcomer-caveat-wraps.png');
  });

  it('offers the seed presets and says what Compare and Capacity are for on the first screen', async () => {
    const app = await e2e.open();
    const { page } = app;
    const welcome = page.getByTestId('welcome');
    await welcome.getByTestId('seed-presets').waitFor();
    expect(await welcome.getByTestId('seed-presets').locator('h2').textContent()).toBe(
      'Reproduce an article: pick a preset, change only host:port',
    );
    const seeds = welcome.getByTestId('seed-preset');
    expect(await seeds.count()).toBe(6);
    const views = welcome.getByTestId('welcome-views');
    expect(await views.textContent()).toContain(
      'CompareServers side by side at several loads, each run repeated, in one matrix',
    );
    expect(await views.textContent()).toContain(
      'CapacityThe highest rate each server holds within a p99 latency goal',
    );
    expect(await page.getByTestId('tab-compare').getAttribute('title')).toBe(
      'Servers side by side at several loads, each run repeated, in one matrix',
    );
    await app.screenshot('newcomer-first-screen.png');
    // Each preset's bullet sits on its first line, a long one's too (its text wraps under itself).
    const items = welcome.getByTestId('seed-presets').locator('li');
    const oneLine = (await items.first().boundingBox())!.height;
    for (let i = 0; i < (await items.count()); i++) {
      const li = (await items.nth(i).boundingBox())!;
      const gutter = await page.screenshot({ clip: { x: li.x - 14, y: li.y, width: 12, height: oneLine } });
      expect(
        drawnPixels(PNG.sync.read(gutter)),
        `the bullet of preset ${i + 1} on its first line`,
      ).toBeGreaterThan(4);
    }

    // A seed opens in its editor with placeholders that look like ones: only host:port to change.
    await welcome.locator('[data-preset-id="builtin-seed-002-ab-repeated"]').click();
    await page.getByTestId('plan-editor').waitFor();
    expect(await page.getByTestId('plan-target-0-http').inputValue()).toBe('http://apache.example:8081/');
    expect(await page.getByTestId('plan-target-1-http').inputValue()).toBe('http://nginx.example:8082/');
  });

  it('says at the field what is wrong, and offers the fix', async () => {
    const app = await e2e.open();
    const { page } = app;
    const url = page.getByTestId('target-url-0');

    // Tabbing through the untouched empty URL is no edit: it does not turn red.
    await url.focus();
    await page.keyboard.press('Tab');
    expect(await url.getAttribute('aria-invalid')).toBe('false');
    expect(await page.getByTestId('error-targets.0.url').count()).toBe(0);

    // "localhost:8181": the URL meant, one click away (it was "(got localhost://)").
    await url.fill('localhost:8181');
    expect(await page.getByTestId('error-targets.0.url').textContent()).toBe(
      'URL must start with http:// or https://: did you mean http://localhost:8181?',
    );
    await page.getByTestId('target-url-0-fix').click();
    expect(await url.inputValue()).toBe('http://localhost:8181');
    expect(await page.getByTestId('error-targets.0.url').count()).toBe(0);

    // "abc" in a duration: what it takes (it said "must be a number", though 1m30s is taken).
    await page.getByTestId('load-duration').fill('abc');
    expect(await page.getByTestId('error-load.limit.seconds').textContent()).toBe(
      '"abc" is not a duration: type 10, 10s, 1m30s',
    );
    await page.getByTestId('load-duration').fill('1m30s');
    expect(await page.getByTestId('error-load.limit.seconds').count()).toBe(0);

    // A header typed whole into its name: split at the colon.
    await page.getByTestId('target-0').locator('summary', { hasText: 'Headers and body' }).click();
    await page.getByTestId('header-add-0').click();
    await page.getByTestId('header-name-0-0').fill('X-Test: 1');
    expect(await page.getByTestId('error-targets.0.headers.0.name').textContent()).toBe(
      'header name has characters HTTP does not allow',
    );
    await app.screenshot('newcomer-field-messages.png');
    await page.getByTestId('header-split-0-0').click();
    expect(await page.getByTestId('header-name-0-0').inputValue()).toBe('X-Test');
    expect(await page.getByTestId('header-value-0-0').inputValue()).toBe('1');
    expect(await page.getByTestId('error-targets.0.headers.0.name').count()).toBe(0);

    // A body file that does not exist: said at its field, no run started and none shown.
    await url.fill(alpha.url);
    await page.getByTestId('load-duration').fill('1');
    await page.getByTestId('body-kind-0-file').click();
    const missing = join(dir, 'no-such-body.json');
    await page.getByTestId('body-path-0').fill(missing);
    await page.getByTestId('run-button').click();
    const bodyError = page.getByTestId('error-targets.0.body.path');
    await bodyError.waitFor();
    expect(await bodyError.textContent()).toBe(`${missing} does not exist`);
    expect(await page.getByTestId('body-path-0').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByTestId('run-failed').count()).toBe(0);
    expect(await page.getByTestId('run-panel').count()).toBe(0);
    expect(await page.getByTestId('welcome').count()).toBe(1);
    await app.screenshot('newcomer-body-file-at-field.png');
    // Editing the path takes the host's message away (the host checks again on the next run).
    await page.getByTestId('body-path-0').fill(`${missing}x`);
    expect(await bodyError.count()).toBe(0);
  });

  it('keeps the picked columns after a cell is opened and closed, each in its place; the toolbars fit', async () => {
    const app = await e2e.open();
    const { page } = app;
    await page.getByTestId('tab-compare').click();
    // The toolbar's labels on one line, inside their buttons (they wrapped and overflowed).
    for (const id of ['save-comparison-preset', 'compare-find-capacity', 'compare-run']) {
      const b = await box(page.getByTestId(id));
      expect(b.scrollWidth, id).toBeLessThanOrEqual(b.clientWidth);
      expect(b.scrollHeight, id).toBeLessThanOrEqual(b.clientHeight);
      expect(b.height, id).toBeLessThanOrEqual(36);
    }
    await app.screenshot('newcomer-compare-toolbar.png');
    await fillPlan(
      app,
      {
        name: 'columns',
        targets: [
          { name: 'alpha', url: alpha.url },
          { name: 'beta', url: beta.url },
        ],
      },
      { levels: '1', seconds: 0.3, repetitions: 2, pause: 0 },
    );
    await page.getByTestId('compare-run').click();
    await page.getByTestId('comparison-saved').waitFor({ timeout: 120_000 });

    // The repetition squares name the protocol too.
    const square = page.getByTestId('open-repetition').first();
    expect(await square.getAttribute('aria-label')).toMatch(/^Open alpha · http · c=1 repetition 1: /);

    const header = async (): Promise<string[]> =>
      page
        .getByTestId('comparison-report')
        .locator('th[data-column]')
        .evaluateAll((ths) =>
          ths.map((th) => (th as unknown as { dataset: { column: string } }).dataset.column),
        );
    const before = await header();
    await page.getByTestId('column-picker-toggle').click();
    expect(before).not.toContain('latencyMean');
    await page.getByTestId('column-latencyMean').check();
    const after = await header();
    // The mean latency lands before p50 (its place in the registry), not at the far right.
    expect(after).toEqual(before.flatMap((c) => (c === 'p50' ? ['latencyMean', 'p50'] : [c])));
    await page.getByTestId('column-picker-toggle').click();

    await page.getByTestId('comparison-report').getByTestId('open-run').first().click();
    await page.getByTestId('cell-back').click();
    expect(await header()).toEqual(after);

    // The Capacity sidebar has its left padding, as the Compare one.
    await page.getByTestId('tab-capacity').click();
    const pane = await box(page.getByRole('complementary', { name: 'Capacity search' }));
    const name = await box(page.getByTestId('capacity-name'));
    expect(name.left - pane.left).toBeGreaterThanOrEqual(14);
    await app.screenshot('newcomer-capacity-sidebar.png');
  });

  it('titles a run in History by what ran, not by its name’s old load', async () => {
    const app = await e2e.open();
    const { page } = app;
    // A name as an edited preset leaves it: its load is not the one that runs.
    await fillScenario(app, { url: alpha.url, name: 'nginx 10000 req/s for 5 s' });
    await page.getByTestId('load-model-open').click();
    await page.getByTestId('load-rate').fill('50');
    await page.getByTestId('load-open-duration').fill('1');
    await page.getByTestId('run-button').click();
    await waitForRunDone(app);
    await page.getByTestId('run-saved').getByRole('button').click();
    const row = page.getByTestId('history-row').first();
    expect(await row.getByTestId('history-name').textContent()).toBe('nginx 10000 req/s for 5 s');
    expect(await row.getByTestId('history-ran').textContent()).toBe('50 req/s for 1 s');
    expect(await page.getByTestId('record-ran').textContent()).toBe('50 req/s for 1 s');
    await app.screenshot('newcomer-history-title.png');
  });
});

/** Pixels unlike the image's top-left one (its background). */
function drawnPixels(image: PNG): number {
  const d = image.data;
  let drawn = 0;
  for (let i = 0; i < d.length; i += 4) {
    if (d[i] !== d[0] || d[i + 1] !== d[1] || d[i + 2] !== d[2]) drawn++;
  }
  return drawn;
}
