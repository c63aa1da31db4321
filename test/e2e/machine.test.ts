/**
 * The machine in the browser (issue 32), on a scripted machine: the live Machine panel names
 * the busiest other process while the run goes on, the report's verdict says machine busy and
 * its Machine card holds the figures, and a comparison whose first run was measured on a busy
 * machine offers "Re-run the marked cells", which measures only that one again and keeps the
 * rest. Screenshots of each in test-artifacts/.
 *
 * The host's own machine monitor reads the machine on the scripted engine's ticks (readings,
 * summary, verdict: the product's code), its counters those of a scripted machine
 * (test/helpers/scripted-machine.ts): two `yes` processes at 90 % of a core each beside the
 * generator and the server, 100 % of its 2 cores busy; or a quiet one. So every figure is
 * known exactly, and nothing here loads the shared machine. What real hogs do to the real
 * engine's readings is asserted by test/integration/machine.test.ts and
 * machine-capacity.test.ts (the CLI, real /proc, run alone).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Target } from '../../shared/model/scenario.ts';
import { endAfterAll } from '../helpers/cleanup.ts';
import { ScriptedEngine, scriptedSource } from '../helpers/scripted-engine.ts';
import { scriptedMachine, type ScriptedProcess } from '../helpers/scripted-machine.ts';
import { handlers, startHttpServer, type TestServer } from '../helpers/servers.ts';
import { fillPlan, fillScenario, waitForPoints, waitForRunDone, type AppPage } from './app-page.ts';
import { useE2eApp } from './fixture.ts';

/** The server's process tree, as its monitor and the machine both see it: a root and one worker at 5 %. */
const SERVER_ROOT = 424_200;
const server: ScriptedProcess[] = [
  { pid: SERVER_ROOT, name: 'nginx', cpuPercent: 0 },
  { pid: SERVER_ROOT + 1, name: 'nginx', cpuPercent: 5, ppid: SERVER_ROOT },
];
/** Two hogs, one on each core (as `taskset -c N yes`), 90 % of a core each. */
const HOGS: ScriptedProcess[] = [
  { pid: 424_242, name: 'yes', cpuPercent: 90 },
  { pid: 424_243, name: 'yes', cpuPercent: 90 },
];
/** A quiet machine's other process. */
const SSHD: ScriptedProcess = { pid: 424_300, name: 'sshd', cpuPercent: 2 };
const HOGS_TEXT = 'yes (pid 424242) 90.0%, yes (pid 424243) 90.0%';
/** The verdict's reason for a run beside them: 180 % of a core is 90 % of the 2 cores. */
const BUSY_REASON = `The machine was busy: other processes took 90% of its 2 cores (${HOGS_TEXT}), more than 10%`;

/** The paths (one a target) whose next run is measured beside the hogs; every other run, on a quiet machine. */
const besideHogs = new Set<string>();
const pathOf = (target: Target): string => new URL(target.url).pathname;
/** Samples the single run sends before it waits: the test looks at the live panel then. */
const LIVE_SAMPLES = 3;

const engine = new ScriptedEngine({
  pauseAfter: (scenario) => (pathOf(scenario.targets[0]!) === '/live' ? LIVE_SAMPLES : null),
  monitor: (target) =>
    scriptedSource(
      {
        method: 'process',
        found: 'port',
        port: Number(new URL(target.url).port),
        platform: 'linux',
        reader: 'procfs',
        rootPid: SERVER_ROOT,
        processes: server.map(({ pid, name }) => ({ pid, name })),
      },
      () => ({
        figures: { intervalSeconds: 1, cpuPercent: 5, cpuSeconds: 0.05, rssBytes: 12e6, processes: 2 },
      }),
    ),
  machine: (target, clock) => {
    const busy = besideHogs.delete(pathOf(target));
    return scriptedMachine({ processes: [...server, ...(busy ? HOGS : [SSHD])] }, clock);
  },
});
const e2e = useE2eApp({ engine });
const endAll = endAfterAll();
let target: TestServer;

beforeAll(async () => {
  target = endAll(await startHttpServer(handlers.ok('<html>test</html>')));
});

describe('the machine in the browser', () => {
  it('draws the machine live, names the hog, and says machine busy in the report', async () => {
    besideHogs.add('/live');
    const app: AppPage = await e2e.open();
    const { page } = app;
    await fillScenario(app, { url: `${target.url}live`, connections: 10, seconds: 5 });
    await page.getByTestId('run-button').click();
    await page.getByTestId('machine-panel').waitFor();
    // While the load runs (held after its third tick): a reading per tick, the hogs named.
    await waitForPoints(app, LIVE_SAMPLES, 30_000, 'chart-machine-cpu');
    expect(Number(await page.getByTestId('chart-machine-cpu').getAttribute('data-points'))).toBe(
      LIVE_SAMPLES,
    );
    expect(await page.getByTestId('machine-others').textContent()).toBe(
      `busiest other processes: ${HOGS_TEXT}`,
    );
    const figures = page.getByTestId('machine-figures');
    expect(await figures.locator('[data-figure="busy"]').textContent()).toBe('busy 100% of 2 cores');
    expect(await figures.locator('[data-figure="others"]').textContent()).toBe('others 180% of a core');
    await page.getByTestId('machine-panel').scrollIntoViewIfNeeded();
    await app.screenshot('e2e-machine-live.png');
    engine.resume();
    expect(await waitForRunDone(app, 90_000)).toBe('completed');

    const [result] = app.results();
    const m = result!.machine!;
    // One reading per tick of the 5 s run and one on its final sample, each of the script's shares.
    expect(m.samples.map((s) => s.elapsedSeconds)).toEqual([1, 2, 3, 4, 5, 5]);
    // (Shares are quotients of sums: equal to the script's to 1e-9, not to the last bit.)
    const near = (v: number | undefined): number => Number(v?.toFixed(9));
    expect(m.samples.map((s) => [near(s.cpuBusyPercent), near(s.otherCpuPercent)])).toEqual(
      m.samples.map(() => [100, 180]),
    );
    expect(m.otherProcesses.map((p) => [p.name, p.pid, near(p.cpuPercent)])).toEqual([
      ['yes', 424_242, 90],
      ['yes', 424_243, 90],
    ]);
    expect(near(result!.generator.process?.cpuPercentMean)).toBe(15);
    // The verdict: machine busy, the hog named in its reason.
    const verdict = page.getByTestId('verdict');
    expect(await verdict.getAttribute('data-state')).toBe('machine-busy');
    expect(await page.getByTestId('verdict-state').textContent()).toBe('machine busy');
    expect(await verdict.textContent()).toContain(BUSY_REASON);
    await verdict.scrollIntoViewIfNeeded();
    await app.screenshot('e2e-machine-busy-verdict.png');
    // The Machine card: the figures of the result.
    const card = page.getByTestId('machine-report');
    const row = async (figure: string) => card.locator(`tr[data-figure="${figure}"] td`).textContent();
    expect(await row('busy')).toBe('100.0% (max 100.0%)');
    expect(await row('idle')).toBe('0.0%, 0.0%, 0.0%');
    expect(await row('others')).toBe('180.0%');
    expect(await row('named')).toBe(HOGS_TEXT);
    expect(await card.getByTestId('machine-source').textContent()).toBe(
      "2 cores, read from /proc on linux (every process's CPU)",
    );
    expect(Number(await page.getByTestId('chart-machine-cpu').getAttribute('data-points'))).toBe(5);
    await card.scrollIntoViewIfNeeded();
    await app.screenshot('e2e-machine-report.png');
    await app.screenshot('e2e-machine-report-full.png', true);
  });

  it('marks the run of a comparison measured on a busy machine, and re-runs only that one', async () => {
    // The first cell's run has the hogs beside it; the second's, and the re-run, a quiet machine.
    besideHogs.add('/one');
    const app = await e2e.open();
    const { page } = app;
    await page.getByTestId('tab-compare').click();
    await fillPlan(
      app,
      {
        name: 'beside the hogs',
        targets: [
          { name: 'one', url: `${target.url}one` },
          { name: 'two', url: `${target.url}two` },
        ],
      },
      { levels: '10', seconds: 2, repetitions: 1, pause: 0 },
    );
    await page.getByTestId('compare-run').click();
    await page.getByTestId('comparison-saved').waitFor({ timeout: 90_000 });
    const first = app.outcomes();
    const rerun = page.getByTestId('rerun-busy');
    await rerun.waitFor();
    expect(await rerun.getAttribute('data-cells')).toBe('0');
    // The matrix says why: the first cell machine busy, the second not.
    const cells = page.getByTestId('comparison-cell');
    expect(await cells.nth(0).getByTestId('cell-verdict').textContent()).toMatch(/^machine busy/);
    expect(await page.getByTestId('matrix-caveats').textContent()).toContain(BUSY_REASON);
    expect(await cells.nth(1).getByTestId('cell-verdict').textContent()).not.toMatch(/machine busy/);
    await rerun.scrollIntoViewIfNeeded();
    await app.screenshot('e2e-machine-rerun.png', true);

    await page.getByTestId('rerun-busy-cells').click();
    await expect.poll(() => jobsOf(app).length, { timeout: 30_000 }).toBe(2);
    await page.getByTestId('comparison-saved').waitFor({ timeout: 90_000 });
    // The re-run measured the marked run only; the other came back as it was.
    expect(started(app, 1)).toEqual([0]);
    const again = app.outcomes().slice(first.length);
    expect(again.map((o) => o.cellIndex).sort()).toEqual([0, 1]);
    const runIdOf = (list: typeof first, cell: number) =>
      list.find((o) => o.cellIndex === cell)!.result.runId;
    expect(runIdOf(again, 1)).toBe(runIdOf(first, 1));
    expect(runIdOf(again, 0)).not.toBe(runIdOf(first, 0));
    expect(await cells.count()).toBe(2);
    // Measured again on a quiet machine: nothing is marked any more.
    await expect.poll(() => rerun.count()).toBe(0);
    expect(await cells.nth(0).getByTestId('cell-verdict').textContent()).not.toMatch(/machine busy/);
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
