import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedEngine } from '../helpers/scripted-engine.ts';
import { startHttpServer, type TestServer } from '../helpers/servers.ts';
import { fillScenario, waitForStatus } from './app-page.ts';
import { useE2eApp } from './fixture.ts';

/*
 * A web host started with a files folder (trebuchet serve --files-dir): the page offers a
 * path inside it beside the picker, the run reads the file there, and a path outside it is
 * "not allowed" whether it exists or not. The engine's pre-flight is real (its one request
 * carries the file), the load scripted.
 */

const filesDir = mkdtempSync(join(tmpdir(), 'trebuchet-e2e-files-dir-'));
const e2e = useE2eApp({ filesDir, engine: new ScriptedEngine() });
let recorder: TestServer;
const bodies: Buffer[] = [];
const payload = Buffer.from('{"from":"the files folder"}');

const recording: http.RequestListener = (req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    bodies.push(Buffer.concat(chunks));
    res.writeHead(200, { 'content-length': 2 });
    res.end('ok');
  });
};

beforeAll(async () => {
  writeFileSync(join(filesDir, 'payload.json'), payload);
  recorder = await startHttpServer(recording);
});

afterAll(async () => {
  await recorder?.close();
  rmSync(filesDir, { recursive: true, force: true });
});

describe('a web host with a files folder', () => {
  it('reads a body file named inside its folder, and refuses one outside it without saying whether it exists', async () => {
    const app = await e2e.open();
    const { page } = app;
    await fillScenario(app, { url: recorder.url, connections: 1, seconds: 0.5 });
    await page.getByTestId('target-method-0').selectOption('POST');
    await page.getByTestId('target-0').getByText('Headers and body').click();
    await page.getByTestId('body-kind-0-file').click();
    // Both ways: pick a file in the page, or name one in the host's folder.
    expect(await page.getByTestId('body-pick-0').count()).toBe(1);
    await expect.poll(() => page.getByText(`Or a file in ${filesDir}`).count()).toBe(1);
    await page.getByTestId('body-path-0').fill('payload.json');
    await page.getByTestId('target-0').scrollIntoViewIfNeeded();
    await app.screenshot('e2e-files-dir.png');
    const sent = bodies.length;
    await page.getByTestId('run-button').click();
    expect(await waitForStatus(app, ['completed', 'failed'])).toBe('completed');
    expect(app.results()[0]!.requests.ok).toBeGreaterThan(0);
    expect(bodies.slice(sent)).toHaveLength(1);
    expect(bodies.slice(sent).every((b) => b.equals(payload))).toBe(true);

    for (const outside of ['/etc/hostname', '/etc/no-such-file', '../../etc/passwd']) {
      await page.getByTestId('body-path-0').fill(outside);
      const before = recorder.requests;
      await page.getByTestId('run-button').click();
      // The host's refusal is said at its field; no run starts.
      await expect
        .poll(() => page.getByTestId('error-targets.0.body.path').textContent())
        .toBe('not allowed: outside the folder this web host reads files from (--files-dir)');
      expect(recorder.requests).toBe(before);
    }
  });
});
