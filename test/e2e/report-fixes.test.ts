import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestCerts, type TestCerts } from '../helpers/certs.ts';
import { ScriptedEngine } from '../helpers/scripted-engine.ts';
import { handlers, startHttpServer, type TestServer } from '../helpers/servers.ts';
import { ARTIFACTS, fillPlan, fillScenario, waitForStatus, saveDownload } from './app-page.ts';
import { useE2eApp } from './fixture.ts';

/*
 * Bugs a person met in the run report, the comparison report and the editors, each
 * reproduced in Chromium against the web host and a scripted engine (the pre-flights real).
 */

// The percentile picker's test looks at its comparison while level 2 runs: that run waits there.
const engine = new ScriptedEngine({
  pauseAfter: (s) => (s.name.startsWith('picker follows · alpha · http · c=2') ? 1 : null),
});
const e2e = useE2eApp({ engine });
let downloads: string;
let alpha: TestServer;
let beta: TestServer;
let certs: TestCerts;
let secure: TestServer;
let selfSigned: TestServer;

beforeAll(async () => {
  certs = makeTestCerts();
  secure = await startHttpServer(handlers.ok('hello over tls'), { tls: certs.valid });
  selfSigned = await startHttpServer(handlers.ok('hello, self-signed'), { tls: certs.selfSigned });
  alpha = await startHttpServer(handlers.ok('hello from alpha', { server: 'alpha/1.0' }));
  beta = await startHttpServer(handlers.ok('hello from beta', { server: 'beta/1.0' }));
  downloads = mkdtempSync(join(tmpdir(), 'trebuchet-e2e-fixes-'));
});

afterAll(async () => {
  await alpha?.close();
  await beta?.close();
  await secure?.close();
  await selfSigned?.close();
  certs?.remove();
  if (downloads) rmSync(downloads, { recursive: true, force: true });
});

const download = (page: Page, testId: string) => saveDownload(page, testId, downloads);

const servers = (): [{ name: string; url: string }, { name: string; url: string }] => [
  { name: 'alpha', url: alpha.url },
  { name: 'beta', url: beta.url },
];

describe('"Saved in history · open it there"', () => {
  it("opens the saved run, not History's empty card", async () => {
    const app = await e2e.open();
    const { page } = app;
    await fillScenario(app, { url: alpha.url, connections: 2, seconds: 0.5, name: 'opened from its note' });
    await page.getByTestId('run-button').click();
    expect(await waitForStatus(app, ['completed', 'cancelled', 'failed'])).toBe('completed');
    await page.getByTestId('run-saved').getByRole('button', { name: 'open it there' }).click();
    await page.getByTestId('history-view').waitFor();
    await page.getByTestId('history-record').waitFor({ timeout: 5_000 });
    expect(await page.getByTestId('record-name').textContent()).toBe('opened from its note');
    expect(await page.getByTestId('history-record').getAttribute('data-kind')).toBe('run');
  });

  it('opens the saved comparison', async () => {
    const app = await e2e.open();
    const { page } = app;
    await page.getByTestId('tab-compare').click();
    await fillPlan(
      app,
      { name: 'comparison opened from its note', targets: servers() },
      {
        levels: '1',
        seconds: 0.5,
        repetitions: 1,
        pause: 0,
      },
    );
    await page.getByTestId('compare-run').click();
    await page.getByTestId('comparison-saved').waitFor({ timeout: 60_000 });
    await page.getByTestId('comparison-saved').getByRole('button', { name: 'open it there' }).click();
    await page.getByTestId('history-record').waitFor({ timeout: 5_000 });
    expect(await page.getByTestId('record-name').textContent()).toBe('comparison opened from its note');
    expect(await page.getByTestId('history-record').getAttribute('data-kind')).toBe('comparison');
    // A saved comparison's cells open their runs too.
    await page.getByTestId('history-record').getByTestId('open-run').first().click();
    expect(await page.getByTestId('cell-run-title').textContent()).toBe('alpha · http · c=1');
  });
});

describe('the comparison percentile picker', () => {
  it('starts on a level that has results and follows the comparison as levels finish', async () => {
    const app = await e2e.open();
    const { page } = app;
    await page.getByTestId('tab-compare').click();
    await fillPlan(
      app,
      { name: 'picker follows', targets: servers() },
      {
        levels: '1, 2',
        seconds: 1.5,
        repetitions: 1,
        pause: 0,
      },
    );
    await page.getByTestId('compare-run').click();
    // The first level's two cells come first; the report shows once the first has finished.
    const matrix = page.getByTestId('matrix-progress');
    await expect
      .poll(async () => Number(await matrix.getAttribute('data-finished')), { timeout: 60_000, interval: 50 })
      .toBe(2);
    expect(await page.getByTestId('at-level').inputValue()).toBe('1');
    const firstColumn = page.getByTestId('comparison-percentiles').locator('tbody tr td:nth-child(2)');
    expect(await firstColumn.first().textContent()).toMatch(/^\d/);
    engine.resume();
    await page.getByTestId('comparison-saved').waitFor({ timeout: 60_000 });
    // At the end, the highest level, which ran last.
    expect(await page.getByTestId('at-level').inputValue()).toBe('2');
    // A level the person picks stays picked.
    await page.getByTestId('at-level').selectOption('1');
    expect(await page.getByTestId('at-level').inputValue()).toBe('1');
  });
});

/** How many pixels of the rows [from, to) differ from the image's first pixel. */
function drawnPixels(image: PNG, from: number, to: number): number {
  const [r0, g0, b0] = [image.data[0]!, image.data[1]!, image.data[2]!];
  let drawn = 0;
  for (let y = from; y < to; y++) {
    for (let x = 0; x < image.width; x++) {
      const i = (y * image.width + x) * 4;
      if (image.data[i] !== r0 || image.data[i + 1] !== g0 || image.data[i + 2] !== b0) drawn++;
    }
  }
  return drawn;
}

describe('chart PNGs', () => {
  it('are at least twice the size on screen, carry a title line and are named after what they show', async () => {
    const app = await e2e.open();
    const { page } = app;
    await fillScenario(app, { url: alpha.url, connections: 3, seconds: 1 });
    await page.getByTestId('run-button').click();
    expect(await waitForStatus(app, ['completed', 'cancelled', 'failed'])).toBe('completed');
    const [result] = app.results();
    // The person's own calendar day the run started on.
    const started = new Date(result!.startedAt);
    const two = (n: number) => String(n).padStart(2, '0');
    const day = `${started.getFullYear()}-${two(started.getMonth() + 1)}-${two(started.getDate())}`;

    const canvas = page.getByTestId('chart-throughput');
    const box = (await canvas.boundingBox())!;
    const png = await download(page, 'png-chart-throughput');
    expect(png.name).toBe(`trebuchet-throughput-127-0-0-1-${alpha.port}-c3-${day}.png`);
    const image = PNG.sync.read(readFileSync(png.path));
    expect(image.width).toBeGreaterThanOrEqual(2 * Math.floor(box.width));
    expect(image.height).toBeGreaterThan(2 * Math.floor(box.height));
    // The title line sits above the chart: text in the band the chart itself does not cover.
    const band = image.height - 2 * Math.floor(box.height);
    expect(drawnPixels(image, 0, band)).toBeGreaterThan(image.width);
    copyFileSync(png.path, join(ARTIFACTS, 'e2e-chart-export.png'));
  });
});

describe('the comparison editor', () => {
  it('takes an extra CA file picked in the page, as the Run tab does, and verifies https cells with it', async () => {
    const app = await e2e.open();
    const { page } = app;
    await page.getByTestId('tab-compare').click();
    // Certificates are asked for once a TLS protocol is compared.
    expect(await page.getByTestId('plan-tls-ca-pick').count()).toBe(0);
    await page.getByTestId('plan-protocol-https').check();
    await page.getByTestId('plan-protocol-http').uncheck();
    await page.getByTestId('plan-name').fill('verified with the test CA');
    await page.getByTestId('plan-target-name-0').fill('secure');
    await page.getByTestId('plan-target-0-https').fill(secure.url);
    await page.getByTestId('plan-remove-target-1').click();
    await page.getByTestId('plan-levels').fill('1');
    await page.getByTestId('plan-duration').fill('0.5');
    await page.getByTestId('plan-repetitions').fill('1');
    await page.getByTestId('plan-pause').fill('0');
    expect(await page.getByTestId('plan-tls-verify').isChecked()).toBe(true);
    await page.getByTestId('plan-tls-ca-pick').setInputFiles(certs.ca.certFile);
    await page.getByTestId('compare-run').click();
    await page.getByTestId('comparison-saved').waitFor({ timeout: 60_000 });
    const cell = page.getByTestId('comparison-cell');
    expect(await cell.count()).toBe(1);
    expect(await cell.getAttribute('data-runs')).toBe('1');
    expect(Number(await cell.getAttribute('data-rps'))).toBeGreaterThan(0);
    expect(await cell.getAttribute('data-failed')).toBe('0');
  });
});

/** Fills the comparison editor with one https target at 1 connection for 0.5 s, without a pause. */
async function oneHttpsCell(page: Page, name: string, url: string): Promise<void> {
  await page.getByTestId('tab-compare').click();
  await page.getByTestId('plan-protocol-https').check();
  await page.getByTestId('plan-protocol-http').uncheck();
  await page.getByTestId('plan-name').fill(name);
  await page.getByTestId('plan-target-name-0').fill('tls');
  await page.getByTestId('plan-target-0-https').fill(url);
  await page.getByTestId('plan-remove-target-1').click();
  await page.getByTestId('plan-levels').fill('1');
  await page.getByTestId('plan-duration').fill('0.5');
  await page.getByTestId('plan-repetitions').fill('1');
  await page.getByTestId('plan-pause').fill('0');
}

describe("the comparison's check before the matrix", () => {
  it('stops before any load on a rejected certificate, says why per URL, and runs again with the fix', async () => {
    const app = await e2e.open();
    const { page } = app;
    await oneHttpsCell(page, 'self-signed, verified', selfSigned.url);
    await page.getByTestId('compare-run').click();
    const failures = page.getByTestId('preflight-failure');
    await failures.first().waitFor({ timeout: 30_000 });
    expect(await failures.count()).toBe(1);
    expect(await failures.getAttribute('data-url')).toBe(selfSigned.url);
    // The reason is on screen, not in a tooltip, and no cell ran.
    expect(await failures.getByTestId('preflight-reason').textContent()).toMatch(/certificate/i);
    expect(await page.getByTestId('matrix-progress').count()).toBe(0);
    expect(await page.getByTestId('comparison-report').count()).toBe(0);
    expect(selfSigned.requests).toBe(0);
    await app.screenshot('e2e-preflight-failed.png');
    await page.emulateMedia({ colorScheme: 'dark' });
    await app.screenshot('e2e-preflight-failed-dark.png');
    await page.emulateMedia({ colorScheme: 'light' });

    await failures.getByTestId('preflight-fix-turn-off-verification').click();
    await page.getByTestId('comparison-saved').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('plan-tls-verify').isChecked()).toBe(false);
    expect(await page.getByTestId('comparison-cell').getAttribute('data-runs')).toBe('1');
    expect(selfSigned.requests).toBeGreaterThan(0);
  });

  it('offers the CA file for a certificate its CA signed, and verifies the run with it', async () => {
    const app = await e2e.open();
    const { page } = app;
    await oneHttpsCell(page, 'signed by the test CA', secure.url);
    await page.getByTestId('compare-run').click();
    const failure = page.getByTestId('preflight-failure');
    await failure.waitFor({ timeout: 30_000 });
    await failure.getByTestId('preflight-fix-choose-ca-file').click();
    // The CA file's picker has the focus: the person picks the file and runs again.
    const active = await page.evaluate(
      () =>
        (globalThis as unknown as { document: { activeElement: { id: string } | null } }).document
          .activeElement?.id,
    );
    expect(active).toBe('plan-tls-ca-file');
    await page.getByTestId('plan-tls-ca-pick').setInputFiles(certs.ca.certFile);
    await page.getByTestId('compare-run').click();
    await page.getByTestId('comparison-saved').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('plan-tls-verify').isChecked()).toBe(true);
    await page.getByTestId('open-run').click();
    expect(await page.getByTestId('tls-facts').textContent()).toContain('verified');
  });
});
