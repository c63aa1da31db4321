/**
 * Seed 003's wrong-path case in the browser (issue 19): the built-in preset opened, only its
 * ports changed to servers without its /1kb.html. Run comparison stops before any load with
 * the status and the server's first line; "Run anyway" measures the 404s on purpose; History
 * marks that comparison "all non-2xx", not a green "completed". The same for a single run.
 * The pre-flights are real, the load scripted (every answer a 404, as the servers here give):
 * test/integration/preflight-status.test.ts measures the 404s with the real engine.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { endAfterAll } from '../helpers/cleanup.ts';
import { ScriptedEngine } from '../helpers/scripted-engine.ts';
import { handlers, startHttpServer, type TestServer } from '../helpers/servers.ts';
import { fillScenario, waitForStatus } from './app-page.ts';
import { useE2eApp } from './fixture.ts';

const e2e = useE2eApp({ engine: new ScriptedEngine({ server: () => ({ status: 404 }) }) });
const endAll = endAfterAll();

/** nginx's own 404 page. */
const NGINX_404 =
  '<html>\r\n<head><title>404 Not Found</title></head>\r\n<body>\r\n<center><h1>404 Not Found</h1></center>\r\n' +
  '<hr><center>nginx/1.22.1</center>\r\n</body>\r\n</html>\r\n';

const missingPage = async (): Promise<TestServer> =>
  endAll(
    await startHttpServer(handlers.status(404, 'Not Found', NGINX_404, { 'content-type': 'text/html' })),
  );

/** Points a target's placeholder URL at a server, keeping the preset's path and query. */
async function pointAt(page: Page, target: number, server: TestServer): Promise<string> {
  const field = page.getByTestId(`plan-target-${target}-http`);
  const placeholder = new URL(await field.inputValue());
  const url = `${new URL(server.url).origin}${placeholder.pathname}${placeholder.search}`;
  await field.fill(url);
  return url;
}

describe('a wrong path before any load', () => {
  it('stops seed 003 at its missing /1kb.html, runs it anyway on request, and History marks the verdict', async () => {
    const [apache, nginx] = [await missingPage(), await missingPage()];
    const app = await e2e.open();
    const { page } = app;
    await page.getByTestId('tab-presets').click();
    await page
      .locator('[data-testid="preset-row"][data-preset-id="builtin-seed-003-jmeter-threads"]')
      .getByTestId('preset-open')
      .click();
    await page.getByTestId('plan-editor').waitFor();
    const apacheUrl = await pointAt(page, 0, apache);
    await pointAt(page, 1, nginx);
    // Only the ports changed: 5, 30 and 500 threads for 60 s each, as the preset has them.
    expect(await page.getByTestId('plan-levels').inputValue()).toBe('5, 30, 500');
    await page.getByTestId('compare-run').click();

    const failures = page.getByTestId('preflight-failure');
    await failures.first().waitFor({ timeout: 30_000 });
    expect(await failures.count()).toBe(2);
    const first = failures.first();
    expect(await first.getAttribute('data-url')).toBe(apacheUrl);
    expect(await first.getByTestId('preflight-reason').textContent()).toBe(
      `GET ${apacheUrl.slice(0, 99)}… answered 404 Not Found: “404 Not Found” — check the URL, or run anyway to measure this answer on purpose`,
    );
    // One request per URL, the pre-flight's: no load reached either server.
    expect([apache.requests, nginx.requests]).toEqual([1, 1]);
    expect(await page.getByTestId('comparison-cell').count()).toBe(0);
    // The 1 KB query string wraps inside the card: nothing is pushed off-screen.
    const widths = await page.getByTestId('preflight-failures').evaluate((el) => {
      // This file is type-checked without the DOM lib.
      const e = el as unknown as { scrollWidth: number; clientWidth: number };
      return { scroll: e.scrollWidth, client: e.clientWidth };
    });
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);
    await app.screenshot('e2e-preflight-404-comparison.png');

    // Measured on purpose, made short: "Run anyway" runs the same plan with the check off.
    await page.getByTestId('plan-levels').fill('1');
    await page.getByTestId('plan-duration').fill('0.5');
    await page.getByTestId('plan-pause').fill('0');
    const checked = apache.requests;
    await page.getByTestId('compare-run').click();
    await page.getByTestId('preflight-fix-run-anyway').first().click();
    // Not a bound on time: what a scripted comparison takes on a loaded machine (60 s ran out at load 19).
    await page.getByTestId('comparison-saved').waitFor({ timeout: 150_000 });
    expect(await page.getByTestId('plan-check-status').isChecked()).toBe(false);
    const outcomes = app.outcomes();
    expect(outcomes).toHaveLength(2);
    for (const o of outcomes) {
      expect(Object.keys(o.result.statusCodes)).toEqual(['404']);
      expect(o.result.requests.ok).toBe(0);
    }
    // The cell's engine's own pre-flight reached the server, letting the 404 through now.
    expect(apache.requests).toBeGreaterThan(checked);

    await page.getByTestId('tab-history').click();
    const rows = page.getByTestId('history-row');
    await expect.poll(() => rows.count()).toBe(1);
    const status = rows.first().getByTestId('history-status');
    expect(await status.textContent()).toBe('all non-2xx');
    expect(await status.getAttribute('class')).toBe('status status--bad');
    await app.screenshot('e2e-preflight-404-history.png');
  });

  it('stops a single run at a 404 and runs it anyway from the message', async () => {
    const missing = await missingPage();
    const app = await e2e.open();
    const { page } = app;
    await fillScenario(app, { url: `${missing.url}1kb.html`, connections: 2, seconds: 0.5 });
    await page.getByTestId('run-button').click();
    expect(await waitForStatus(app, ['completed', 'cancelled', 'failed'])).toBe('failed');
    const error = page.getByTestId('run-error');
    expect(await error.textContent()).toContain(
      `Answered with an error status: GET ${missing.url}1kb.html answered 404 Not Found: “404 Not Found”`,
    );
    expect(missing.requests).toBe(1);
    await app.screenshot('e2e-preflight-404-run.png');

    await page.getByTestId('run-anyway').click();
    expect(await waitForStatus(app, ['completed', 'cancelled'])).toBe('completed');
    expect(await page.getByTestId('run-status').textContent()).toBe('completed · all non-2xx');
    // The pre-flight again, now letting the 404 through.
    expect(missing.requests).toBe(2);
  });
});
