import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contrast, flatten, parseCssColor } from '../helpers/contrast.ts';
import { ScriptedEngine } from '../helpers/scripted-engine.ts';
import { handlers, startHttpServer, type TestServer } from '../helpers/servers.ts';
import { waitForRunDone, type AppPage } from './app-page.ts';
import { axeViolations } from './axe.ts';
import { useE2eApp } from './fixture.ts';
import { runOneStepCapacity, runSmallComparison } from './small-jobs.ts';

/*
 * Accessibility in Chromium (issue 19), on a scripted engine: axe-core checks every view, empty and with a run,
 * a comparison, a capacity search and their history in it, for serious and critical
 * violations (contrast, names, labels); and what axe does not measure is measured here: the
 * focus ring against what is around it, the chart buttons' and header fields' names, the
 * repetition squares' labels, and the way to Run from the URL field.
 */

const e2e = useE2eApp({ engine: new ScriptedEngine() });
let server: TestServer;

beforeAll(async () => {
  server = await startHttpServer(handlers.ok('hello'));
});

afterAll(async () => {
  await server?.close();
});

/** Checks the view shown now; logs what axe found, so a failure says where. */
async function expectNoSeriousViolations(app: AppPage, view: string): Promise<void> {
  const found = await axeViolations(app.page);
  if (found.length > 0) console.log(`${view}:\n${JSON.stringify(found, null, 1)}`);
  expect(found, view).toEqual([]);
}

/** The backgrounds under an element (its own first when `own`), top down to the first opaque one. */
const backgrounds = (l: Locator, own: boolean): Promise<string[]> =>
  l.evaluate((el, own) => {
    interface El {
      parentElement: El | null;
    }
    const style = (e: El) =>
      (globalThis as unknown as { getComputedStyle(e: El): { backgroundColor: string } }).getComputedStyle(e)
        .backgroundColor;
    const out: string[] = [];
    const start = el as unknown as El;
    for (let e: El | null = own ? start : start.parentElement; e;) {
      const c = style(e);
      if (c !== 'rgba(0, 0, 0, 0)' && c !== 'transparent') {
        out.push(c);
        if (!c.startsWith('rgba')) break;
      }
      e = e.parentElement;
    }
    return out;
  }, own);

const computed = (l: Locator, property: 'color' | 'boxShadow'): Promise<string> =>
  l.evaluate(
    (el, p) =>
      (globalThis as unknown as { getComputedStyle(e: unknown): Record<string, string> }).getComputedStyle(
        el,
      )[p]!,
    property,
  );

/** The contrast of the focus ring of an element focused from the keyboard against what is around it. */
async function focusRingContrast(page: Page, l: Locator): Promise<number> {
  await page.keyboard.press('Shift');
  await l.focus();
  const shadow = await computed(l, 'boxShadow');
  // The outermost ring is the last shadow: "rgb(255, 255, 255) 0px 0px 0px 2px, rgb(29, 90, 224) 0px 0px 0px 4px".
  const rings = shadow.match(/rgba?\([^)]*\)/g) ?? [];
  expect(rings.length, `no focus ring on ${String(l)}: ${shadow}`).toBeGreaterThan(0);
  return contrast(parseCssColor(rings.at(-1)!), flatten(await backgrounds(l, false)));
}

const textContrast = async (l: Locator): Promise<number> =>
  contrast(parseCssColor(await computed(l, 'color')), flatten(await backgrounds(l, true)));

describe('accessibility (issue 19)', () => {
  it('every view passes axe-core with no serious or critical violation, empty and with results', async () => {
    const app = await e2e.open();
    const { page } = app;
    for (const view of ['run', 'compare', 'capacity', 'history', 'presets']) {
      await page.getByTestId(`tab-${view}`).click();
      await expectNoSeriousViolations(app, `${view} (empty)`);
    }
    // "Send live metrics to…", its dialog open, a field refused.
    await page.getByTestId('metrics-out').click();
    await page.getByTestId('metrics-listen').fill('nope');
    await page.getByTestId('metrics-out-save').click();
    await page.getByTestId('metrics-listen-error').waitFor();
    await expectNoSeriousViolations(app, 'send live metrics (dialog)');
    await page.getByTestId('metrics-out-dialog').getByRole('button', { name: 'Cancel' }).click();

    // A run: its report, charts and exports.
    await page.getByTestId('tab-run').click();
    await page.getByTestId('target-url-0').fill(server.url);
    await page.getByTestId('load-duration').fill('1');
    await page.getByTestId('run-button').click();
    await waitForRunDone(app);
    await page.getByTestId('verdict').waitFor();
    await expectNoSeriousViolations(app, 'run (report)');

    // A comparison: its matrix, repetitions and charts.
    await runSmallComparison(app, 'axe', server.url);
    await expectNoSeriousViolations(app, 'compare (report)');
    // The repetition squares name their server, protocol and level.
    const squares = await page
      .getByTestId('open-repetition')
      .evaluateAll((els) => els.map((e) => (e as unknown as { ariaLabel: string }).ariaLabel));
    expect(squares).toHaveLength(4);
    for (const label of squares) expect(label).toMatch(/^Open (one|two) · http · c=1 repetition [12]: /);

    // A capacity search of one step: its answer, knee and steps.
    await runOneStepCapacity(app, server.url);
    await expectNoSeriousViolations(app, 'capacity (results)');

    await page.getByTestId('tab-history').click();
    await page.getByTestId('history-open').first().click();
    await page.getByTestId('history-record').waitFor();
    await expectNoSeriousViolations(app, 'history (a record open)');
    await page.getByTestId('tab-presets').click();
    await expectNoSeriousViolations(app, 'presets');
    await app.screenshot('a11y-presets.png');
  });

  it('rings the focus at 3:1 at least, and reads inactive tabs and muted text at 4.5:1', async () => {
    const app = await e2e.open();
    const { page } = app;
    await page.getByTestId('target-url-0').fill(server.url);
    const rings = {
      tab: await focusRingContrast(page, page.getByTestId('tab-compare')),
      url: await focusRingContrast(page, page.getByTestId('target-url-0')),
      button: await focusRingContrast(page, page.getByTestId('save-scenario-preset')),
      run: await focusRingContrast(page, page.getByTestId('run-button')),
    };
    const texts = {
      inactiveTab: await textContrast(page.getByTestId('tab-history')),
      mutedHint: await textContrast(page.locator('.field__hint').first()),
    };
    await page.getByTestId('tab-presets').click();
    texts.mutedHint = Math.min(
      texts.mutedHint,
      await textContrast(page.locator('.view__head .muted').first()),
    );
    console.log(
      `focus ring ${Object.entries(rings)
        .map(([k, v]) => `${k} ${v.toFixed(2)}:1`)
        .join(', ')}; inactive tab ${texts.inactiveTab.toFixed(2)}:1, muted ${texts.mutedHint.toFixed(2)}:1`,
    );
    // The ring was a 35% halo (about 1.7:1), inactive tabs 4.2:1 and muted labels 4.4:1.
    for (const [what, ratio] of Object.entries(rings)) expect(ratio, what).toBeGreaterThanOrEqual(3);
    expect(texts.inactiveTab).toBeGreaterThanOrEqual(4.5);
    expect(texts.mutedHint).toBeGreaterThanOrEqual(4.5);
    await page.getByTestId('tab-run').focus();
    await app.screenshot('a11y-focus-ring.png');
  });

  it('names the chart buttons for their chart and the header fields, and shows the way to Run from the URL', async () => {
    const app = await e2e.open();
    const { page } = app;
    const url = page.getByTestId('target-url-0');
    await url.fill(server.url);
    // Run sits before the form: the URL field says the key, and the key runs from it.
    const described = await url.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${described}"]`).textContent()).toBe('Ctrl+↵ runs from any field');
    expect(await page.getByTestId('run-button').getAttribute('aria-keyshortcuts')).toBe(
      'Control+Enter Meta+Enter',
    );

    await page.getByTestId('target-0').locator('summary', { hasText: 'Headers and body' }).click();
    await page.getByTestId('header-add-0').click();
    await page.getByTestId('header-add-0').click();
    expect(await page.getByLabel('Header 2 name', { exact: true }).getAttribute('data-testid')).toBe(
      'header-name-0-1',
    );
    expect(await page.getByLabel('Header 2 value', { exact: true }).getAttribute('data-testid')).toBe(
      'header-value-0-1',
    );
    await page.getByRole('button', { name: 'Remove header 2' }).click();
    await page.getByRole('button', { name: 'Remove header 1' }).click();

    await page.getByTestId('load-duration').fill('1');
    await url.focus();
    await page.keyboard.press('Control+Enter');
    await waitForRunDone(app);
    const names = await page
      .getByRole('button', { name: /^PNG/ })
      .evaluateAll((els) => els.map((e) => (e as unknown as { ariaLabel: string }).ariaLabel));
    expect(names.length).toBeGreaterThanOrEqual(3);
    expect(new Set(names).size).toBe(names.length);
    for (const n of names) expect(n).toMatch(/^PNG of \S/);
    expect(names.some((n) => n.startsWith('PNG of Throughput'))).toBe(true);
    console.log(`chart buttons: ${names.join('; ')}`);
  });
});
