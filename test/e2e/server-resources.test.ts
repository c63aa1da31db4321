import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatCpuPer10k } from '../../shared/resources/figure-text.ts';
import { chartReadings } from '../../shared/resources/charts.ts';
import { RESOURCE_FIGURE_LABELS, type ResourceSample } from '../../shared/model/server-resources.ts';
import { runResultSchema, type RunResult } from '../../shared/model/result.ts';
import type { Target } from '../../shared/model/scenario.ts';
import { openOffline, type TestBrowser } from '../helpers/browser.ts';
import { endAfterAll } from '../helpers/cleanup.ts';
import { ScriptedEngine, scriptedSource } from '../helpers/scripted-engine.ts';
import { handlers, refusedPort, startHttpServer, type TestServer } from '../helpers/servers.ts';
import {
  fillPlan,
  fillScenario,
  pointLog,
  saveDownload,
  waitForPoints,
  waitForRunDone,
  waitForStatus,
  watchChartPoints,
  type AppPage,
} from './app-page.ts';
import { useE2eApp } from './fixture.ts';

/**
 * The server's side of a run in the browser (issue 11): the server panel gains points while
 * the run goes on, the report's Server resources table carries the CPU-seconds per 10,000
 * requests of the result, a node_exporter target draws the load average, a wrong exporter
 * URL is a named gap while the run completes, and a comparison of nginx and H2O shows each
 * one's CPU-seconds per 10,000 requests in the matrix. The host's own monitor takes the
 * readings (on the engine's ticks, gaps, the summary), from scripted sources, beside a
 * scripted engine: test/integration/server-monitor.test.ts reads Debian's nginx, H2O and
 * node_exporter under the real engine's load.
 */

const endAll = endAfterAll();
let nginx: TestServer;
let h2o: TestServer;
/** Where the scripted node_exporter answers (nothing listens there: its source is scripted). */
const exporterUrl = 'http://127.0.0.1:9100/metrics';
let downloads: string;
/** A context of its own for opening exported files offline (the app's keeps its network). */
let offline: TestBrowser;

/** A process tree as /proc shows a server's: its root and workers, busy while the load runs. */
function processTree(server: TestServer, name: string, workers: number) {
  const rootPid = 40_000 + server.port;
  return scriptedSource(
    {
      method: 'process',
      found: 'port',
      port: server.port,
      platform: 'linux',
      reader: 'procfs',
      rootPid,
      processes: Array.from({ length: workers + 1 }, (_, i) => ({ pid: rootPid + i, name })),
    },
    (n) => ({
      figures: {
        intervalSeconds: 1,
        cpuPercent: 30 + (n % 3),
        cpuUserPercent: 20,
        cpuSystemPercent: 10 + (n % 3),
        cpuSeconds: 0.3 + (n % 3) / 100,
        rssBytes: 12_000_000,
        threads: workers + 1,
        openFiles: 24,
        processes: workers + 1,
      },
    }),
  );
}

/** A node_exporter's figures of the whole machine, or, at a URL nothing answers, a gap each time. */
function exporterSource(url: string) {
  return scriptedSource({ method: 'node-exporter', url, cpuCount: 2 }, () =>
    url === exporterUrl
      ? {
          figures: {
            intervalSeconds: 1,
            cpuPercent: 80,
            cpuBusyPercent: 40,
            memoryUsedBytes: 3e9,
            memoryTotalBytes: 24e9,
            load1: 1.5,
            load5: 1.2,
            load15: 1,
            netInBytesPerSecond: 1000,
            netOutBytesPerSecond: 2000,
          },
        }
      : { gap: `node_exporter ${url}: connect ECONNREFUSED` },
  );
}

const engine = new ScriptedEngine({
  // Two tests look at the panel while their run goes on: it waits there.
  pauseAfter: (s) => (s.name === 'live panel' || s.name === 'across a reload' ? 3 : null),
  monitor: (target: Target) => {
    if (target.monitor.kind === 'node-exporter') return exporterSource(target.monitor.url);
    if (target.monitor.kind !== 'auto') return null;
    if (target.url.startsWith(nginx.url)) return processTree(nginx, 'nginx', 2);
    if (target.url.startsWith(h2o.url)) return processTree(h2o, 'h2o', 1);
    return null;
  },
});
const e2e = useE2eApp({ engine });

beforeAll(async () => {
  downloads = mkdtempSync(join(tmpdir(), 'trebuchet-e2e-server-'));
  endAll({ remove: () => rmSync(downloads, { recursive: true, force: true }) });
  offline = await e2e.context();
  nginx = endAll(await startHttpServer(handlers.ok('hello')));
  h2o = endAll(await startHttpServer(handlers.ok('hello')));
});

const serverSamples = (app: AppPage, targetIndex = 0): ResourceSample[] => app.readings('run', targetIndex);

/** Picks a target's server monitor in its card: a kind, and the URL or pid it takes. */
async function pickMonitor(app: AppPage, index: number, kind: string, value?: string): Promise<void> {
  await app.page.getByTestId(`target-monitor-${index}`).selectOption(kind);
  if (value !== undefined) await app.page.getByTestId(`target-monitor-${index}-value`).fill(value);
}

/**
 * The run's exports carry the server's series, reading by reading: the Server resources CSV,
 * the JSON, and the HTML report's table and charts (opened offline).
 */
async function checkExports(app: AppPage, result: RunResult): Promise<void> {
  const sr = result.serverResources!;
  const csv = await saveDownload(app.page, 'export-resources-csv', downloads);
  const rows = parse<Record<string, string>>(readFileSync(csv.path, 'utf8'), { columns: true });
  expect(rows.map((r) => Number(r.seq))).toEqual(sr.samples.map((s) => s.seq));
  const cpuColumn = RESOURCE_FIGURE_LABELS.cpuPercent;
  for (const [i, row] of rows.entries()) {
    expect(row.method).toBe('process');
    expect(Number(row[cpuColumn])).toBeCloseTo(sr.samples[i]!.cpuPercent!, 5);
  }
  const json = await saveDownload(app.page, 'export-json', downloads);
  // One target's run: its RunResult, as the CLI's --json writes it.
  const fromJson = runResultSchema.parse(JSON.parse(readFileSync(json.path, 'utf8')));
  expect(fromJson.serverResources).toEqual(sr);

  const html = await saveDownload(app.page, 'export-html', downloads);
  const report = await openOffline(offline.context, html.path);
  try {
    expect(report.blocked).toEqual([]);
    const p = report.page;
    expect(await p.getByTestId('run-1-efficiency').textContent()).toContain(
      `${formatCpuPer10k(sr.cpuSecondsPer10kRequests!)} server CPU-seconds per 10,000 requests`,
    );
    const cpuRow = p.getByTestId('run-1-server-resources').locator('tr', { hasText: cpuColumn });
    expect(await cpuRow.count()).toBe(1);
    // The CPU line has one point per engine tick, as on screen (user and system have theirs).
    const points = p.locator('[data-testid="run-1-chart-server-cpu"] svg circle', { hasText: /^CPU: / });
    expect(await points.count()).toBe(chartReadings(sr.samples).length);
  } finally {
    await report.page.close();
  }
}

describe('server resources in the browser', () => {
  it('draws the nginx process tree live and reports its CPU-seconds per 10,000 requests', async () => {
    const app = await e2e.open();
    const { page } = app;
    await fillScenario(app, {
      url: `${nginx.url}test.html`,
      connections: 20,
      seconds: 4,
      name: 'live panel',
    });
    expect(await page.getByTestId('target-monitor-0').inputValue()).toBe('auto');
    await page.getByTestId('run-button').click();
    await page.getByTestId('chart-server-cpu').waitFor({ timeout: 30_000 });
    await watchChartPoints(app, 'chart-server-cpu');
    await waitForPoints(app, 2, 30_000, 'chart-server-cpu');
    // The panel's headline while the load runs: nginx's CPU is busy, its RSS is read.
    const liveCpu = page.getByTestId('server-figures').locator('[data-figure="cpuPercent"]');
    expect(await page.getByTestId('run-status').getAttribute('data-status')).toBe('running');
    expect(Number.parseFloat((await liveCpu.textContent())!.replace('CPU', ''))).toBeGreaterThan(0);
    expect(await page.getByTestId('server-figures').locator('[data-figure="rssBytes"]').count()).toBe(1);
    await app.screenshot('e2e-server-live.png');
    engine.resume();
    expect(await waitForStatus(app, ['completed', 'cancelled', 'failed'])).toBe('completed');

    // The server panel gained points one by one while the run was going on.
    const whileRunning = (await pointLog(app)).filter((e) => e.status === 'running').map((e) => e.points);
    expect(new Set(whileRunning.filter((n) => n > 0)).size).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < whileRunning.length; i++)
      expect(whileRunning[i]).toBeGreaterThanOrEqual(whileRunning[i - 1]!);
    // One point per reading (a reading under the last one's seq replaces it, as the store does).
    const readings = serverSamples(app);
    expect(readings.length).toBeGreaterThanOrEqual(3);
    // Every point drawn is a reading of nginx under load: its CPU% above zero.
    const drawn = chartReadings(readings);
    for (const r of drawn) expect(r.cpuPercent).toBeGreaterThan(0);
    expect(Number(await page.getByTestId('chart-server-cpu').getAttribute('data-points'))).toBe(drawn.length);
    expect(await page.getByTestId('chart-server-memory').count()).toBe(1);
    // A process tree has no load average.
    expect(await page.getByTestId('chart-server-load').count()).toBe(0);

    const [result] = app.results();
    const sr = result!.serverResources!;
    expect(sr.source).toMatchObject({
      method: 'process',
      found: 'port',
      port: nginx.port,
    });
    // nginx's master and both workers.
    expect(sr.source.method === 'process' && sr.source.processes.length).toBeGreaterThanOrEqual(3);
    expect(sr.cpuSecondsPer10kRequests).toBeGreaterThan(0);
    expect(sr.summary.cpuPercent!.mean).toBeGreaterThan(1);
    console.info(
      `nginx (2 workers) under 20 connections: CPU ${sr.summary.cpuPercent!.mean.toFixed(1)}% mean,`,
      `${sr.summary.cpuPercent!.max.toFixed(1)}% max; ${sr.cpuSecondsPer10kRequests} CPU-s per 10k requests`,
    );

    // The report's table: the efficiency figure of the result, and mean and max per figure.
    const card = page.getByTestId('server-resources');
    const efficiency = card.getByTestId('server-efficiency');
    expect(Number(await efficiency.getAttribute('data-value'))).toBe(sr.cpuSecondsPer10kRequests);
    expect(await efficiency.textContent()).toContain(formatCpuPer10k(sr.cpuSecondsPer10kRequests!));
    expect(await efficiency.textContent()).toContain('server CPU-seconds per 10,000 requests');
    const cpuRow = card.locator('tr[data-figure="cpuPercent"] td');
    expect(Number(await cpuRow.nth(0).getAttribute('data-value'))).toBe(sr.summary.cpuPercent!.mean);
    expect(Number(await cpuRow.nth(1).getAttribute('data-value'))).toBe(sr.summary.cpuPercent!.max);
    expect(await card.locator('tr[data-figure="rssBytes"]').count()).toBe(1);
    expect(await card.getByTestId('server-resources-source').textContent()).toContain(
      `process tree of nginx (pid ${sr.source.method === 'process' ? sr.source.rootPid : 0}`,
    );
    expect(await card.getByTestId('server-resources-cost').textContent()).toMatch(/% of a core/);
    expect(await page.getByTestId('server-source').textContent()).toContain('process tree of nginx');
    await checkExports(app, result!);

    await card.scrollIntoViewIfNeeded();
    await app.screenshot('e2e-server-report-light.png');
    await app.screenshot('e2e-server-report-light-full.png', true);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForTimeout(200);
    await app.screenshot('e2e-server-report-dark.png');
    await app.screenshot('e2e-server-report-dark-full.png', true);
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('shows the server panel again after a reload, with the readings so far', async () => {
    const app = await e2e.open();
    const { page } = app;
    await fillScenario(app, {
      url: `${nginx.url}test.html`,
      connections: 10,
      seconds: 6,
      name: 'across a reload',
    });
    await page.getByTestId('run-button').click();
    await waitForPoints(app, 2, 30_000, 'chart-server-cpu');

    await page.reload();
    await page.getByTestId('target-url-0').waitFor();
    expect(await waitForStatus(app, ['running', 'completed'])).toBe('running');
    // The host's replay brings the readings of the target running now.
    await page.getByTestId('chart-server-cpu').waitFor();
    const replayed = Number(await page.getByTestId('chart-server-cpu').getAttribute('data-points'));
    expect(replayed).toBeGreaterThanOrEqual(2);
    engine.resume();
    await waitForPoints(app, replayed + 1, 30_000, 'chart-server-cpu');
    expect(await waitForStatus(app, ['completed', 'cancelled', 'failed'])).toBe('completed');
    expect(await page.getByTestId('server-efficiency').count()).toBe(1);
  });

  it('draws a node_exporter target’s load average and names a wrong exporter URL as a gap', async () => {
    const app = await e2e.open();
    const { page } = app;
    const wrong = `http://127.0.0.1:${await refusedPort()}/metrics`;
    await fillScenario(app, { url: `${nginx.url}test.html`, connections: 10, seconds: 3 });
    await pickMonitor(app, 0, 'node-exporter', exporterUrl);
    await page.getByTestId('target-add').click();
    await page.getByTestId('target-url-1').fill(`${h2o.url}test.html`);
    // A monitor that is not one is named at its field and stops the run from starting.
    await pickMonitor(app, 1, 'pid', 'x1');
    expect(await page.getByTestId('error-targets.1.monitor').textContent()).toContain(
      'pid:N takes a process id',
    );
    expect(await page.getByTestId('run-button').isDisabled()).toBe(true);
    await pickMonitor(app, 1, 'node-exporter', wrong);
    await app.screenshot('e2e-server-monitor-card.png');
    await page.getByTestId('run-button').click();
    await waitForPoints(app, 2, 30_000, 'chart-server-load');
    // The status shown is the target's: the first one's "completed" comes before the second starts.
    await waitForRunDone(app);
    expect(app.results().map((r) => r.status)).toEqual(['completed', 'completed']);
    await page.getByTestId('target-tab-0').click();

    // Target 1: the machine's CPU, memory and load from the exporter.
    const [good, bad] = app.results();
    const sr = good!.serverResources!;
    expect(sr.source).toMatchObject({ method: 'node-exporter', url: exporterUrl });
    expect(sr.summary.load1).toBeDefined();
    expect(Number(await page.getByTestId('chart-server-load').getAttribute('data-points'))).toBe(
      new Set(serverSamples(app, 0).map((s) => s.seq)).size,
    );
    const card = page.getByTestId('server-resources');
    expect(await card.locator('tr[data-figure="load1"] td').first().getAttribute('data-value')).toBe(
      String(sr.summary.load1!.mean),
    );
    expect(await card.locator('tr[data-figure="memoryUsedBytes"]').count()).toBe(1);
    expect(await card.getByTestId('server-resources-source').textContent()).toContain('the whole machine');
    await page.getByTestId('server-panel').scrollIntoViewIfNeeded();
    await app.screenshot('e2e-server-exporter.png');

    // Target 2: every tick a gap named after the exporter, and the run still completed.
    expect(bad!.status).toBe('completed');
    expect(bad!.requests.total).toBeGreaterThan(0);
    const gap = bad!.serverResources!.gaps[0]!;
    expect(gap.reason).toContain(`node_exporter ${wrong}`);
    await page.getByTestId('target-tab-1').click();
    const gaps = page.getByTestId('server-gaps');
    expect(await gaps.textContent()).toContain(`node_exporter ${wrong}`);
    const listed = page.getByTestId('server-resources-gaps').locator('li');
    expect(await listed.count()).toBe(bad!.serverResources!.gaps.length);
    expect(await listed.first().getAttribute('data-count')).toBe(String(gap.count));
    expect(await listed.first().textContent()).toContain(gap.reason);
    // No CPU reading covered the run: no efficiency figure, and the note says why.
    expect(bad!.serverResources!.cpuSecondsPer10kRequests).toBeNull();
    expect(await page.getByTestId('server-efficiency').getAttribute('data-value')).toBeNull();
    await page.getByTestId('server-panel').scrollIntoViewIfNeeded();
    await app.screenshot('e2e-server-gap.png');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForTimeout(200);
    await app.screenshot('e2e-server-gap-dark.png');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('compares two local servers (nginx, H2O) by the CPU-seconds each spent per 10,000 requests', async () => {
    const app = await e2e.open();
    const { page } = app;
    await page.getByTestId('tab-compare').click();
    await fillPlan(
      app,
      {
        name: 'nginx vs H2O',
        targets: [
          { name: 'nginx', url: `${nginx.url}test.html` },
          { name: 'h2o', url: `${h2o.url}test.html` },
        ],
      },
      { levels: '10', seconds: 2, repetitions: 1, pause: 0 },
    );
    await page.getByTestId('compare-run').click();
    await page.getByTestId('comparison-saved').waitFor({ timeout: 90_000 });

    const outcomes = app.outcomes();
    expect(outcomes).toHaveLength(2);
    // Each cell run's readings came to the page as the comparison's events, under the cell's part.
    expect([0, 1].map((part) => app.readings('comparison', part).length > 0)).toEqual([true, true]);
    const rows = page.getByTestId('comparison-cell');
    expect(await rows.count()).toBe(2);
    for (const o of outcomes) {
      const sr = o.result.serverResources!;
      const per10k = sr.cpuSecondsPer10kRequests;
      // Each server's own processes, found from its port.
      const name = ['nginx', 'h2o'][o.coordinates.targetIndex]!;
      expect(sr.source.method === 'process' && sr.source.processes.map((p) => p.name)).toContain(name);
      expect(per10k).toBeGreaterThan(0);
      console.info(`${o.result.target.name}: ${per10k} server CPU-seconds per 10,000 requests`);
      const row = rows.nth(o.coordinates.targetIndex);
      expect(await row.getAttribute('data-target')).toBe(name);
      // The matrix's own column, as the registry formats it.
      expect(await row.getByTestId('cell-serverCpuPer10k').textContent()).toBe(formatCpuPer10k(per10k!));
    }
    expect(Number(await page.getByTestId('chart-compare-cpu').getAttribute('data-points'))).toBe(2);
    // The matrix CSV carries the same figure, per cell.
    const matrix = await saveDownload(page, 'export-matrix-csv', downloads);
    const cells = parse<Record<string, string>>(readFileSync(matrix.path, 'utf8'), { columns: true });
    expect(cells.map((c) => c.target)).toEqual(['nginx', 'h2o']);
    for (const o of outcomes) {
      const cell = cells[o.coordinates.targetIndex]!;
      expect(Number(cell['server cpu seconds per 10k requests'])).toBeCloseTo(
        o.result.serverResources!.cpuSecondsPer10kRequests!,
        5,
      );
    }
    // And the resources CSV every reading of both cells.
    const readings = await saveDownload(page, 'export-resources-csv', downloads);
    const lines = parse<Record<string, string>>(readFileSync(readings.path, 'utf8'), { columns: true });
    expect(lines).toHaveLength(outcomes.reduce((n, o) => n + o.result.serverResources!.samples.length, 0));
    await page.getByTestId('chart-compare-cpu').scrollIntoViewIfNeeded();
    await app.screenshot('e2e-server-compare.png', true);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForTimeout(200);
    await app.screenshot('e2e-server-compare-dark.png', true);
  });
});
