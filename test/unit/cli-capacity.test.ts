import { describe, expect, it } from 'vitest';
import { capacityFromPreset, parseCapacityArgs } from '../../electron/cli/capacity/args.ts';
import { capacityExitCode } from '../../electron/cli/report.ts';
import type { FileIo } from '../../electron/cli/files.ts';
import { CliInputError } from '../../electron/cli/values.ts';
import { builtInPresets } from '../../electron/stores/built-in-presets.ts';
import { capacityPlanSchema, type CapacityStep } from '../../shared/capacity/plan.ts';
import { capacityReports } from '../../shared/capacity/report.ts';
import { formatCapacityReport, formatStepLine } from '../../shared/format/capacity-text.ts';
import { knee } from '../helpers/capacity-results.ts';

const io: FileIo = {
  cwd: '/w',
  readFile: () => '',
  exists: (p) => p === '/w/ca.pem',
  isDirectory: (p) => p === '/w' || p === '/',
  readTargets: () => {
    throw new Error('no targets file here');
  },
  inputFileProblem: (p) => (p === '/w/ca.pem' ? null : 'does not exist'),
};

function parse(...argv: string[]) {
  const r = parseCapacityArgs(argv, io);
  if (r.help || r.kind !== 'plan') throw new Error('expected a plan');
  return r;
}

/** `--preset id ...`: the plan the built-in preset gives with these flags. */
function fromPreset(id: string, ...argv: string[]) {
  const r = parseCapacityArgs(['--preset', id, ...argv], io);
  if (r.help || r.kind !== 'preset') throw new Error('expected a preset request');
  const preset = builtInPresets().find((p) => p.id === id);
  if (!preset) throw new Error(`no built-in preset ${id}`);
  return capacityFromPreset(r, preset, io);
}

function fails(...argv: string[]): string {
  try {
    parseCapacityArgs(argv, io);
  } catch (e) {
    if (e instanceof CliInputError) return e.message;
    throw e;
  }
  throw new Error(`no error for ${argv.join(' ')}`);
}

describe('trebuchet capacity flags', () => {
  it('builds the plan: goal, steps, named targets, and the run flags for requests and TLS', () => {
    const { plan, output, history } = parse(
      'nginx=http://127.0.0.1:8081/test.html',
      'http://127.0.0.1:8082/',
      '--p99',
      '10',
      '--errors',
      '0.5%',
      '--start-rate',
      '500/s',
      '--max-rate',
      '20000',
      '--step',
      '3s',
      '--warmup',
      '500ms',
      '--max-in-flight',
      '64',
      '-H',
      'Accept: text/html',
      '--insecure',
      '--cacert',
      'ca.pem',
      '--http2',
      '--json',
      'out.json',
      '--save',
    );
    expect(plan.targets.map((t) => [t.name, t.url, t.headers])).toEqual([
      ['nginx', 'http://127.0.0.1:8081/test.html', [{ name: 'Accept', value: 'text/html' }]],
      ['', 'http://127.0.0.1:8082/', [{ name: 'Accept', value: 'text/html' }]],
    ]);
    expect(plan.search).toEqual({
      goal: { p99Ms: 10, errorPercent: 0.5 },
      startRate: 500,
      maxRate: 20_000,
      stepSeconds: 3,
      warmupSeconds: 0.5,
    });
    expect(plan.maxInFlight).toBe(64);
    expect(plan.options).toMatchObject({
      protocol: 'h2',
      tls: { verify: false, caFile: '/w/ca.pem' },
    });
    expect(output).toEqual({
      format: 'text',
      jsonFile: '/w/out.json',
      csvFile: null,
      htmlFile: null,
      exportDir: null,
      quiet: false,
      keepSecrets: false,
    });
    expect(history.save).toBe(true);
    // A goal in seconds is a goal in ms all the same; the rest are the defaults.
    expect(parse('http://127.0.0.1:1/', '--p99', '0.25s').plan.search).toEqual({
      goal: { p99Ms: 250, errorPercent: 1 },
      startRate: 100,
      maxRate: 100_000,
      stepSeconds: 5,
      warmupSeconds: 1,
    });
  });

  it("-t/--threads sets the engine workers of every step, over a preset's too, and names the flag", () => {
    expect(parse('http://127.0.0.1:1/', '--p99', '10').plan.options.workers).toBe('auto');
    expect(parse('http://127.0.0.1:1/', '--p99', '10', '-t', '2').plan.options.workers).toBe(2);
    expect(parse('http://127.0.0.1:1/', '--p99', '10', '--threads', 'auto').plan.options.workers).toBe(
      'auto',
    );
    const target = ['--target', 'nginx · http=http://127.0.0.1:9082'];
    expect(fromPreset('builtin-capacity-p99-10ms', ...target, '-t', '3').plan.options.workers).toBe(3);
    expect(fails('http://127.0.0.1:1/', '--p99', '10', '-t', '0')).toBe(
      '--threads: workers must be at least 1',
    );
  });

  it('names the flag at fault', () => {
    expect(fails('--p99', '10')).toBe('<url>: give at least one target URL, or --preset');
    expect(fails('http://127.0.0.1:1/')).toBe('--p99: give the latency goal, e.g. --p99 10 (ms)');
    expect(fails('http://127.0.0.1:1/', '--p99', 'fast')).toBe(
      '--p99: "fast" is not a duration (e.g. 300, 300ms, 1.5s)',
    );
    expect(fails('http://127.0.0.1:1/', '--p99', '10', '--errors', 'some')).toBe(
      '--errors: "some" is not a percentage (e.g. 1% or 0.5)',
    );
    expect(fails('http://127.0.0.1:1/', '--p99', '10', '--errors', '150')).toBe(
      '--errors: error limit must be at most 100',
    );
    expect(fails('http://127.0.0.1:1/', '--p99', '10', '--start-rate', '500', '--max-rate', '100')).toBe(
      '--max-rate: max rate 100 is below the start rate 500',
    );
    expect(fails('http://127.0.0.1:1/', '--p99', '10', '--max-in-flight', '0')).toBe(
      '--max-in-flight: max in flight must be at least 1',
    );
    expect(fails('ftp://127.0.0.1:1/', '--p99', '10')).toMatch(/^<url>: /);
    expect(fails('http://127.0.0.1:1/', '--p99', '10', '--levels', '1,2')).toMatch(
      /^--levels: unknown flag$/,
    );
  });
});

describe('trebuchet capacity output', () => {
  const plan = capacityPlanSchema.parse({
    targets: [
      { name: 'nginx', url: 'http://127.0.0.1:1/' },
      { name: 'apache', url: 'http://127.0.0.1:2/' },
    ],
    search: { goal: { p99Ms: 10 }, startRate: 400, maxRate: 3200 },
  });
  const steps: CapacityStep[] = [
    ...[400, 800, 1600, 1200].map((rate, stepIndex) => ({
      searchIndex: 0,
      stepIndex,
      rate,
      phase: stepIndex < 3 ? ('doubling' as const) : ('bisecting' as const),
      result: knee(1300)(rate),
    })),
    { searchIndex: 1, stepIndex: 0, rate: 400, phase: 'doubling', result: knee(100)(400) },
  ];

  it('prints a line per step and each answer with its curve, then one sentence', () => {
    const reports = capacityReports(plan, steps, null);
    const [nginx] = reports;
    expect(formatStepLine('nginx', 2, nginx!.steps[2]!)).toBe(
      'nginx · step 3 · 1,600 req/s (doubling): broke the goal · 1,600.0 req/s, p50 1 ms, p99 80 ms, errors 0.0%, non-2xx 0.0%\n    p99 80 ms',
    );
    const text = formatCapacityReport(reports);
    expect(text.split('\n')).toEqual([
      'Capacity at p99 < 10 ms, errors and non-2xx at most 1.0% each',
      '',
      'nginx: stopped; 1,200 req/s held so far at p99 < 10 ms',
      '         rate  phase           achieved   p50    p99  errors  non-2xx  step',
      '    400 req/s  doubling     400.0 req/s  1 ms   2 ms    0.0%     0.0%  held',
      '    800 req/s  doubling     800.0 req/s  1 ms   2 ms    0.0%     0.0%  held',
      '  1,200 req/s  bisecting  1,200.0 req/s  1 ms   2 ms    0.0%     0.0%  held',
      '  1,600 req/s  doubling   1,600.0 req/s  1 ms  80 ms    0.0%     0.0%  broke the goal',
      '',
      // Saved before a break was measured again: judged on the one it has, and says so.
      'apache: not even the lowest rate held: 400 req/s broke p99 < 10 ms once, not run again: p99 80 ms',
      '       rate  phase        achieved   p50    p99  errors  non-2xx  step',
      '  400 req/s  doubling  400.0 req/s  1 ms  80 ms    0.0%     0.0%  broke the goal',
      '',
      'nginx holds at least 1,200 req/s (stopped), apache: no rate (not even 400 req/s held) at p99 < 10 ms',
      '',
    ]);
    // A server that held no rate fails the command; a lower bound does not.
    const flags = { interrupted: false, hostError: false, filesFailed: false };
    expect(capacityExitCode(reports, flags)).toBe(1);
    expect(capacityExitCode(reports.slice(0, 1), flags)).toBe(0);
    expect(capacityExitCode(reports.slice(0, 1), { ...flags, interrupted: true })).toBe(130);
  });

  it('--preset: the capacity preset pointed at the given servers, its goal changed by the flags', () => {
    const { plan, notes } = fromPreset(
      'builtin-capacity-p99-10ms',
      '--target',
      'nginx · http=http://127.0.0.1:9082',
      '--target',
      'Apache · http=http://127.0.0.1:9081/',
      '--step',
      '2',
    );
    // A URL without a path keeps the preset's (test.html); the preset's order is kept.
    expect(plan.targets.map((t) => [t.name, t.url])).toEqual([
      ['Apache · http', 'http://127.0.0.1:9081/'],
      ['nginx · http', 'http://127.0.0.1:9082/test.html'],
    ]);
    expect(plan.search).toMatchObject({ goal: { p99Ms: 10, errorPercent: 1 }, stepSeconds: 2 });
    expect(plan.maxInFlight).toBe(10_000);
    expect(notes).toEqual([
      'left out (no URL given): H2O · http, Apache · https, nginx · https, H2O · https',
    ]);
  });

  it('--preset: a comparison preset searched per target and protocol, with the goal from --p99', () => {
    const { plan } = fromPreset(
      'builtin-seed-000-vegeta-rate',
      '--p99',
      '5',
      '--target',
      'nginx=http://127.0.0.1:9082',
      '--target',
      'nginx=https://127.0.0.1:9443',
    );
    expect(plan.targets.map((t) => [t.name, t.url, t.protocol])).toEqual([
      ['nginx · http', 'http://127.0.0.1:9082/test.html', 'http1.1'],
      ['nginx · https', 'https://127.0.0.1:9443/test.html', 'http1.1'],
    ]);
    expect(plan.search.goal.p99Ms).toBe(5);
    expect(() => fromPreset('builtin-seed-000-vegeta-rate')).toThrow('--p99: give the latency goal');
    expect(() =>
      fromPreset('builtin-seed-000-vegeta-rate', '--p99', '5', '--target', 'lighttpd=http://x/'),
    ).toThrow('the preset has no target named "lighttpd"');
  });
});
