/**
 * The machine in the browser (issue 32), with CPU hogs this file starts and stops: the live
 * Machine panel names the hog among the other processes while the run goes on, the report's
 * verdict says machine busy and its Machine card holds the figures, and a comparison whose
 * runs were measured beside the hogs offers "Re-run the marked cells", which measures only
 * those again and keeps the rest. Screenshots of each in test-artifacts/.
 *
 * This file's runs read the machine (the tier leaves it unread: vitest.config.ts). What the
 * hogs cause is asserted; whatever else runs on the shared machine is never assumed quiet.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endAfterAll, endAfterEach } from '../helpers/cleanup.ts';
import { startCpuHogs, type CpuHog } from '../helpers/cpu-hogs.ts';
import { startNginx, type NginxServer } from '../helpers/nginx.ts';
import { fillPlan, fillScenario, waitForPoints, waitForRunDone, type AppPage } from './app-page.ts';
import { useE2eApp } from './fixture.ts';

// Set before the fixture's host starts (it reads the setting at each run).
const before = process.env.TREBUCHET_MACHINE;
process.env.TREBUCHET_MACHINE = 'on';
afterAll(() => {
  process.env.TREBUCHET_MACHINE = before;
});

const e2e = useE2eApp();
const endAll = endAfterAll();
const endEach = endAfterEach();
let nginx: NginxServer;

beforeAll(async () => {
  nginx = endAll(await startNginx({ workers: 2 }));
});

/** Two hogs pinned to the two cores, for the test at most (stopped as soon as it has its runs). */
async function hogs(): Promise<CpuHog[]> {
  const started = await startCpuHogs([0, 1], 240);
  for (const h of started) endEach(h);
  return started;
}

const hogNamed = (text: string, list: readonly CpuHog[]): boolean =>
  list.some((h) => text.includes(`yes (pid ${h.pid})`));

describe('the machine in the browser', () => {
  it('draws the machine live, names the hog, and says machine busy in the report', async () => {
    const running = await hogs();
    const app: AppPage = await e2e.open();
    const { page } = app;
    await fillScenario(app, { url: `${nginx.httpUrl}test.html`, connections: 10, seconds: 5 });
    await page.getByTestId('run-button').click();
    await page.getByTestId('machine-panel').waitFor({ timeout: 30_000 });
    await waitForPoints(app, 2, 30_000, 'chart-machine-cpu');
    // While the load runs: the machine's busy share, the others' CPU, the hog among them.
    const live = (await page.getByTestId('machine-others').textContent()) ?? '';
    expect(live).toMatch(/^busiest other processes: /);
    expect(hogNamed(live, running), live).toBe(true);
    expect(await page.getByTestId('machine-figures').locator('[data-figure="busy"]').textContent()).toMatch(
      /^busy \d+% of 2 cores$/,
    );
    await page.getByTestId('machine-panel').scrollIntoViewIfNeeded();
    await app.screenshot('e2e-machine-live.png');
    expect(await waitForRunDone(app, 90_000)).toBe('completed');
    for (const h of running) await h.stop();

    const [result] = app.results();
    const m = result!.machine!;
    expect(m.otherProcesses.some((p) => running.some((h) => h.pid === p.pid))).toBe(true);
    // The verdict: machine busy, the hog named in its reason.
    const verdict = page.getByTestId('verdict');
    expect(await verdict.getAttribute('data-state')).toBe('machine-busy');
    expect(await page.getByTestId('verdict-state').textContent()).toBe('machine busy');
    expect(hogNamed((await verdict.textContent()) ?? '', running)).toBe(true);
    await verdict.scrollIntoViewIfNeeded();
    await app.screenshot('e2e-machine-busy-verdict.png');
    // The Machine card: the figures of the result.
    const card = page.getByTestId('machine-report');
    expect(await card.locator('tr[data-figure="named"] td').textContent()).toContain(
      `${m.otherProcesses[0]!.name} (pid ${m.otherProcesses[0]!.pid})`,
    );
    expect(await card.getByTestId('machine-source').textContent()).toBe(
      "2 cores, read from /proc on linux (every process's CPU)",
    );
    expect(
      Number(await page.getByTestId('chart-machine-cpu').getAttribute('data-points')),
    ).toBeGreaterThanOrEqual(2);
    await card.scrollIntoViewIfNeeded();
    await app.screenshot('e2e-machine-report.png');
    await app.screenshot('e2e-machine-report-full.png', true);
  });

  it('marks the runs of a comparison measured beside the hogs, and re-runs only those', async () => {
    const running = await hogs();
    const app = await e2e.open();
    const { page } = app;
    await page.getByTestId('tab-compare').click();
    await fillPlan(
      app,
      {
        name: 'beside the hogs',
        targets: [
          { name: 'one', url: `${nginx.httpUrl}test.html` },
          { name: 'two', url: `${nginx.httpUrl}test.html` },
        ],
      },
      { levels: '10', seconds: 2, repetitions: 1, pause: 0 },
    );
    await page.getByTestId('compare-run').click();
    // The hogs run beside the first cell only: stopped as the second begins.
    await expect.poll(() => started(app).includes(1), { timeout: 90_000, interval: 50 }).toBe(true);
    for (const h of running) await h.stop();
    await page.getByTestId('comparison-saved').waitFor({ timeout: 90_000 });
    const first = app.outcomes();
    const rerun = page.getByTestId('rerun-busy');
    await rerun.waitFor();
    const marked = (await rerun.getAttribute('data-cells'))!.split(',').map(Number);
    // The run beside the hogs is marked, and the matrix says why; the other is marked only
    // if others' work kept the machine busy then too.
    expect(marked).toContain(0);
    expect(
      await page.getByTestId('comparison-cell').first().getByTestId('cell-verdict').textContent(),
    ).toMatch(/^machine busy/);
    await rerun.scrollIntoViewIfNeeded();
    await app.screenshot('e2e-machine-rerun.png', true);

    await page.getByTestId('rerun-busy-cells').click();
    await expect.poll(() => jobsOf(app).length, { timeout: 30_000 }).toBe(2);
    await page.getByTestId('comparison-saved').waitFor({ timeout: 90_000 });
    // The re-run measured the marked runs only; the others came back as they were.
    expect(started(app, 1)).toEqual(marked);
    const again = app.outcomes().slice(first.length);
    expect(again.map((o) => o.cellIndex).sort()).toEqual([0, 1]);
    for (const o of again.filter((x) => !marked.includes(x.cellIndex))) {
      expect(o.result.runId).toBe(first.find((f) => f.cellIndex === o.cellIndex)!.result.runId);
    }
    for (const o of again.filter((x) => marked.includes(x.cellIndex))) {
      expect(o.result.runId).not.toBe(first.find((f) => f.cellIndex === o.cellIndex)!.result.runId);
    }
    expect(await page.getByTestId('comparison-cell').count()).toBe(2);
  });
});

/** The comparison jobs the page followed, in order. */
const jobsOf = (app: AppPage): string[] => [
  ...new Set(app.events.filter((e) => e.kind === 'comparison').map((e) => e.jobId)),
];

/** The parts whose load began in the job-th comparison of the page. */
function started(app: AppPage, job = 0): number[] {
  const id = jobsOf(app)[job];
  return app.events.flatMap((e) =>
    e.jobId === id && e.event.type === 'progress' && e.event.progress.type === 'part-started'
      ? [(e.event.progress as { part: number }).part]
      : [],
  );
}
