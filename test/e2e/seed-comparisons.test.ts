/**
 * Every seed article's comparison as a person reproduces it in the browser: the built-in
 * preset opened from Presets, its placeholder URLs pointed at a server for each of the
 * article's (Apache event / prefork / worker, nginx, H2O, lighttpd: stand-ins answering 5
 * bytes over http and https, to whose pre-flights the engine sends its one real request; the
 * load is scripted, and test/integration/seed-experiments.test.ts runs the real engine against
 * Debian's servers), the load made tiny, Run comparison. Then what the article prints is found
 * on screen, not in an export: vegeta's
 * rows per cell (000), the side-by-side percentiles and each server's Connection Times
 * (001), the per-repetition table (002), mean and median latency, throughput and the error
 * rate with the 300 ms rule (003), the Connect / Processing / Waiting means (004). Last, an
 * open-model cell that drops requests says so in the matrix and both CSVs.
 */
import { parse } from 'csv-parse/sync';
import type http from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CellOutcome } from '../../shared/comparison/cells.ts';
import { fixed, formatGrouped } from '../../shared/figures/units.ts';
import { REPORT_PERCENTILES } from '../../shared/model/defaults.ts';
import { makeTestCerts, type TestCerts } from '../helpers/certs.ts';
import { endAfterAll } from '../helpers/cleanup.ts';
import { ScriptedEngine } from '../helpers/scripted-engine.ts';
import { handlers, startHttpServer, type TestServer } from '../helpers/servers.ts';
import { saveDownload, type AppPage } from './app-page.ts';
import { useE2eApp } from './fixture.ts';

/** The drops test's server answers in 50 ms: two slots of it hold 40 req/s. */
const SLOW_MS = 50;
let slowUrl = '';
const e2e = useE2eApp({
  engine: new ScriptedEngine({ server: (url) => (url.startsWith(slowUrl) ? { latencyMs: [SLOW_MS] } : {}) }),
});
const endAll = endAfterAll();
let certs: TestCerts;
const SEEDS = ['apache', 'apachePrefork', 'apacheWorker', 'nginx', 'h2o', 'lighttpd'] as const;
let servers: Record<(typeof SEEDS)[number], { httpUrl: string; httpsUrl: string }>;

/** A stand-in for one of the article's servers: "hello" over http, and over https with the test CA's certificate. */
async function standIn(): Promise<{ httpUrl: string; httpsUrl: string }> {
  const plain: TestServer = endAll(await startHttpServer(handlers.ok('hello')));
  const secure: TestServer = endAll(await startHttpServer(handlers.ok('hello'), { tls: certs.valid }));
  return { httpUrl: plain.url, httpsUrl: secure.url };
}
let downloads: string;

beforeAll(async () => {
  certs = endAll(makeTestCerts());
  downloads = mkdtempSync(join(tmpdir(), 'trebuchet-e2e-seeds-'));
  endAll({ remove: () => rmSync(downloads, { recursive: true, force: true }) });
  servers = Object.fromEntries(
    await Promise.all(SEEDS.map(async (name) => [name, await standIn()] as const)),
  ) as typeof servers;
});

/** Opens a built-in preset from the Presets view into the comparison editor. */
async function openSeed(page: Page, id: string): Promise<void> {
  await page.getByTestId('tab-presets').click();
  await page.locator(`[data-testid="preset-row"][data-preset-id="${id}"]`).getByTestId('preset-open').click();
  await page.getByTestId('plan-editor').waitFor();
}

/** Points a target's URL at a server, as a person edits the placeholder: the preset's path stays. */
async function pointAt(
  page: Page,
  target: number,
  protocol: 'http' | 'https',
  server: string,
): Promise<void> {
  const field = page.getByTestId(`plan-target-${target}-${protocol}`);
  const placeholder = new URL(await field.inputValue());
  const real = new URL(server);
  await field.fill(`${real.origin}${placeholder.pathname}${placeholder.search}`);
}

/** Runs the comparison shown and waits for its end; returns its cell runs in run order. */
async function runComparison(app: AppPage): Promise<CellOutcome[]> {
  app.events.length = 0;
  await app.page.getByTestId('compare-run').click();
  await app.page.getByTestId('comparison-saved').waitFor({ timeout: 120_000 });
  return app.outcomes();
}

/** The matrix row of a target at a level (and protocol). */
function row(page: Page, target: string, level: number, protocol = 'http'): Locator {
  return page.locator(
    `[data-testid="comparison-cell"][data-target="${target}"][data-level="${level}"][data-protocol="${protocol}"]`,
  );
}

const outcomeOf = (outcomes: CellOutcome[], name: string, level: number, protocol = 'http'): CellOutcome => {
  const o = outcomes.find(
    (x) =>
      x.result.target.name === name && x.coordinates.level === level && x.coordinates.protocol === protocol,
  );
  if (!o) throw new Error(`no run of ${name} ${protocol} at ${level}`);
  return o;
};

/** Opens a matrix row's run, hands the cell report to `check`, and goes back to the matrix. */
async function inCell(
  page: Page,
  matrixRow: Locator,
  check: (cell: Locator) => Promise<void>,
): Promise<void> {
  await matrixRow.getByTestId('open-run').click();
  const cell = page.getByTestId('cell-run');
  await cell.waitFor();
  await check(cell);
  await page.getByTestId('cell-back').click();
  await page.getByTestId('comparison-report').waitFor();
}

const text = async (l: Locator): Promise<string> => (await l.textContent()) ?? '';

describe('the seed comparisons from their presets, on screen', () => {
  it("seed 000: vegeta's rows for every cell, Apache / nginx / H2O over http and https", async () => {
    const app = await e2e.open();
    const { page } = app;
    await openSeed(page, 'builtin-seed-000-vegeta-rate');
    const names = ['Apache', 'nginx', 'H2O'];
    for (const [i, s] of [servers.apache, servers.nginx, servers.h2o].entries()) {
      await pointAt(page, i, 'http', s.httpUrl);
      await pointAt(page, i, 'https', s.httpsUrl);
    }
    await page.getByTestId('plan-levels').fill('50');
    await page.getByTestId('plan-duration').fill('1');
    await page.getByTestId('plan-pause').fill('0');
    await page.getByTestId('plan-tls-ca-pick').setInputFiles(certs.ca.certFile);
    const outcomes = await runComparison(app);
    expect(outcomes).toHaveLength(6);
    await app.screenshot('e2e-seed-000.png', true);

    for (const protocol of ['http', 'https'] as const) {
      for (const name of names) {
        const r = outcomeOf(outcomes, name, 50, protocol).result;
        // The matrix opens with the article's figures: requests, the latencies, success, late, dropped.
        const cells = row(page, name, 50, protocol);
        expect(await text(cells.getByTestId('cell-requests'))).toBe('50');
        expect(await text(cells.getByTestId('cell-dropped'))).toBe('0');
        expect(await text(cells.getByTestId('cell-success'))).toBe('100.00%');
        await inCell(page, cells, async (cell) => {
          const vegeta = await text(cell.getByTestId('cell-tool-report'));
          expect(await cell.getByTestId('cell-tool-report').getAttribute('data-layout')).toBe('vegeta');
          const rows = vegeta.split('\n');
          const line = (label: string) => rows.find((l) => l.startsWith(label)) ?? '';
          expect(line('Requests')).toMatch(/^Requests\s+\[total, rate, throughput\]\s+50, \d/);
          expect(line('Duration')).toMatch(/^Duration\s+\[total, attack, wait\]\s+\S+s, \S+s, \S+s$/);
          expect(line('Latencies')).toMatch(
            /^Latencies\s+\[min, mean, 50, 90, 95, 99, max\]\s+(\S+s, ){6}\S+s$/,
          );
          expect(line('Bytes In')).toMatch(
            new RegExp(`^Bytes In\\s+\\[total, mean\\]\\s+${r.bytes.inBody}, 5\\.00$`),
          );
          expect(line('Success')).toMatch(/^Success\s+\[ratio\]\s+100\.00%$/);
          expect(line('Status Codes')).toMatch(/^Status Codes\s+\[code:count\]\s+200:50$/);
          expect(rows).toContain('Error Set:');
        });
      }
    }
  });

  it("seed 001: the side-by-side percentile table and each server's Connection Times, Apache / nginx", async () => {
    const app = await e2e.open();
    const { page } = app;
    await openSeed(page, 'builtin-seed-001-ab-8kb-image');
    await pointAt(page, 0, 'http', servers.apache.httpUrl);
    await pointAt(page, 1, 'http', servers.nginx.httpUrl);
    // LiteSpeed is not packaged by Debian: its target is left out.
    await page.getByTestId('plan-remove-target-2').click();
    await page.getByTestId('plan-requests').fill('400');
    await page.getByTestId('plan-levels').fill('40');
    await page.getByTestId('plan-pause').fill('0');
    const outcomes = await runComparison(app);
    expect(outcomes).toHaveLength(2);

    const table = page.getByTestId('comparison-percentiles');
    expect(await table.locator('thead th').allTextContents()).toEqual(['Percentile', 'Apache', 'nginx']);
    const rows = table.locator('tbody tr');
    expect(await rows.count()).toBe(REPORT_PERCENTILES.length);
    for (const [i, p] of REPORT_PERCENTILES.entries()) {
      const shown = await rows.nth(i).locator('td').allTextContents();
      const expected = ['Apache', 'nginx'].map((name) => {
        const ms = outcomeOf(outcomes, name, 40).result.latency!.percentiles[String(p)]!;
        return formatGrouped(ms, ms >= 100 ? 1 : 3);
      });
      expect(shown, `${p}%`).toEqual(expected);
    }
    await app.screenshot('e2e-seed-001.png', true);

    for (const name of ['Apache', 'nginx']) {
      const phases = outcomeOf(outcomes, name, 40).result.phases!;
      await inCell(page, row(page, name, 40), async (cell) => {
        const times = cell.getByTestId('connection-times');
        for (const [phase, label] of [
          ['setup', 'Setup (DNS + connect + TLS)'],
          ['processing', 'Processing'],
          ['waiting', 'Waiting'],
          ['total', 'Total'],
        ] as const) {
          const tr = times.locator(`tr[data-phase="${phase}"]`);
          expect(await text(tr.locator('th'))).toBe(label);
          const mean = phases[phase]!.mean;
          expect(await text(tr.locator('td').nth(1)), `${name} ${phase}`).toBe(
            formatGrouped(mean, mean >= 100 ? 1 : 3),
          );
        }
        // And ab's own layout of it, under the report.
        expect(await text(cell.getByTestId('cell-tool-report'))).toMatch(/^Connection Times \(ms/m);
        if (name === 'nginx') await app.screenshot('e2e-seed-001-nginx-cell.png', true);
      });
    }
  });

  it("seed 002: the per-repetition table (the article's Résumé), Apache / nginx twice each", async () => {
    const app = await e2e.open();
    const { page } = app;
    await openSeed(page, 'builtin-seed-002-ab-repeated');
    await pointAt(page, 0, 'http', servers.apache.httpUrl);
    await pointAt(page, 1, 'http', servers.nginx.httpUrl);
    await page.getByTestId('plan-requests').fill('300');
    await page.getByTestId('plan-repetitions').fill('2');
    await page.getByTestId('plan-pause').fill('0');
    const outcomes = await runComparison(app);
    expect(outcomes).toHaveLength(4);

    const reps = page.getByTestId('repetition-row');
    expect(await reps.count()).toBe(4);
    for (const tr of await reps.all()) {
      const name = (await tr.getAttribute('data-target'))!;
      const repetition = Number(await tr.getAttribute('data-repetition'));
      const r = outcomes.find(
        (o) => o.result.target.name === name && o.coordinates.repetition === repetition - 1,
      )!.result;
      // Temps d'exécution, Req/s, Temps moyen par requête (across all concurrent requests).
      expect(await text(tr.getByTestId('rep-timeTaken'))).toBe(formatGrouped(r.durationSeconds, 3));
      expect(await text(tr.getByTestId('rep-rps'))).toBe(formatGrouped(r.throughput.requestsPerSecond, 2));
      expect(await text(tr.getByTestId('rep-timePerRequestAcross'))).toBe(
        formatGrouped(1000 / r.throughput.requestsPerSecond, 3),
      );
    }
    expect(await text(row(page, 'nginx', 30).getByTestId('cell-runs'))).toBe('2/2');
    await app.screenshot('e2e-seed-002.png', true);
  });

  it('seed 003: mean and median latency, throughput and the error rate with the 300 ms rule, Apache / nginx', async () => {
    const app = await e2e.open();
    const { page } = app;
    await openSeed(page, 'builtin-seed-003-jmeter-threads');
    await pointAt(page, 0, 'http', servers.apache.httpUrl);
    await pointAt(page, 1, 'http', servers.nginx.httpUrl);
    expect(await page.getByTestId('plan-slo').inputValue()).toBe('300');
    await page.getByTestId('plan-levels').fill('5, 30');
    await page.getByTestId('plan-duration').fill('1');
    await page.getByTestId('plan-pause').fill('0');
    const outcomes = await runComparison(app);
    expect(outcomes).toHaveLength(4);

    const head = await page.getByTestId('comparison-table').locator('thead th').allTextContents();
    expect(head).toEqual([
      'Target',
      'Connections',
      'mean ms',
      'p50 ms',
      'req/s',
      'error %',
      'SLO failed',
      'runs',
      'verdict',
    ]);
    for (const level of [5, 30]) {
      for (const name of ['Apache', 'nginx']) {
        const r = outcomeOf(outcomes, name, level).result;
        const cells = row(page, name, level);
        expect(await text(cells.getByTestId('cell-latencyMean'))).toBe(formatGrouped(r.latency!.mean, 3));
        expect(await text(cells.getByTestId('cell-p50'))).toBe(
          formatGrouped(r.latency!.percentiles['50']!, 3),
        );
        expect(await text(cells.getByTestId('cell-rps'))).toBe(
          formatGrouped(r.throughput.requestsPerSecond, 2),
        );
        // JMeter's error rate: a response slower than 300 ms is an error, like any failure.
        const { total, ok, sloExceeded } = r.requests;
        expect(ok + sloExceeded).toBe(total);
        expect(await text(cells.getByTestId('cell-errorRate'))).toBe(
          `${fixed(((total - ok) / total) * 100, 2)}%`,
        );
        expect(await text(cells.getByTestId('cell-sloFailures'))).toBe(formatGrouped(sloExceeded, 0));
      }
    }
    await app.screenshot('e2e-seed-003.png', true);
  });

  it('seed 004: the Connect / Processing / Waiting means per server and level, Apache prefork / worker / lighttpd', async () => {
    const app = await e2e.open();
    const { page } = app;
    await openSeed(page, 'builtin-seed-004-3kb-concurrency');
    const names = ['Apache (prefork)', 'Apache (worker)', 'lighttpd'];
    for (const [i, s] of [servers.apachePrefork, servers.apacheWorker, servers.lighttpd].entries()) {
      await pointAt(page, i, 'http', s.httpUrl);
    }
    await page.getByTestId('plan-requests').fill('400');
    await page.getByTestId('plan-levels').fill('10, 100');
    await page.getByTestId('plan-pause').fill('0');
    const outcomes = await runComparison(app);
    expect(outcomes).toHaveLength(6);
    for (const level of [10, 100]) {
      for (const name of names) {
        const phases = outcomeOf(outcomes, name, level).result.phases!;
        const cells = row(page, name, level);
        expect(await text(cells.getByTestId('cell-connectMean')), `${name} c=${level}`).toBe(
          formatGrouped(phases.setup!.mean, 3),
        );
        expect(await text(cells.getByTestId('cell-processingMean'))).toBe(
          formatGrouped(phases.processing!.mean, 3),
        );
        expect(await text(cells.getByTestId('cell-waitingMean'))).toBe(
          formatGrouped(phases.waiting!.mean, 3),
        );
      }
    }
    await app.screenshot('e2e-seed-004.png', true);
  });
});

/** A server that answers after `ms`: slower than an open schedule under a small in-flight cap. */
function slowServer(ms: number): http.RequestListener {
  return (_req, res) => {
    setTimeout(() => res.end('slow'), ms);
  };
}

describe('an open-model cell that drops requests', () => {
  it('is marked rate not reached, with its late and dropped requests in the matrix and both CSVs', async () => {
    const slow = endAll(await startHttpServer(slowServer(SLOW_MS)));
    slowUrl = slow.url;
    const app = await e2e.open();
    const { page } = app;
    // A plan of the open model with an in-flight cap of 2 (the editor keeps a loaded plan's cap).
    const preset = {
      format: 'trebuchet-preset',
      version: 3,
      id: 'e2e-drops',
      name: 'drops under the cap',
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      kind: 'comparison',
      plan: {
        name: 'drops under the cap',
        targets: [{ name: 'slow', urls: { http: slow.url } }],
        protocols: ['http'],
        load: { model: 'open', rate: 200, durationSeconds: 1, maxInFlight: 2 },
        levels: [200],
        repetitions: 1,
        pauseSeconds: 0,
        report: { format: 'vegeta', columns: ['requests', 'rps', 'late', 'dropped', 'verdict'] },
      },
    };
    await page.getByTestId('tab-presets').click();
    await page.getByTestId('preset-import-file').setInputFiles({
      name: 'drops.trebuchet-preset.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(preset)),
    });
    await page.getByTestId('presets-mine').getByTestId('preset-open').click();
    await page.getByTestId('plan-editor').waitFor();
    const [cell] = await runComparison(app);
    const q = cell!.result.requests;
    expect(q.dropped).toBeGreaterThan(0);
    expect(q.late).toBeGreaterThan(0);

    const r = row(page, 'slow', 200);
    expect(await r.getAttribute('data-verdict')).toBe('rate-not-reached');
    expect(await text(r.getByTestId('cell-verdict'))).toContain('rate not reached');
    expect(await r.locator('.caveat-mark').count()).toBe(1);
    expect(await text(r.getByTestId('cell-late'))).toBe(formatGrouped(q.late!, 0));
    expect(await text(r.getByTestId('cell-dropped'))).toBe(formatGrouped(q.dropped!, 0));
    expect(await text(page.getByTestId('matrix-caveat'))).toContain('The rate was not reached at 200 req/s');
    expect(Number(await page.getByTestId('chart-compare-bars').getAttribute('data-caveats'))).toBe(1);
    expect(await page.getByTestId('open-repetition').getAttribute('data-verdict')).toBe('caveat');
    await app.screenshot('e2e-open-drops.png', true);

    const csv = (path: string) =>
      parse<Record<string, string>>(readFileSync(path, 'utf8'), { columns: true });
    const [matrix] = csv((await saveDownload(page, 'export-matrix-csv', downloads)).path);
    expect(Number(matrix!['late'])).toBe(q.late);
    expect(Number(matrix!['dropped'])).toBe(q.dropped);
    const [summary] = csv((await saveDownload(page, 'export-summary-csv', downloads)).path);
    expect(Number(summary!['late'])).toBe(q.late);
    expect(Number(summary!['dropped'])).toBe(q.dropped);
  });
});
