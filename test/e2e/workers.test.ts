import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatorCpuText } from '../../shared/format/generator-text.ts';
import type { RunResult } from '../../shared/model/result.ts';
import { ScriptedEngine } from '../helpers/scripted-engine.ts';
import { handlers, startHttpServer, type TestServer } from '../helpers/servers.ts';
import { fillScenario, waitForStatus } from './app-page.ts';
import { useE2eApp } from './fixture.ts';

/*
 * The Workers field (options.workers, the CLI's -t) where a person sets it: the Run tab's
 * Connection section, the Compare and the Capacity editors. Each runs a tiny load in 2 engine
 * workers (a scripted engine: test/integration/engine-workers.test.ts counts what the real
 * engine's workers send), and the report it opens says 2 workers with each one's CPU.
 */

const engine = new ScriptedEngine();
const e2e = useE2eApp({ engine });
let server: TestServer;

beforeAll(async () => {
  server = await startHttpServer(handlers.ok('hello'));
});

afterAll(async () => {
  await server?.close();
});

const url = () => `${server.url}test.html`;

/** The report's "CPU use" fact: "2 workers: 41%, 38% of a core on average (max 55%, 49%)". */
async function cpuUse(report: Locator): Promise<string | null> {
  return report
    .getByTestId('generator-facts')
    .locator('.facts__row', { hasText: 'CPU use' })
    .locator('dd')
    .textContent();
}

/** The result ran in 2 workers, and the report says so with each worker's CPU, as shared/ words it. */
async function expectTwoWorkers(report: Locator, result: RunResult | undefined): Promise<void> {
  expect(result).toBeDefined();
  expect(result!.options.workers).toBe(2);
  expect(result!.generator.workers).toHaveLength(2);
  const text = await cpuUse(report);
  expect(text).toMatch(/^2 workers: \d+%, \d+% of a core on average \(max \d+%, \d+%\)/);
  expect(text).toBe(generatorCpuText(result!));
}

describe('workers in the browser', () => {
  it('Run tab: 20 connections for 1 s in 2 workers; the report shows 2 workers and the CPU of each', async () => {
    const app = await e2e.open();
    const { page } = app;
    await fillScenario(app, { url: url(), connections: 20, seconds: 1 });
    await page.getByTestId('section-connection').getByRole('button').first().click();
    const workers = page.getByTestId('opt-workers');
    expect(await workers.inputValue()).toBe('auto');
    await workers.fill('0');
    await workers.blur();
    expect(await page.getByTestId('error-options.workers').textContent()).toBe('workers must be at least 1');
    await workers.fill('2');
    expect(await page.getByTestId('error-options.workers').count()).toBe(0);

    await page.getByTestId('run-button').click();
    expect(await waitForStatus(app, ['completed', 'cancelled', 'failed'])).toBe('completed');
    const [result] = app.results();
    expect(engine.started[0]!.options.workers).toBe(2);
    await expectTwoWorkers(page.locator('body'), result);
    expect(result!.requests.errors).toBe(0);
    expect(result!.requests.total).toBeGreaterThan(0);
    await page.getByTestId('generator-facts').scrollIntoViewIfNeeded();
    await app.screenshot('workers-report.png');
  });

  it('Compare tab: a 1-target 1-level comparison in 2 workers; its cell opens with 2 workers', async () => {
    const app = await e2e.open();
    const { page } = app;
    await page.getByTestId('tab-compare').click();
    await page.getByTestId('plan-remove-target-1').click();
    await page.getByTestId('plan-name').fill('nginx in 2 workers');
    await page.getByTestId('plan-target-name-0').fill('nginx');
    await page.getByTestId('plan-target-0-http').fill(url());
    await page.getByTestId('plan-levels').fill('20');
    await page.getByTestId('plan-duration').fill('1');
    await page.getByTestId('plan-repetitions').fill('1');
    await page.getByTestId('plan-pause').fill('0');
    const workers = page.getByTestId('plan-workers');
    expect(await workers.inputValue()).toBe('auto');
    await workers.fill('two');
    await workers.blur();
    expect(await page.getByTestId('error-options.workers').textContent()).toMatch(
      /^workers must be 'auto' or a whole number from 1 to 256/,
    );
    await workers.fill('2');
    expect(await page.getByTestId('error-options.workers').count()).toBe(0);
    await workers.scrollIntoViewIfNeeded();
    await app.screenshot('workers-compare-editor.png');

    await page.getByTestId('compare-run').click();
    await page.getByTestId('comparison-saved').waitFor({ timeout: 60_000 });
    const outcomes = app.outcomes();
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0]!.result.load).toMatchObject({ model: 'closed', connections: 20 });
    const rows = page.getByTestId('comparison-cell');
    expect(await rows.count()).toBe(1);
    await rows.first().getByTestId('open-run').click();
    const cell = page.getByTestId('cell-run');
    await cell.waitFor();
    await expectTwoWorkers(cell, outcomes[0]!.result);
  });

  it('Capacity tab: a one-step search in 2 workers; its step opens with 2 workers', async () => {
    const app = await e2e.open();
    const { page } = app;
    await page.getByTestId('tab-capacity').click();
    await page.getByTestId('capacity-welcome').waitFor();
    await page.getByTestId('capacity-remove-target-1').click();
    await page.getByTestId('capacity-target-name-0').fill('nginx');
    await page.getByTestId('capacity-target-url-0').fill(url());
    await page.getByTestId('capacity-p99').fill('100');
    await page.getByTestId('capacity-start-rate').fill('100');
    await page.getByTestId('capacity-max-rate').fill('100');
    await page.getByTestId('capacity-step').fill('1');
    await page.getByTestId('capacity-warmup').fill('0');
    const workers = page.getByTestId('capacity-workers');
    expect(await workers.inputValue()).toBe('auto');
    await workers.fill('2');
    await page.getByTestId('capacity-run').click();
    await page.getByTestId('capacity-answer').waitFor({ timeout: 60_000 });
    await page.getByTestId('capacity-open-step-0-0').click();
    const step = page.getByTestId('capacity-step-run');
    await step.waitFor();
    const text = await cpuUse(step);
    expect(text).toMatch(/^2 workers: \d+%, \d+% of a core on average \(max \d+%, \d+%\)/);
  });
});
