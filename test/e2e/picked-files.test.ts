import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestCerts, type TestCerts } from '../helpers/certs.ts';
import { ScriptedEngine } from '../helpers/scripted-engine.ts';
import { startHttpServer, type TestServer } from '../helpers/servers.ts';
import { fillScenario, waitForStatus } from './app-page.ts';
import { useE2eApp } from './fixture.ts';

/*
 * A page of the web host reads no file of the host's machine: the body and CA files of the
 * Run, Compare and Capacity editors are picked in the browser and sent with the scenario.
 * Against an https server signed by the test CA that records every request body. The engine's
 * pre-flight is real (its one request carries the body and checks the certificate), the load
 * scripted: test/integration/web-host-files.test.ts sends the picked files with the real engine.
 */

const engine = new ScriptedEngine();
const e2e = useE2eApp({ engine });
let certs: TestCerts;
let secure: TestServer;
let dir: string;
let payload: Buffer;
let payloadFile: string;
const bodies: Buffer[] = [];

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
  certs = makeTestCerts();
  secure = await startHttpServer(recording, { tls: { key: certs.valid.key, cert: certs.valid.cert } });
  dir = mkdtempSync(join(tmpdir(), 'trebuchet-e2e-picked-'));
  // Every byte value, three times over: what arrives must be exactly this, not text.
  payload = Buffer.from(Array.from({ length: 768 }, (_, i) => i % 256));
  payloadFile = join(dir, 'payload.bin');
  writeFileSync(payloadFile, payload);
});

afterAll(async () => {
  await secure?.close();
  certs?.remove();
  rmSync(dir, { recursive: true, force: true });
});

describe('files picked in the page', () => {
  it('Run: sends the picked body file and trusts the picked CA file, with no path field to type', async () => {
    const app = await e2e.open();
    const { page } = app;
    await fillScenario(app, { url: secure.url, connections: 1, seconds: 1 });
    await page.getByTestId('target-method-0').selectOption('POST');
    await page.getByTestId('target-0').getByText('Headers and body').click();
    await page.getByTestId('body-kind-0-file').click();
    // The host reads no file of its own: there is only the picker.
    expect(await page.getByTestId('body-path-0').count()).toBe(0);
    await page.getByTestId('body-pick-0').setInputFiles(payloadFile);
    await expect.poll(() => page.getByTestId('body-pick-0-picked').textContent()).toBe('payload.bin · 768 B');
    await page.getByTestId('section-tls').getByRole('button', { name: 'TLS' }).click();
    expect(await page.getByTestId('opt-tls-ca').count()).toBe(0);
    await page.getByTestId('opt-tls-ca-pick').setInputFiles(certs.ca.certFile);
    await expect.poll(() => page.getByTestId('opt-tls-ca-pick-picked').textContent()).toMatch(/^ca\.crt · /);
    await page.getByTestId('target-0').scrollIntoViewIfNeeded();
    await app.screenshot('e2e-picked-body.png');
    await page.getByTestId('section-tls').scrollIntoViewIfNeeded();
    await app.screenshot('e2e-picked-ca.png');

    const sent = bodies.length;
    await page.getByTestId('run-button').click();
    expect(await waitForStatus(app, ['completed', 'failed'])).toBe('completed');
    const [result] = app.results();
    expect(result!.error).toBeNull();
    expect(result!.tls?.verified).toBe(true);
    expect(result!.requests.ok).toBeGreaterThan(0);
    expect(result!.target.body).toMatchObject({ kind: 'upload', name: 'payload.bin' });
    // The pre-flight's request carried the file, byte for byte.
    const received = bodies.slice(sent);
    expect(received).toHaveLength(1);
    expect(received.every((b) => b.equals(payload))).toBe(true);
  });

  it('refuses in the page a file over the limit, naming it and --files-dir', async () => {
    const app = await e2e.open();
    const { page } = app;
    const big = join(dir, 'big.bin');
    writeFileSync(big, Buffer.alloc(3 * 1024 * 1024));
    await page.getByTestId('target-0').getByText('Headers and body').click();
    await page.getByTestId('body-kind-0-file').click();
    await page.getByTestId('body-pick-0').setInputFiles(big);
    await expect
      .poll(() => page.getByTestId('body-pick-0-problem').textContent())
      .toBe(
        'big.bin is 3.00 MiB; a file sent from the browser is at most 2.00 MiB (put larger ones in the folder of trebuchet serve --files-dir)',
      );
    expect(await page.getByTestId('body-pick-0-picked').count()).toBe(0);
  });

  it('Compare: a picked CA file verifies the https cells', async () => {
    const app = await e2e.open();
    const { page } = app;
    await page.getByTestId('tab-compare').click();
    await page.getByTestId('plan-protocol-https').check();
    await page.getByTestId('plan-protocol-http').uncheck();
    await page.getByTestId('plan-name').fill('verified with a picked CA');
    await page.getByTestId('plan-target-name-0').fill('secure');
    await page.getByTestId('plan-target-0-https').fill(secure.url);
    await page.getByTestId('plan-remove-target-1').click();
    await page.getByTestId('plan-levels').fill('1');
    await page.getByTestId('plan-duration').fill('0.5');
    await page.getByTestId('plan-repetitions').fill('1');
    await page.getByTestId('plan-pause').fill('0');
    expect(await page.getByTestId('plan-tls-ca').count()).toBe(0);
    await page.getByTestId('plan-tls-ca-pick').setInputFiles(certs.ca.certFile);
    await page.getByTestId('compare-run').click();
    await page.getByTestId('comparison-saved').waitFor({ timeout: 60_000 });
    const [outcome] = app.outcomes();
    expect(outcome!.result.tls?.verified).toBe(true);
    expect(outcome!.result.requests.ok).toBeGreaterThan(0);
    expect(await page.getByTestId('comparison-cell').getAttribute('data-failed')).toBe('0');
  });

  it('Capacity: a picked CA file lets every step reach the https server', async () => {
    const app = await e2e.open();
    const { page } = app;
    await page.getByTestId('tab-capacity').click();
    await page.getByTestId('capacity-welcome').waitFor();
    await page.getByTestId('capacity-target-name-0').fill('secure');
    await page.getByTestId('capacity-target-url-0').fill(secure.url);
    await page.getByTestId('capacity-remove-target-1').click();
    await page.getByTestId('capacity-p99').fill('200');
    await page.getByTestId('capacity-start-rate').fill('20');
    await page.getByTestId('capacity-max-rate').fill('40');
    await page.getByTestId('capacity-step').fill('0.5');
    await page.getByTestId('capacity-warmup').fill('0');
    await page.getByTestId('capacity-tls-ca-pick').setInputFiles(certs.ca.certFile);
    const before = secure.requests;
    const runs = engine.started.length;
    await page.getByTestId('capacity-run').click();
    await page.getByTestId('capacity-saved').waitFor({ timeout: 60_000 });
    // Without the CA every step fails its handshake and no rate holds.
    expect(Number(await page.getByTestId('capacity-answer-0').getAttribute('data-held'))).toBeGreaterThan(0);
    // Every step's pre-flight reached the server, and every step's engine had the picked CA.
    const steps = engine.started.slice(runs);
    expect(steps.length).toBeGreaterThanOrEqual(2);
    expect(secure.requests - before).toBeGreaterThanOrEqual(steps.length);
    for (const s of steps) expect(s.options.tls.caUpload?.name).toBe('ca.crt');
  });
});
