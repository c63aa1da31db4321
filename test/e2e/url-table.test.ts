import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../electron/cli/run/command.ts';
import { urlFigures } from '../../shared/format/urls.ts';
import { formatCount } from '../../shared/figures/units.ts';
import { runResultSchema, type RunResult } from '../../shared/model/result.ts';
import { ScriptedEngine } from '../helpers/scripted-engine.ts';
import { waitForStatus, type AppPage } from './app-page.ts';
import { useE2eApp } from './fixture.ts';

/*
 * A run of a list of URLs in Chromium through the web host: the CLI's result file imported
 * into History shows the per-URL table, and the same list run again from the app (the real
 * engine behind the web host, scripted here) reports its own table, rows adding up to the run's
 * totals.
 */

const e2e = useE2eApp({ engine: new ScriptedEngine() });
const POLL = { timeout: 20_000 };
/** Paths of different sizes. */
const BODIES: Record<string, Buffer> = {
  '/page.html': Buffer.alloc(200, 97),
  '/photo.jpg': Buffer.alloc(20_000, 1),
  '/api.json': Buffer.from('{"ok":true}'),
};
let server: http.Server;
let dir: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const body = BODIES[req.url ?? ''];
    res.writeHead(body ? 200 : 404, { 'content-length': body?.length ?? 0 });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dir = mkdtempSync(join(tmpdir(), 'trebuchet-e2e-urls-'));
  writeFileSync(
    join(dir, 'urls.txt'),
    ['/page.html', '/photo.jpg', '/api.json'].map((p) => base + p).join('\n'),
  );
  let stderr = '';
  const code = await runCommand({
    argv: ['--targets', 'urls.txt', '-n', '300', '-c', '3', '-q', '--name', 'url list', '--json', 'run.json'],
    cwd: dir,
    appVersion: '0.1.0',
    stdout: new Writable({ write: (_c, _e, done) => done() }),
    stderr: new Writable({
      write: (chunk: Buffer, _e, done) => {
        stderr += chunk.toString();
        done();
      },
    }),
    onInterrupt: () => () => undefined,
  });
  expect(code, stderr).toBe(0);
}, 60_000);

afterAll(async () => {
  await new Promise((r) => server?.close(r));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The shown per-URL table's rows: the row's name and its cells. */
async function tableRows(app: AppPage): Promise<{ url: string; cells: string[] }[]> {
  const rows = app.page.getByTestId('urls-table').locator('tbody tr');
  return Promise.all(
    (await rows.all()).map(async (row) => ({
      url: (await row.locator('th').textContent()) ?? '',
      cells: await row.locator('td').allTextContents(),
    })),
  );
}

/** The rows a result's table should show: requests, status codes and received bytes as the views format them. */
function expectedRows(result: RunResult) {
  return urlFigures(result)!.map((f) => ({
    url: f.label,
    requests: formatCount(f.requests),
    statuses: f.statusCodes,
  }));
}

describe('the per-URL table in the browser', () => {
  it('shows the CLI’s list run imported into History, then the same list run again from the app, each row with its numbers', async () => {
    const app = await e2e.open();
    const { page } = app;
    const imported = runResultSchema.parse(JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')));
    await page.getByTestId('tab-history').click();
    await page.getByTestId('history-import-input').setInputFiles([join(dir, 'run.json')]);
    await expect.poll(() => page.getByTestId('record-name').textContent(), POLL).toBe('url list');
    const shown = await tableRows(app);
    // 300 sends round-robin over 3 URLs: 100 each.
    expect(shown.map((r) => [r.url, r.cells[0], r.cells[2]])).toEqual([
      ['GET /page.html', '100', '200 ×100'],
      ['GET /photo.jpg', '100', '200 ×100'],
      ['GET /api.json', '100', '200 ×100'],
    ]);
    expect(expectedRows(imported).map((r) => r.url)).toEqual(shown.map((r) => r.url));
    // Received: the photo's row holds its 20 KB bodies, the page's its 200 bytes.
    expect(shown[1]!.cells[4]).toMatch(/^1\.9\d MiB$/);
    expect(shown[0]!.cells[4]).toMatch(/^\d\d\.\d\d KiB$/);
    for (const r of shown) expect(Number(r.cells[5])).toBeGreaterThan(0);

    // The record's list in the Run tab, run by the engine behind the web host.
    await page.getByTestId('record-load').click();
    await page.getByTestId('run-button').click();
    expect(await waitForStatus(app, ['completed', 'cancelled', 'failed'])).toBe('completed');
    const [result] = app.results();
    expect(result!.requests.total).toBe(300);
    expect(result!.urls!.rows.reduce((a, r) => a + r.requests, 0)).toBe(300);
    const again = await tableRows(app);
    expect(again.map((r) => [r.url, r.cells[0], r.cells[2]])).toEqual(
      shown.map((r) => [r.url, r.cells[0], r.cells[2]]),
    );
    await page.getByTestId('urls-card').scrollIntoViewIfNeeded();
    await app.screenshot('url-table.png');
  });
});
