import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cellOutcomeSchema } from '../../shared/comparison/cells.ts';
import { formatGrouped } from '../../shared/figures/units.ts';
import { runResultSchema } from '../../shared/model/result.ts';
import { openOffline as openOffline_, type TestBrowser } from '../helpers/browser.ts';
import { endAfterAll } from '../helpers/cleanup.ts';
import { runCli } from '../helpers/cli.ts';
import { handlers, startHttpServer, type TestServer } from '../helpers/servers.ts';
import { useE2eApp } from './fixture.ts';

const e2e = useE2eApp();
const endAll = endAfterAll();
let dir: string;
let browser: TestBrowser;
let server: TestServer;
let missing: TestServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'trebuchet-html-'));
  endAll({ remove: () => rmSync(dir, { recursive: true, force: true }) });
  // A hostile Server header: the report must show it as text, never run it.
  server = endAll(
    await startHttpServer(handlers.ok('hello', { server: '<script>document.title="pwned"</script>' })),
  );
  missing = endAll(await startHttpServer(handlers.status(404, 'Not Found', 'nope')));
  browser = await e2e.context();
});

const openOffline = (file: string) => openOffline_(browser.context, file);

describe('the HTML report, opened offline in Chromium', () => {
  it('trebuchet run ... --html: a self-contained file with the figures, charts, tables and verdict', async () => {
    const html = join(dir, 'run.html');
    const json = join(dir, 'run.json');
    const r = await runCli([
      'run',
      '-n',
      '300',
      '-c',
      '3',
      '-q',
      '--html',
      html,
      '--json',
      json,
      `${server.url}page`,
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`wrote ${html}`);
    const result = runResultSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
    const { page, blocked } = await openOffline(html);
    try {
      // Nothing was fetched, nothing ran: the hostile Server header is text.
      expect(blocked).toEqual([]);
      expect(await page.title()).not.toBe('pwned');
      const text = (await page.textContent('body')) ?? '';
      expect(text).toContain('<script>document.title="pwned"</script>');
      // The result's figures.
      const rps = page.locator('[data-figure="Requests/s"] .value');
      expect(await rps.textContent()).toBe(formatGrouped(result.throughput.requestsPerSecond, 2));
      expect(await page.locator('[data-figure="Requests"] .value').textContent()).toBe('300');
      // The verdict the JSON export wrote, the same computation: clean on a quiet machine, but
      // a loaded one can make the connections' setup the p99 (setup-bound), which is its figure too.
      expect(await page.locator('[data-testid="run-1-verdict"]').getAttribute('data-state')).toBe(
        result.verdict!.state,
      );
      const p99 = result.latency!.percentiles['99']!;
      const row99 = page.locator('[data-testid="run-1-percentiles"] tr', { hasText: '99%' }).first();
      expect(await row99.locator('td').first().textContent()).toBe(formatGrouped(p99, 3));
      const longest = page.locator('[data-testid="run-1-percentiles"] tr', {
        hasText: '100% (longest request)',
      });
      expect(await longest.locator('td').first().textContent()).toBe(formatGrouped(result.latency!.max, 3));
      expect(await page.locator('[data-testid="run-1-status"]').textContent()).toContain('200 OK300');
      // Charts are drawn SVG with a point per sample.
      const throughput = page.locator('[data-testid="run-1-chart-throughput"] svg circle');
      expect(await throughput.count()).toBe(result.samples.length);
      // The generator's and the server's facts, and the scenario.
      expect(text).toContain(`${result.generator.engine} ${result.generator.engineVersion}`);
      expect(text).toContain('closed model: 3 connection(s) x 1 in flight, 300 requests');
      // The data rides along and parses back to the result.
      const data = JSON.parse((await page.locator('#trebuchet-report-data').textContent()) ?? '') as {
        results: unknown[];
      };
      expect(runResultSchema.parse(data.results[0])).toEqual(result);
    } finally {
      await page.close();
    }
  });

  it('says a run whose every response was a 404 is not a clean success', async () => {
    const html = join(dir, 'missing.html');
    const r = await runCli([
      'run',
      '-n',
      '50',
      '-c',
      '1',
      '-q',
      '--allow-error-status',
      '--html',
      html,
      missing.url,
    ]);
    expect(r.stdout).toContain('Verdict: ALL NON-2XX\n  ! Every response was 404 Not Found: check the path.');
    const { page, blocked } = await openOffline(html);
    try {
      expect(blocked).toEqual([]);
      const verdict = page.locator('[data-testid="run-1-verdict"]');
      expect(await verdict.getAttribute('data-state')).toBe('all-non-2xx');
      expect(await verdict.textContent()).toContain('Every response was 404 Not Found: check the path.');
    } finally {
      await page.close();
    }
  });

  it('trebuchet run --preset seed-004 ... --html: the matrix with the seed’s columns, the charts and every run', async () => {
    const html = join(dir, 'seed-004.html');
    const json = join(dir, 'seed-004.json');
    const r = await runCli([
      ...['run', '--preset', 'seed-004', '--target', `lighttpd=${server.url}3kb.html`, '-n', '200'],
      ...[
        '--levels',
        '2,4',
        '--pause',
        '0',
        '-q',
        '--data-dir',
        join(dir, 'data'),
        '--html',
        html,
        '--json',
        json,
      ],
    ]);
    expect(r.code).toBe(0);
    const saved = JSON.parse(readFileSync(json, 'utf8')) as { outcomes: unknown[] };
    const outcomes = saved.outcomes.map((o) => cellOutcomeSchema.parse(o));
    const { page, blocked } = await openOffline(html);
    try {
      expect(blocked).toEqual([]);
      const head = await page.locator('[data-testid="matrix"] thead th').allTextContents();
      expect(head).toEqual([
        '',
        'Target',
        'Protocol',
        'Level',
        'req/s',
        'connect ms',
        'processing ms',
        'waiting ms',
        'time taken s',
        'time/req ms',
        'failed',
        'verdict',
      ]);
      const rows = page.locator('[data-testid="matrix"] tbody tr');
      expect(await rows.count()).toBe(2);
      const first = (await rows.nth(0).locator('th, td').allTextContents()).slice(1);
      const o = outcomes[0]!.result;
      expect(first.slice(0, 5)).toEqual([
        'lighttpd',
        'http',
        'c=2',
        formatGrouped(o.throughput.requestsPerSecond, 2),
        formatGrouped(o.phases!.setup!.mean, 3),
      ]);
      expect(first.at(-1)).toBe(o.verdict!.word);
      expect(await page.locator('[data-testid="chart-compare-bars"] svg > rect').count()).toBe(2);
      expect(await page.locator('details.cell-run').count()).toBe(2);
      expect((await page.textContent('body')) ?? '').toContain(
        'closed model: 10 connection(s) x 1 in flight, 200 requests',
      );
    } finally {
      await page.close();
    }
  });
});
