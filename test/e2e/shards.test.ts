import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nginxStatus, startNginx, type NginxServer } from '../helpers/nginx.ts';
import { fillScenario, waitForStatus } from './app-page.ts';
import { useE2eApp } from './fixture.ts';

/*
 * A run on shards from the Run tab (issues 23, 35), as local processes: the web host starts the
 * shard processes, starts their load once all are ready, the live view fills from their merged
 * windows, and the merged result opens in History with its Shards table.
 */

const e2e = useE2eApp();
let nginx: NginxServer;

beforeAll(async () => {
  nginx = await startNginx({ workers: 1 });
});

afterAll(async () => {
  await nginx?.stop();
});

describe('shards in the Run tab', () => {
  it('runs 2 shards on this machine, shows the run live, and History keeps the merged result with its Shards table', async () => {
    const app = await e2e.open();
    const { page } = app;
    await fillScenario(app, { url: `${nginx.httpUrl}test.html`, connections: 4, seconds: 1 });
    await page.getByTestId('shards-choice').getByRole('button').first().click();
    await page.getByTestId('shards-where-local').click();
    await page.getByTestId('shards-count').fill('2');
    await page.getByTestId('shards-choice').scrollIntoViewIfNeeded();
    await app.screenshot('shards-choice.png');

    const before = await nginxStatus(nginx);
    await page.getByTestId('run-button').click();
    expect(await waitForStatus(app, ['completed', 'cancelled', 'failed'], 60_000)).toBe('completed');
    const after = await nginxStatus(nginx);
    const [result] = app.results();
    expect(result!.shards!.map((s) => s.index)).toEqual([0, 1]);
    expect(result!.requests.total).toBe(result!.shards!.reduce((a, s) => a + s.requests, 0));
    // nginx served the shards' load, one pre-flight each, and the status read.
    const served = after.requests - before.requests;
    expect(served).toBeGreaterThanOrEqual(result!.requests.total + 3);
    expect(served).toBeLessThanOrEqual(result!.requests.total + result!.requests.inFlightAtEnd + 3);
    // The live view was fed: merged ticks arrived as the run went.
    expect(app.samples().length).toBeGreaterThan(0);

    await page.getByTestId('run-saved').getByRole('button').click();
    const record = page.getByTestId('history-record');
    const table = record.getByTestId('shards-table');
    await expect.poll(() => table.locator('tbody tr').count(), { timeout: 20_000 }).toBe(2);
    const firstRow = await table.locator('tbody tr').first().locator('td').allTextContents();
    expect(firstRow[1]).toBe(result!.shards![0]!.requests.toLocaleString('en-US'));
    await table.scrollIntoViewIfNeeded();
    await app.screenshot('shards-history.png');
  });
});
