import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEB_SETTINGS_FILE } from '../../electron/stores/settings-store.ts';
import { settingsSchema } from '../../shared/records/settings.ts';
import { startPrometheus, type TestPrometheus } from '../helpers/prometheus.ts';
import { ScriptedEngine } from '../helpers/scripted-engine.ts';
import { handlers, refusedPort, startHttpServer, type TestServer } from '../helpers/servers.ts';
import { fillScenario, waitForRunDone } from './app-page.ts';
import { useE2eApp } from './fixture.ts';

/*
 * "Send live metrics to …" (issue 39), in Chromium through the web host: the top bar's button
 * opens the setting, a wrong field is said at the field, a saved setting is kept by the host,
 * and the next run's metrics reach a real Prometheus (Debian's, on loopback) with the run's
 * total; an endpoint that refuses costs the run a warning in its report, nothing else. One
 * one-second run on the real engine is the only load: the refused endpoint's run is scripted
 * (its samples still go through the host's live metrics, which the warning is about).
 */

const e2e = useE2eApp();
let server: TestServer;
let prometheus: TestPrometheus;

beforeAll(async () => {
  server = await startHttpServer(handlers.ok('metrics'));
  prometheus = await startPrometheus();
});

afterAll(async () => {
  await server?.close();
  await prometheus?.stop();
});

const keptMetrics = () => {
  const file = join(e2e.dataDir, WEB_SETTINGS_FILE);
  if (!existsSync(file)) return null;
  const { version: _v, ...settings } = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  return settingsSchema.parse(settings).ui.metrics;
};

describe('Send live metrics to …', () => {
  it('is set from the top bar, said wrong at its field, kept by the host, and the next run reaches Prometheus', async () => {
    const app = await e2e.open();
    const { page } = app;
    const button = page.getByTestId('metrics-out');
    expect(await button.textContent()).toBe('Send live metrics to…');
    await button.click();
    const dialog = page.getByTestId('metrics-out-dialog');
    await dialog.waitFor();
    await page.getByTestId('metrics-remoteWrite').fill('127.0.0.1:9090/api/v1/write');
    await page.getByTestId('metrics-out-save').click();
    expect(await page.getByTestId('metrics-remoteWrite-error').textContent()).toBe(
      'metrics URL must start with http:// or https://: did you mean http://127.0.0.1:9090/api/v1/write?',
    );
    await app.screenshot('e2e-metrics-settings-field-error.png');
    await page.getByTestId('metrics-remoteWrite').fill(prometheus.writeUrl);
    await page.getByTestId('metrics-out-save').click();
    await dialog.waitFor({ state: 'detached' });
    expect(await button.textContent()).toBe('Live metrics: Prometheus');
    expect(keptMetrics()).toEqual({
      push: [{ kind: 'prometheus-rw', url: prometheus.writeUrl }],
      listen: null,
    });

    await fillScenario(app, { url: server.url, connections: 2, seconds: 1 });
    await page.getByTestId('run-button').click();
    expect(await waitForRunDone(app)).toBe('completed');
    const [result] = app.results();
    expect(result!.warnings.filter((w) => w.code === 'metrics-not-delivered')).toEqual([]);
    expect(
      await prometheus.scalar(`sum(last_over_time(trebuchet_requests_total{job="${result!.runId}"}[10m]))`),
    ).toBe(result!.requests.total);
    expect(result!.requests.total).toBeGreaterThan(0);
    await app.screenshot('e2e-metrics-settings-saved.png');
  });

  it('shows in the report what did not arrive when the endpoint refuses, and the run completes', async () => {
    e2e.useEngine(new ScriptedEngine());
    const app = await e2e.open();
    const { page } = app;
    const dead = await refusedPort();
    await page.getByTestId('metrics-out').click();
    await page.getByTestId('metrics-otlp').fill(`http://127.0.0.1:${dead}/v1/metrics`);
    await page.getByTestId('metrics-out-save').click();
    await page.getByTestId('metrics-out-dialog').waitFor({ state: 'detached' });
    expect(await page.getByTestId('metrics-out').textContent()).toBe('Live metrics: OTLP');
    await fillScenario(app, { url: server.url, connections: 2, seconds: 1 });
    await page.getByTestId('run-button').click();
    expect(await waitForRunDone(app)).toBe('completed');
    const warning = page.getByText(`Live metrics to otlp http://127.0.0.1:${dead}/v1/metrics:`);
    await warning.waitFor();
    await warning.scrollIntoViewIfNeeded();
    // The exporter retries a refused connection within its 5 s: at the run's end (2 s) it has not answered.
    expect(await warning.textContent()).toMatch(
      /\d+ of \d+ snapshots were not delivered by the end of this run \((no answer within 2 s of the end|.*ECONNREFUSED.*)\)/,
    );
    await app.screenshot('e2e-metrics-settings-warning.png');
  });
});
