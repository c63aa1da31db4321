/**
 * Seed 003's wrong-path case (issue 19): the preset pointed at servers without its /1kb.html.
 * The pre-flight sends one real request per distinct URL and stops on an answer outside
 * 2xx/3xx before any load, in the comparison runner, the run runner and the CLI; run anyway
 * measures the 404s on purpose, and the verdict still says so.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkTarget } from '../../electron/engine/preflight/target-check.ts';
import { comparisonRunner } from '../../electron/jobs/comparison.ts';
import { runRunner } from '../../electron/jobs/run.ts';
import type { TargetChecker } from '../../electron/jobs/runner.ts';
import { startTarget } from '../../electron/jobs/target-run.ts';
import { comparisonPlanSchema, type ComparisonPlan } from '../../shared/comparison/plan.ts';
import { scenarioSchema } from '../../shared/model/scenario.ts';
import { runVerdict } from '../../shared/verdict/verdict.ts';
import { endAfterEach } from '../helpers/cleanup.ts';
import { runCli } from '../helpers/cli.ts';
import { runWith } from '../helpers/jobs.ts';
import { handlers, startHttpServer, type TestServer } from '../helpers/servers.ts';

const track = endAfterEach();
const engineCheck: TargetChecker = (scenario, signal) =>
  checkTarget(scenario, { appVersion: '0.0.0-test', signal });

/** nginx's own 404 page, byte for byte as Debian's nginx sends it. */
const NGINX_404 =
  '<html>\r\n<head><title>404 Not Found</title></head>\r\n<body>\r\n<center><h1>404 Not Found</h1></center>\r\n' +
  '<hr><center>nginx/1.22.1</center>\r\n</body>\r\n</html>\r\n';

const missingPage = async (): Promise<TestServer> =>
  track(await startHttpServer(handlers.status(404, 'Not Found', NGINX_404, { 'content-type': 'text/html' })));

const SEED_003 = resolve(
  import.meta.dirname,
  '../../resources/presets/seed-003-jmeter-threads-60s-slo300.json',
);

/** Seed 003's plan with only the origins changed (its path and 1 KB query kept), as a person would. */
function seed003At(
  origins: [apache: string, nginx: string],
  over: Record<string, unknown> = {},
): ComparisonPlan {
  const preset = JSON.parse(readFileSync(SEED_003, 'utf8')) as {
    plan: { targets: { name: string; urls: { http: string } }[] } & Record<string, unknown>;
  };
  const plan = preset.plan;
  return comparisonPlanSchema.parse({
    ...plan,
    targets: plan.targets.map((t, i) => {
      const u = new URL(t.urls.http);
      return { ...t, urls: { http: new URL(u.pathname + u.search, origins[i]).href } };
    }),
    ...over,
  });
}

const origin = (s: TestServer) => s.url.replace(/\/$/, '');

describe("the pre-flight's status check", () => {
  it("stops seed 003 at a missing /1kb.html before any load: one request per URL, the status and nginx's first line", async () => {
    const [apache, nginx] = [await missingPage(), await missingPage()];
    const plan = seed003At([origin(apache), origin(nginx)]);
    expect(plan.levels).toEqual([5, 30, 500]);

    const { events, results, status } = await runWith(
      comparisonRunner,
      plan,
      { start: startTarget },
      { checkTarget: engineCheck },
    );

    expect(status).toBe('failed');
    expect(results).toEqual([]);
    expect(events.filter((e) => e.type === 'progress' && e.progress.type === 'part-started')).toHaveLength(0);
    // The pre-flight's one request per URL, and no load.
    expect([apache.requests, nginx.requests]).toEqual([1, 1]);
    const failed = events.flatMap((e) =>
      e.type === 'progress' && e.progress.type === 'preflight-failed' ? e.progress.failures : [],
    );
    expect(failed.map((f) => [f.targets, f.kind, f.fixes])).toEqual([
      [['Apache'], 'status', ['run-anyway']],
      [['nginx'], 'status', ['run-anyway']],
    ]);
    const apacheUrl = plan.targets[0]!.urls.http!;
    expect(apacheUrl).toMatch(/\/1kb\.html\?data=x{1000,}$/);
    expect(failed[0]!.message).toBe(
      `GET ${apacheUrl.slice(0, 99)}… answered 404 Not Found: “404 Not Found” — check the URL, or run anyway to measure this answer on purpose`,
    );
  });

  it('runs anyway with the check off: the 404s measured, the verdict all non-2xx', async () => {
    const [apache, nginx] = [await missingPage(), await missingPage()];
    const plan = seed003At([origin(apache), origin(nginx)], {
      levels: [1],
      pauseSeconds: 0,
      load: { model: 'closed', connections: 1, limit: { kind: 'requests', count: 20 } },
      options: { sloMs: 300, checkStatus: false },
    });
    const { results, status } = await runWith(
      comparisonRunner,
      plan,
      { start: startTarget },
      { checkTarget: engineCheck },
    );
    expect(status).toBe('completed');
    expect(results.map((o) => o.result.statusCodes)).toEqual([{ '404': 20 }, { '404': 20 }]);
    expect(results.map((o) => runVerdict(o.result).state)).toEqual(['all-non-2xx', 'all-non-2xx']);
    // The comparison's pre-flight and each cell's own: 2, then the 20 of the load.
    expect([apache.requests, nginx.requests]).toEqual([22, 22]);
  });

  it('stops a single run before its load, and runs it anyway when asked', async () => {
    const missing = await missingPage();
    const scenario = (checkStatus: boolean) =>
      scenarioSchema.parse({
        targets: [{ url: `${missing.url}1kb.html`, method: 'POST', body: { kind: 'text', text: 'a=1' } }],
        load: { model: 'closed', connections: 2, limit: { kind: 'requests', count: 30 } },
        options: { checkStatus },
      });

    const stopped = await runWith(
      runRunner,
      scenario(true),
      { start: startTarget },
      { checkTarget: engineCheck },
    );
    expect(stopped.status).toBe('failed');
    const [r] = stopped.results;
    expect(r!.error).toEqual({
      kind: 'status',
      message: `POST ${missing.url}1kb.html answered 404 Not Found: “404 Not Found” — check the URL, or run anyway to measure this answer on purpose`,
    });
    expect(r!.requests.total).toBe(0);
    expect(missing.requests).toBe(1);
    expect(r!.serverResources ?? null, 'nothing was measured: no server figures').toBeNull();

    const anyway = await runWith(
      runRunner,
      scenario(false),
      { start: startTarget },
      { checkTarget: engineCheck },
    );
    expect(anyway.status).toBe('completed');
    expect(anyway.results[0]!.statusCodes).toEqual({ '404': 30 });
    expect(runVerdict(anyway.results[0]!).state).toBe('all-non-2xx');
    expect(missing.requests).toBe(1 + 1 + 30);
  });

  it("stops a run of several targets before the first one's load when a later one's path is wrong", async () => {
    const good = track(await startHttpServer(handlers.ok('fine')));
    const missing = await missingPage();
    const scenario = scenarioSchema.parse({
      targets: [
        { name: 'good', url: good.url },
        { name: 'wrong path', url: `${missing.url}1kb.html` },
      ],
      load: { model: 'closed', connections: 2, limit: { kind: 'requests', count: 30 } },
    });
    const { events, results, status } = await runWith(
      runRunner,
      scenario,
      { start: startTarget },
      { checkTarget: engineCheck },
    );
    expect(status).toBe('failed');
    // Only the wrong one ran, and it stopped in its own pre-flight: no target was loaded.
    expect(events.flatMap((e) => (e.type === 'result' ? [e.part] : []))).toEqual([1]);
    expect(results[0]!.error?.kind).toBe('status');
    expect(results[0]!.requests.total).toBe(0);
    // The run's check of each URL, and the wrong one's own pre-flight.
    expect([good.requests, missing.requests]).toEqual([1, 2]);
  });

  it('lets a redirect through: 3xx is an answer, not a wrong path', async () => {
    const moved = track(
      await startHttpServer(handlers.status(301, 'Moved Permanently', '', { location: '/' })),
    );
    const scenario = scenarioSchema.parse({
      targets: [{ url: moved.url }],
      load: { model: 'closed', connections: 1, limit: { kind: 'requests', count: 5 } },
    });
    const { status, results } = await runWith(runRunner, scenario, { start: startTarget });
    expect(status).toBe('completed');
    expect(results[0]!.statusCodes).toEqual({ '301': 5 });
  });
});

describe('the CLI on seed 003 with a wrong path', () => {
  it('exits 1 before any load naming the URL, the status and the first line; --allow-error-status measures it', async () => {
    const [apache, nginx] = [await missingPage(), await missingPage()];
    const targets = ['--target', `Apache=${origin(apache)}`, '--target', `nginx=${origin(nginx)}`];
    const r = await runCli(['run', '--preset', 'seed-003', ...targets], { timeoutMs: 30_000 });
    expect(r.code).toBe(1);
    expect([apache.requests, nginx.requests]).toEqual([1, 1]);
    expect(r.stderr).toContain('trebuchet run: 2 URL(s) failed the check; no load was sent');
    expect(r.stdout).toContain('The comparison did not start: 2 URL(s) failed the check before any load.');
    expect(r.stdout).toMatch(
      new RegExp(
        `^  ${origin(apache)}/1kb\\.html\\?data=x+ \\(HTTP/1\\.1; Apache\\): GET ${origin(apache)}/1kb\\.html\\?data=x+… answered 404 Not Found: “404 Not Found”`,
        'm',
      ),
    );
    expect(r.stdout).toContain(
      '    fix: Run anyway, to measure this answer on purpose (the verdict will say so) (--allow-error-status)',
    );

    const anyway = await runCli(
      [
        'run',
        '--preset',
        'seed-003',
        ...targets,
        '--levels',
        '1',
        '-n',
        '10',
        '--pause',
        '0',
        '--allow-error-status',
      ],
      { timeoutMs: 30_000 },
    );
    expect(anyway.code, anyway.stderr).toBe(0);
    expect(anyway.stdout).toContain('all non-2xx');
    // The check's request, each cell's pre-flight and its 10.
    expect([apache.requests, nginx.requests]).toEqual([1 + 1 + 1 + 10, 1 + 1 + 1 + 10]);
  });

  it('a single run exits 1 with the URL, the status and the body line, and sends nothing more', async () => {
    const missing = await missingPage();
    const r = await runCli(['run', '-n', '50', '-c', '2', '-q', `${missing.url}1kb.html`]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `trebuchet run: ${missing.url}1kb.html: GET ${missing.url}1kb.html answered 404 Not Found: “404 Not Found”`,
    );
    expect(missing.requests).toBe(1);
  });
});
