import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEB_SETTINGS_FILE } from '../../electron/stores/settings-store.ts';
import { SETTINGS_VERSION, settingsSchema, type UiSettings } from '../../shared/records/settings.ts';
import { ScriptedEngine } from '../helpers/scripted-engine.ts';
import { handlers, startHttpServer, type TestServer } from '../helpers/servers.ts';
import { fillPlan, fillScenario } from './app-page.ts';
import { useE2eApp } from './fixture.ts';

/*
 * Settings that stay (issue 22), in Chromium through the web host: the Run draft and the view
 * come back after a reload (kept in the host's web-settings.json), and a preset opened over an
 * edited comparison asks first, both answers; the matrix's columns as picked are still there
 * after a reload. One small comparison (2 cells of 0.5 s, on a scripted engine) is the only load.
 */

const e2e = useE2eApp({ engine: new ScriptedEngine() });
let server: TestServer;

beforeAll(async () => {
  server = await startHttpServer(handlers.ok('kept'));
});

afterAll(async () => {
  await server?.close();
});

/** The host's settings file as it is now (null until the page first kept something). */
function keptOnDisk(): UiSettings | null {
  const file = join(e2e.dataDir, WEB_SETTINGS_FILE);
  if (!existsSync(file)) return null;
  const { version, ...settings } = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  expect(version).toBe(SETTINGS_VERSION);
  return settingsSchema.parse(settings).ui;
}

async function openPreset(page: Page, id: string): Promise<void> {
  await page.getByTestId('tab-presets').click();
  await page.locator(`[data-testid="preset-row"][data-preset-id="${id}"]`).getByTestId('preset-open').click();
}

describe('settings that stay', () => {
  it('keeps the Run draft and the view shown through a reload', async () => {
    const app = await e2e.open();
    const { page } = app;
    await fillScenario(app, {
      url: 'http://127.0.0.1:9/kept',
      connections: 7,
      seconds: 3,
      name: 'kept draft',
    });
    await page.getByTestId('tab-compare').click();
    await page.getByTestId('plan-editor').waitFor();
    // Sent once the page has rested (400 ms), written by the host.
    await expect.poll(() => keptOnDisk()?.view, { timeout: 5_000 }).toBe('compare');
    expect(keptOnDisk()?.drafts.run?.content.name).toBe('kept draft');

    await page.reload();
    await page.getByTestId('plan-editor').waitFor();
    expect(await page.getByTestId('tab-compare').getAttribute('aria-current')).toBe('page');
    await page.getByTestId('tab-run').click();
    expect(await page.getByTestId('target-url-0').inputValue()).toBe('http://127.0.0.1:9/kept');
    expect(await page.getByTestId('load-connections').inputValue()).toBe('7');
    expect(await page.getByTestId('load-duration').inputValue()).toBe('3');
    expect(await page.getByTestId('scenario-name').inputValue()).toBe('kept draft');
    await app.screenshot('e2e-settings-run-draft-after-reload.png');
  });

  it('asks before a preset replaces an edited comparison: Keep editing keeps it, Replace opens the preset', async () => {
    const app = await e2e.open();
    const { page } = app;
    const dialog = page.getByRole('dialog', { name: 'Replace the unsaved comparison?' });
    await openPreset(page, 'builtin-seed-000-vegeta-rate');
    await page.getByTestId('plan-editor').waitFor();
    // Opening a preset over a draft nobody edited asks nothing.
    expect(await dialog.count()).toBe(0);
    await page.getByTestId('plan-target-name-0').fill('My Apache');
    await page.getByTestId('plan-levels').fill('50, 60');

    await openPreset(page, 'builtin-seed-003-jmeter-threads');
    await dialog.waitFor();
    // The safe answer has the focus.
    const keep = dialog.getByRole('button', { name: 'Keep editing' });
    expect(
      await keep.evaluate(
        (el: { ownerDocument: { activeElement: unknown } }) => el === el.ownerDocument.activeElement,
      ),
    ).toBe(true);
    await app.screenshot('e2e-settings-replace-dialog.png');
    await keep.click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByTestId('plan-editor').waitFor();
    expect(await page.getByTestId('plan-target-name-0').inputValue()).toBe('My Apache');
    expect(await page.getByTestId('plan-levels').inputValue()).toBe('50, 60');

    // Esc is Keep editing too.
    await openPreset(page, 'builtin-seed-003-jmeter-threads');
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await page.getByTestId('plan-levels').inputValue()).toBe('50, 60');

    await openPreset(page, 'builtin-seed-003-jmeter-threads');
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Replace' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByTestId('plan-editor').waitFor();
    expect(await page.getByTestId('plan-levels').inputValue()).toBe('5, 30, 500');
    expect(await page.getByTestId('plan-target-name-0').inputValue()).not.toBe('My Apache');

    // The opened preset is not an unsaved change: the next preset opens at once.
    await openPreset(page, 'builtin-seed-000-vegeta-rate');
    await page.getByTestId('plan-editor').waitFor();
    expect(await page.getByTestId('plan-levels').inputValue()).not.toBe('5, 30, 500');
    expect(await dialog.count()).toBe(0);
    await app.screenshot('e2e-settings-replaced.png');
  });

  it('keeps the matrix columns as picked through a reload, in the comparison History opens', async () => {
    const app = await e2e.open();
    const { page } = app;
    const header = (id: string) =>
      page.getByTestId('comparison-table').locator(`thead th[data-column="${id}"]`);
    await page.getByTestId('tab-compare').click();
    await fillPlan(
      app,
      {
        name: 'columns',
        targets: [
          { name: 'a', url: server.url },
          { name: 'b', url: server.url },
        ],
      },
      { levels: '1', seconds: 0.5, repetitions: 1 },
    );
    await page.getByTestId('compare-run').click();
    await page.getByTestId('comparison-saved').waitFor({ timeout: 60_000 });
    expect(await header('latencyMean').count()).toBe(0);
    await page.getByTestId('column-picker-toggle').click();
    await page.getByTestId('column-latencyMean').check();
    expect(await header('latencyMean').count()).toBe(1);
    await expect.poll(() => keptOnDisk()?.matrixColumns, { timeout: 5_000 }).toContain('latencyMean');

    await page.reload();
    await page.getByTestId('plan-editor').waitFor();
    await page.getByTestId('tab-history').click();
    await page.getByTestId('history-row').first().getByTestId('history-open').click();
    await page.getByTestId('comparison-table').waitFor();
    expect(await header('latencyMean').count()).toBe(1);
    await app.screenshot('e2e-settings-columns-after-reload.png');
  });
});
