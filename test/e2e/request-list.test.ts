import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedEngine } from '../helpers/scripted-engine.ts';
import { startHttpServer, type TestServer } from '../helpers/servers.ts';
import { waitForStatus } from './app-page.ts';
import { useE2eApp } from './fixture.ts';

/*
 * A target card holding a list of requests: pasted, run round-robin against a server that
 * counts requests per path, kept by the settings over a reload; a line that is no request
 * named at the field; a vegeta targets file imported through the picker; a Compare server's list.
 * The pre-flight is real (one request per distinct URL), the load scripted:
 * test/integration/request-list.test.ts counts the real engine's requests per path.
 */

const e2e = useE2eApp({ engine: new ScriptedEngine() });
let server: TestServer;
let dir: string;
const perPath = new Map<string, number>();

beforeAll(async () => {
  server = await startHttpServer((req, res) => {
    perPath.set(req.url ?? '', (perPath.get(req.url ?? '') ?? 0) + 1);
    res.end('ok');
  });
  dir = mkdtempSync(join(tmpdir(), 'trebuchet-e2e-list-'));
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a list of requests in the target card', () => {
  it('a pasted list of 3 URLs runs round-robin: the server counts the same per path', async () => {
    const app = await e2e.open();
    const { page } = app;
    const base = `http://127.0.0.1:${server.port}`;
    await page.getByTestId('target-list-add-0').click();
    const text = page.getByTestId('target-list-0-text');
    // A line that is no request is named at the field.
    await text.fill(`${base}/a\nnot a url\n`);
    await expect
      .poll(() => page.getByTestId('error-targets.0.requests').textContent())
      .toMatch(/^line 2, url: /);
    await app.screenshot('e2e-list-parse-error.png');

    await text.fill(`${base}/a\n${base}/b\n${base}/c\n`);
    await expect
      .poll(() => page.getByTestId('target-list-0-summary').textContent())
      .toBe(`3 requests, 3 distinct URLsGET ${base}/aGET ${base}/bGET ${base}/c`);
    await page.getByTestId('load-limit-requests').click();
    await page.getByTestId('load-requests').fill('300');
    await page.getByTestId('load-connections').fill('3');
    await page.getByTestId('target-0').scrollIntoViewIfNeeded();
    await app.screenshot('e2e-list-pasted.png');
    await page.getByTestId('run-button').click();
    expect(await waitForStatus(app, ['completed', 'failed'])).toBe('completed');
    const [result] = app.results();
    expect(result!.error).toBeNull();
    expect(result!.requests.ok).toBe(300);
    expect(result!.target.requests).toHaveLength(3);
    // 100 each, round-robin; the server saw the pre-flight's one request per distinct URL.
    expect(result!.urls!.rows.map((r) => [r.request?.url, r.requests])).toEqual(
      ['/a', '/b', '/c'].map((p) => [`${base}${p}`, 100]),
    );
    expect(Object.fromEntries(perPath)).toEqual({ '/a': 1, '/b': 1, '/c': 1 });

    // The settings keep the list in the Run draft: a reload shows it again.
    await page.reload();
    await expect
      .poll(() => page.getByTestId('target-list-0-text').inputValue())
      .toBe(`${base}/a\n${base}/b\n${base}/c`);
  });

  it('imports a vegeta targets file through the picker and by a drop; removing the list brings back one URL', async () => {
    const app = await e2e.open();
    const { page } = app;
    const file = join(dir, 'targets.http');
    const base = `http://127.0.0.1:${server.port}`;
    writeFileSync(file, `GET ${base}/x\nX-Test: 1\n\nPOST ${base}/y\n\nGET ${base}/x\n`);
    await page.getByTestId('target-url-0').fill(`${base}/one`);
    await page.getByTestId('target-list-add-0').click();
    await page.getByTestId('target-list-0-import').setInputFiles(file);
    await expect
      .poll(() => page.getByTestId('target-list-0-summary').textContent())
      .toBe(`3 requests, 2 distinct URLsGET ${base}/xPOST ${base}/yGET ${base}/x`);
    await expect.poll(() => page.getByTestId('target-list-0').textContent()).toContain('targets.http');
    await expect
      .poll(() => page.getByTestId('target-list-0').textContent())
      .toContain('detected: vegeta http');
    // A file dropped on the list replaces it, read the same way.
    const dropped = await page.evaluateHandle((text) => {
      const g = globalThis as unknown as {
        DataTransfer: new () => { items: { add(file: unknown): void } };
        File: new (parts: string[], name: string) => unknown;
      };
      const dt = new g.DataTransfer();
      dt.items.add(new g.File([text], 'dropped.txt'));
      return dt;
    }, `${base}/d1\n${base}/d2\n`);
    await page.getByTestId('target-list-0-text').dispatchEvent('drop', { dataTransfer: dropped });
    await expect
      .poll(() => page.getByTestId('target-list-0-summary').textContent())
      .toBe(`2 requests, 2 distinct URLsGET ${base}/d1GET ${base}/d2`);
    await expect.poll(() => page.getByTestId('target-list-0').textContent()).toContain('dropped.txt');
    await page.getByTestId('target-list-0-import').setInputFiles(file);
    await page.getByTestId('target-list-0-order-random').click();
    expect(await page.getByTestId('target-list-0-seed').inputValue()).toMatch(/^\d+$/);
    await page.getByTestId('target-0').scrollIntoViewIfNeeded();
    await app.screenshot('e2e-list-imported.png');
    await page.getByTestId('target-list-0-remove').click();
    expect(await page.getByTestId('target-url-0').inputValue()).toBe(`${base}/one`);

    // A Compare server takes a list the same way: paths on each cell's URL.
    await page.getByTestId('tab-compare').click();
    await page.getByTestId('plan-target-0-list-add').click();
    await page.getByTestId('plan-target-0-list-text').fill(`${base}/x\n${base}/y\n`);
    await expect
      .poll(() => page.getByTestId('plan-target-0-list-summary').textContent())
      .toBe(`2 requests, 2 distinct URLsGET ${base}/xGET ${base}/y`);
    await page.getByTestId('plan-target-0').scrollIntoViewIfNeeded();
    await app.screenshot('e2e-list-compare.png');
  });
});
