import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ResultDiff } from '../../shared/diff/compare.ts';
import type { RuleMove } from '../../shared/diff/rules.ts';
import { runJson } from '../../shared/export/run.ts';
import { endAfterAll } from '../helpers/cleanup.ts';
import { runCli } from '../helpers/cli.ts';
import { runSpecFixture } from '../helpers/engine.ts';
import { simulateLoad } from '../helpers/scripted-load.ts';

/*
 * `trebuchet diff` on result files as `trebuchet run --json` writes them: three runs of 6 s at
 * 4 connections (6 one-second windows, the single-run tests' evidence) made by the engine's own
 * recorders on a scripted clock (test/helpers/scripted-load.ts): a 5 ms server, the same URL
 * at 10 ms, and the 5 ms one again with its answers in another order, 0.05 ms off. What
 * the engine measures of real servers is the engine's tests'; here the same two runs give the
 * same verdicts on any machine.
 */

const endAll = endAfterAll();
const URL_ = 'http://127.0.0.1:8080/';
/** The same server at another URL (a server moved to another port). */
const MOVED = 'http://127.0.0.1:8081/';
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'trebuchet-cli-diff-'));
  endAll({ remove: () => rmSync(dir, { recursive: true, force: true }) });
});

/**
 * A run at 4 connections against a server answering in turn in these ms, written to `file`:
 * 6 s of one-second windows (the single-run tests' evidence) unless `run` says otherwise.
 */
function runTo(
  file: string,
  latencyMs: number[],
  run: { seconds?: number; intervalMs?: number; url?: string } = {},
): string {
  const url = run.url ?? URL_;
  const base = runSpecFixture({
    targets: [{ url }],
    load: { model: 'closed', connections: 4, limit: { kind: 'duration', seconds: run.seconds ?? 6 } },
  });
  const spec = {
    ...base,
    options: { ...base.options, sampleIntervalMs: run.intervalMs ?? base.options.sampleIntervalMs },
  };
  const facts = {
    tls: null,
    server: {
      software: null,
      hostname: '127.0.0.1',
      port: Number(new URL(url).port),
      documentPath: '/',
      documentLength: 2,
      httpVersion: '1.1',
    },
  };
  const result = simulateLoad(
    spec,
    facts,
    { latencyMs },
    { startedAt: new Date('2026-01-05T10:00:00Z') },
  ).result('completed');
  const path = join(dir, file);
  writeFileSync(path, runJson([result]));
  return path;
}

interface DiffJson {
  diff: ResultDiff;
  moves: RuleMove[];
}
/** A target's name when it has none: its host and port. */
const host = (): string => new URL(URL_).host;
const diffJson = (path: string): DiffJson => JSON.parse(readFileSync(path, 'utf8')) as DiffJson;
const figure = (d: ResultDiff, name: string) => d.parts[0]!.figures.find((f) => f.figure === name)!;

describe('trebuchet diff', () => {
  let fast: string;
  let slow: string;
  let fastAgain: string;
  let steady: string;
  let steadyAgain: string;
  let elsewhere: string;

  beforeAll(() => {
    fast = runTo('fast.json', [4.8, 5, 5.2, 4.9, 5.1]);
    slow = runTo('slow.json', [9.8, 10, 10.2, 9.9, 10.1]);
    fastAgain = runTo('fast-again.json', [5.05, 4.85, 5.15, 4.95, 5.25]);
    // -d 4 --interval 250ms: 16 windows a side.
    const sixteen = { seconds: 4, intervalMs: 250 };
    steady = runTo('steady.json', [4.8, 5, 5.2, 4.9, 5.1], sixteen);
    steadyAgain = runTo('steady-again.json', [5.05, 4.85, 5.15, 4.95, 5.25], sixteen);
    elsewhere = runTo('elsewhere.json', [4.8, 5, 5.2, 4.9, 5.1], { seconds: 1, url: MOVED });
  });

  it('finds p50 up about 100 % from a 5 ms server to a 10 ms one, beyond noise, and --fail-on p50>+20% exits 1', async () => {
    const json = join(dir, 'slower.json');
    const html = join(dir, 'slower.html');
    const r = await runCli(['diff', fast, slow, '--fail-on', 'p50>+20%', '--json', json, '--html', html]);
    expect(r.code, r.stderr).toBe(1);
    const { diff, moves } = diffJson(json);
    expect(diff.parts.map((p) => p.label)).toEqual([host()]);
    expect(diff.parts[0]!.evidence).toBe('single');
    expect(diff.parts[0]!.windows).toEqual({ base: 6, next: 6 });
    const p50 = figure(diff, 'p50');
    // 5 ms → 10 ms: +100 % (to the histogram's 3 significant digits).
    expect(p50.deltaPercent).toBeGreaterThan(99);
    expect(p50.deltaPercent).toBeLessThan(101);
    expect(p50.test).toBe('ks-histograms');
    expect(p50.verdict).toBe('beyond-noise');
    // Two distributions 5 ms apart barely overlap: D near 1, over the 6-window critical value 0.784.
    expect(p50.statistic).toBeGreaterThan(0.784);
    expect(p50.critical).toBeCloseTo(1.358 * Math.sqrt(2 / 6), 6);
    expect(moves).toHaveLength(1);
    expect(moves[0]!.broken).toBe(true);
    expect(r.stdout).toContain('single runs carry less evidence than repetitions');
    expect(r.stdout).toMatch(/^ {2}p50>\+20%: .* p50 \+\d+\.\d %, beyond noise: REGRESSION$/m);
    expect(r.stdout).toMatch(/^p50 +\d+\.\d{3} +\d+\.\d{3} +\+\d+\.\d{3} +\+\d+\.\d % +beyond noise \(D /m);
    const page = readFileSync(html, 'utf8');
    expect(page).toContain('data-testid="diff-verdict"');
    // The two sides overlaid: their percentile curves and throughput series, each a line of its own.
    for (const chart of ['diff-part-1-chart-percentiles', 'diff-part-1-chart-throughput']) {
      const svg = page.slice(page.indexOf(`data-testid="${chart}"`)).split('</svg>')[0]!;
      expect(svg.match(/<polyline /g)?.length, chart).toBe(2);
      expect(svg).toContain('<title>base: ');
      expect(svg).toContain('<title>new: ');
    }
    expect(page).toContain('http-equiv="Content-Security-Policy" content="default-src');
    expect(page).not.toMatch(/<script(?! type="application\/json")/);
    expect(page).not.toMatch(/(src|href)="https?:/);
  });

  it('calls two runs of the same server within noise on 16 windows a side and exits 0, though the raw change passes a tight limit', async () => {
    const json = join(dir, 'same.json');
    // The tightest limits: any move at all passes one of each pair; the mean moved.
    const rules = ['p50>+0%', 'p50<-0%', 'mean>+0%', 'mean<-0%', 'p90>+0%', 'p90<-0%'];
    const r = await runCli([
      'diff',
      steady,
      steadyAgain,
      ...rules.flatMap((x) => ['--fail-on', x]),
      '--json',
      json,
    ]);
    expect(r.code, r.stdout).toBe(0);
    const { diff, moves } = diffJson(json);
    // The mean moved one way or the other, so it passed one of its limits; within noise, no
    // move fails.
    expect(moves.map((m) => m.rule.figure)).toContain('mean');
    for (const m of moves) {
      expect(m.percent).not.toBe(0);
      expect(m.broken).toBe(false);
    }
    // 16 windows a side: the histogram test tells a gap of D 0.480 (it could tell a large one).
    expect(diff.parts[0]!.windows).toEqual({ base: 16, next: 16 });
    for (const name of ['mean', 'p50', 'p90']) {
      expect(figure(diff, name).verdict).toBe('within-noise');
      expect(figure(diff, name).critical).toBeCloseTo(1.358 * Math.sqrt(2 / 16), 6);
    }
    expect(r.stdout).toContain('within noise: reported, not failing');
    expect(r.stdout).toContain('No regression: no --fail-on limit passed beyond noise');
  });

  it('says "not enough evidence" on 6 windows a side, with how long a run would tell the change', async () => {
    const json = join(dir, 'thin.json');
    const r = await runCli([
      'diff',
      fast,
      fastAgain,
      '--fail-on',
      'p50>+0%',
      '--fail-on',
      'p50<-0%',
      '--json',
      json,
    ]);
    expect(r.code, r.stdout).toBe(0);
    const p50 = figure(diffJson(json).diff, 'p50');
    // Two runs of one server on 6 windows: no gap under D 0.784 could be told.
    expect(p50.test).toBe('ks-histograms');
    expect(p50.statistic!).toBeLessThan(0.784);
    expect(p50.verdict).toBe('thin');
    // A run of at least the windows 1.358·√(2/n) < D needs, at its windows' mean length (1 s,
    // the last one a little longer when the engine folded a short end into it).
    const n = Math.floor(2 * (1.358 / p50.statistic!) ** 2) + 1;
    expect(p50.needed!.per).toBe('window');
    expect(p50.needed!.count).toBe(n);
    expect(p50.needed!.seconds! / n).toBeGreaterThanOrEqual(1);
    expect(p50.needed!.seconds! / n).toBeLessThan(1.2);
    expect(r.stdout).toMatch(
      /^p50 .* not enough evidence \(D [\d.]+ ≤ 0\.784; a \S+ run a side would tell it\)$/m,
    );
    expect(r.stdout).toContain('not enough evidence: reported, not failing');
    expect(r.stdout).not.toMatch(/^p50 .*within noise/m);
  });

  it('pairs two single runs of different URLs, says the URLs differ, and titles the HTML by both runs', async () => {
    const json = join(dir, 'moved.json');
    const html = join(dir, 'moved.html');
    const r = await runCli(['diff', fast, elsewhere, '--json', json, '--html', html]);
    expect([0, 1]).toContain(r.code);
    const line = `Paired the one target of each run: the URLs differ: ${URL_} and ${MOVED}`;
    expect(r.stdout).toContain(line);
    const { diff } = diffJson(json);
    expect(diff.parts.map((p) => [p.label, p.nextLabel])).toEqual([[host(), new URL(MOVED).host]]);
    const page = readFileSync(html, 'utf8');
    expect(page).toContain(line);
    // Named by what ran (a run without --name: its file) and when, not by two file names.
    expect(page).toMatch(/<h1>Diff: fast, \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC → elsewhere, \d{4}-/);
  });

  it('exits 2 on files of different kinds, results with nothing in common, a bad rule or an unreadable file', async () => {
    const plan = {
      kind: 'comparison',
      plan: JSON.parse(readFileSync(fast, 'utf8')) as unknown,
    };
    const notResult = join(dir, 'not-result.json');
    writeFileSync(notResult, JSON.stringify(plan));
    const bad = await runCli(['diff', fast, notResult]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`${notResult}: not a result Trebuchet reads: plan.`);

    // Two targets on one side and none of their names on the other: nothing to pair.
    const first = JSON.parse(readFileSync(fast, 'utf8')) as { target: { name: string } };
    const two = join(dir, 'two.json');
    writeFileSync(two, JSON.stringify([first, { ...first, target: { ...first.target, name: 'second' } }]));
    const apart = await runCli(['diff', two, elsewhere]);
    expect(apart.code).toBe(2);
    expect(apart.stderr).toContain(
      `the results have nothing in common by name: base has ${host()}, second; new has ${new URL(MOVED).host}`,
    );
    const rule = await runCli(['diff', fast, slow, '--fail-on', 'p77>+1%']);
    expect(rule.code).toBe(2);
    expect(rule.stderr).toContain(
      '--fail-on: "p77" is not one of rps, mean, p50, p90, p99, p99.9, max, errors, non2xx, late, cpu',
    );
    const missing = await runCli(['diff', fast, join(dir, 'nope.json')]);
    expect(missing.code).toBe(2);
    const one = await runCli(['diff', fast]);
    expect(one.code).toBe(2);
    expect(one.stderr).toContain('give two saved result files (1 given)');
  });
});
