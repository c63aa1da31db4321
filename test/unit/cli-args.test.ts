import { describe, expect, it } from 'vitest';
import type { RunCommand } from '../../electron/cli/run/args.ts';
import { applyPreset, parseRunArgs } from '../../electron/cli/run/args.ts';
import type { FileIo } from '../../electron/cli/files.ts';
import { FileProblemError } from '../../electron/files/bounded-file.ts';
import { findPreset, readPresetFile, type PresetSource } from '../../electron/cli/presets/lookup.ts';
import { summarizePreset } from '../../shared/records/preset-summary.ts';
import { builtInPresets } from '../../electron/stores/built-in-presets.ts';
import { bundlePaths } from '../../electron/cli/report.ts';
import type { OutputFiles } from '../../electron/cli/output-flags.ts';
import { CliInputError, parseDurationSeconds, parseRate, parseThreshold } from '../../electron/cli/values.ts';

const files: Record<string, string> = {
  '/w/s.json': JSON.stringify({
    name: 'from file',
    targets: [
      {
        url: 'https://127.0.0.1:8443/',
        headers: [{ name: 'Accept', value: '*/*' }],
        body: { kind: 'file', path: 'body.bin' },
      },
    ],
    load: { model: 'closed', connections: 50, limit: { kind: 'requests', count: 5000 } },
    options: {
      tls: { verify: false, caFile: 'ca.pem' },
      thresholds: [{ metric: 'p99', op: '<', value: 10 }],
    },
  }),
  '/w/bad.json': JSON.stringify({
    targets: [{ url: 'http://127.0.0.1/' }],
    load: { model: 'closed', connections: 0 },
  }),
  '/w/broken.json': '{ not json',
  '/w/fifo-body.json': JSON.stringify({
    targets: [{ url: 'http://127.0.0.1/', body: { kind: 'file', path: 'fifo' } }],
  }),
  '/w/saved.json': JSON.stringify({
    format: 'trebuchet-preset',
    version: 2,
    id: 'mine',
    name: 'two servers',
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    kind: 'scenario',
    scenario: {
      name: 'two servers',
      targets: [
        {
          name: 'old',
          url: 'http://127.0.0.1:1/a?x=1',
          method: 'POST',
          body: { kind: 'file', path: 'body.bin' },
        },
        { name: 'new', url: 'http://127.0.0.1:2/b' },
      ],
      load: { model: 'closed', connections: 20, limit: { kind: 'duration', seconds: 30 } },
    },
  }),
  '/w/body.txt': 'hello',
  '/w/body.bin': 'bytes',
  '/w/ca.pem': '-----BEGIN CERTIFICATE-----',
};
/** Files a check refuses, and why (electron/engine/input-files.ts says it on real files). */
const refused: Record<string, string> = { '/w/fifo': 'is a named pipe (FIFO), not a regular file' };
const io: FileIo = {
  cwd: '/w',
  readFile: (p) => {
    if (p === '/w' || p === '/') throw new FileProblemError(p, 'is a folder, not a file');
    if (!(p in files)) throw new FileProblemError(p, 'does not exist');
    return files[p]!;
  },
  exists: (p) => p in files || p === '/w' || p === '/',
  isDirectory: (p) => p === '/w' || p === '/',
  readTargets: () => {
    throw new Error('no targets file here');
  },
  inputFileProblem: (p) => refused[p] ?? (p in files ? null : 'does not exist'),
};

type ScenarioRun = Extract<RunCommand, { kind: 'run' }>;
type ComparisonRun = Extract<RunCommand, { kind: 'comparison' }>;

const builtIns = builtInPresets();
const presets: PresetSource = {
  list: () => builtIns.map((p) => summarizePreset(p, 'built-in')),
  get: (id) => builtIns.find((p) => p.id === id)!,
};

/** parseRunArgs, then (for --preset) the lookup and applyPreset, as run-command does. */
function command(argv: readonly string[]): RunCommand {
  const r = parseRunArgs(argv, io);
  if (r.help) throw new Error('unexpected help');
  if (r.kind !== 'preset') return r;
  const preset = r.ref.endsWith('.json')
    ? readPresetFile('--preset', `/w/${r.ref}`, io)
    : findPreset('--preset', r.ref, presets);
  return applyPreset(r, preset, io);
}

function run(...argv: string[]): ScenarioRun {
  const r = command(argv);
  if (r.kind !== 'run') throw new Error('expected a scenario run');
  return r;
}

function compare(...argv: string[]): ComparisonRun {
  const r = command(argv);
  if (r.kind !== 'comparison') throw new Error('expected a comparison');
  return r;
}

function fails(...argv: string[]): CliInputError {
  try {
    command(argv);
  } catch (e) {
    if (e instanceof CliInputError) return e;
    throw e;
  }
  throw new Error(`no error for ${argv.join(' ')}`);
}

describe('trebuchet run flags', () => {
  it('--monitor sets how every target is watched: auto by default, pid:N, a node_exporter URL, off', () => {
    expect(run('http://127.0.0.1:8080/').scenario.targets[0]!.monitor).toEqual({ kind: 'auto' });
    const pid = run('--monitor', 'pid:4321', 'http://127.0.0.1:1/', 'http://127.0.0.1:2/');
    expect(pid.scenario.targets.map((t) => t.monitor)).toEqual([
      { kind: 'pid', pid: 4321 },
      { kind: 'pid', pid: 4321 },
    ]);
    const far = run('--monitor', 'http://10.0.0.5:9100/metrics', '--scenario', 's.json');
    expect(far.scenario.targets[0]!.monitor).toEqual({
      kind: 'node-exporter',
      url: 'http://10.0.0.5:9100/metrics',
    });
    expect(run('--monitor', 'off', 'http://127.0.0.1:1/').scenario.targets[0]!.monitor).toEqual({
      kind: 'off',
    });
    expect(fails('--monitor', 'pid:0', 'http://127.0.0.1:1/').message).toBe(
      '--monitor: "pid:0": pid must be at least 1',
    );
    expect(fails('--monitor', 'top', 'http://127.0.0.1:1/').message).toMatch(
      /^--monitor: "top" is not a monitor \(auto, off, pid:N/,
    );
  });

  it('maps ab flags onto a closed scenario', () => {
    const { scenario, output } = run('-n', '1000', '-c', '10', '-k', 'http://127.0.0.1:8080/test.html');
    expect(scenario.load).toEqual({
      model: 'closed',
      connections: 10,
      pipelining: 1,
      limit: { kind: 'requests', count: 1000 },
      rate: null,
    });
    expect(scenario.options.keepAlive).toBe(true);
    expect(scenario.targets).toHaveLength(1);
    expect(scenario.targets[0]!.method).toBe('GET');
    expect(output).toEqual({
      format: null,
      jsonFile: null,
      csvFile: null,
      htmlFile: null,
      exportDir: null,
      jsonStream: false,
      quiet: false,
      keepSecrets: false,
      failUnlessClean: false,
    });
    expect(run('--keep-secrets', 'http://127.0.0.1/').output.keepSecrets).toBe(true);
    expect(run('--fail-unless-clean', 'http://127.0.0.1/').output.failUnlessClean).toBe(true);
  });

  it('maps vegeta flags onto the open model; --rate with --closed caps a closed loop', () => {
    const open = run('--rate', '1000/s', '-d', '5s', '--max-in-flight', '200', 'http://localhost:8080/');
    expect(open.scenario.load).toEqual({ model: 'open', rate: 1000, durationSeconds: 5, maxInFlight: 200 });
    const capped = run('--rate', '6000/1m', '--closed', '-c', '4', '-d', '1m30s', 'http://localhost/');
    expect(capped.scenario.load).toEqual({
      model: 'closed',
      connections: 4,
      pipelining: 1,
      limit: { kind: 'duration', seconds: 90 },
      rate: 100,
    });
  });

  it('reads every request, TLS and measuring flag', () => {
    const { scenario, output } = run(
      ...['-m', 'put', '-H', 'X-A: 1', '-H', 'Authorization: Bearer a:b', '--body-file', 'body.txt'],
      ...['--no-keepalive', '--http2', '--insecure', '--servername', 'example.test', '--engine', 'native'],
      ...['--tls-min-version', 'TLSv1', '-t', '3'],
      ...['--timeout', '2.5', '--warmup', '1s', '--slo', '300', '--interval', '250'],
      ...['--threshold', 'p99<50', '--threshold', 'errors<1%', '--threshold', 'p50<=0.2s', '--name', 'n'],
      ...['--format', 'vegeta', '--json', 'out.json', '--csv', 'out.csv', '-q'],
      'https://127.0.0.1:8443/a',
      'https://127.0.0.1:8444/b',
    );
    expect(scenario.name).toBe('n');
    expect(scenario.targets.map((t) => t.url)).toEqual([
      'https://127.0.0.1:8443/a',
      'https://127.0.0.1:8444/b',
    ]);
    expect(scenario.targets[1]).toMatchObject({
      method: 'PUT',
      headers: [
        { name: 'X-A', value: '1' },
        { name: 'Authorization', value: 'Bearer a:b' },
      ],
      body: { kind: 'file', path: '/w/body.txt' },
    });
    expect(scenario.options).toMatchObject({
      keepAlive: false,
      protocol: 'h2',
      engine: 'native',
      workers: 3,
      timeoutMs: 2500,
      warmupSeconds: 1,
      sloMs: 300,
      sampleIntervalMs: 250,
      tls: { verify: false, caFile: null, servername: 'example.test', minVersion: 'TLSv1' },
      thresholds: [
        { metric: 'p99', op: '<', value: 50 },
        { metric: 'errorRate', op: '<', value: 1 },
        { metric: 'p50', op: '<=', value: 200 },
      ],
    });
    expect(output).toEqual({
      format: 'vegeta',
      jsonFile: '/w/out.json',
      csvFile: '/w/out.csv',
      htmlFile: null,
      exportDir: null,
      jsonStream: false,
      quiet: true,
      keepSecrets: false,
      failUnlessClean: false,
    });
  });

  it('a text body without -m is a POST, as with ab -p', () => {
    expect(run('--body', 'x=1', 'http://127.0.0.1/').scenario.targets[0]).toMatchObject({
      method: 'POST',
      body: { kind: 'text', text: 'x=1' },
    });
  });

  it('takes a scenario file as the base, paths relative to it, and lets flags override', () => {
    const base = run('--scenario', 's.json');
    expect(base.scenario.name).toBe('from file');
    expect(base.scenario.targets[0]!.body).toEqual({ kind: 'file', path: '/w/body.bin' });
    expect(base.scenario.options.tls).toEqual({
      verify: false,
      caFile: '/w/ca.pem',
      servername: null,
      minVersion: 'TLSv1.2',
    });
    expect(base.scenario.load).toMatchObject({ connections: 50, limit: { kind: 'requests', count: 5000 } });

    const over = run(
      '--scenario',
      's.json',
      '-c',
      '5',
      '-d',
      '3',
      '-H',
      'accept: text/html',
      '--threshold',
      'rps>10',
    );
    expect(over.scenario.load).toMatchObject({
      model: 'closed',
      connections: 5,
      limit: { kind: 'duration', seconds: 3 },
    });
    expect(over.scenario.targets[0]!.headers).toEqual([{ name: 'accept', value: 'text/html' }]);
    expect(over.scenario.options.thresholds).toEqual([{ metric: 'rps', op: '>', value: 10 }]);
    expect(over.scenario.options.tls.verify).toBe(false);
  });

  it('prints help on -h', () => {
    expect(parseRunArgs(['-h'], io)).toEqual({ help: true });
  });

  it('--json - streams on stdout (no file); --shard and --start-at make a shard of the plan', () => {
    const streamed = run('--json', '-', 'http://127.0.0.1/');
    expect(streamed.output).toMatchObject({ jsonStream: true, jsonFile: null });
    expect(streamed.shard).toBeNull();
    const at = new Date(Date.now() + 60_000);
    const sharded = run('--shard', '3/3', '--start-at', at.toISOString(), '-c', '3', 'http://127.0.0.1/');
    expect(sharded.shard).toEqual({
      index: 2,
      count: 3,
      start: { kind: 'at', at: at.getTime() },
      readyFile: null,
    });
    // The scenario is the whole plan's: the share is taken when the run starts.
    expect(sharded.scenario.load).toMatchObject({ connections: 3 });
    const comparison = ['--preset', 'vegeta', '--target', 'nginx=http://127.0.0.1:8080/x'];
    expect(() => command([...comparison, '--shard', '1/2', '--start-at', at.toISOString()])).toThrow(
      /^--shard: ".*" is a comparison: a shard runs one scenario$/,
    );
    expect(() => command([...comparison, '--json', '-'])).toThrow(
      /^--json: - \(a line per tick\) is for a scenario/,
    );
  });

  it("refuses a run's own outputs for a shard its coordinator starts (--start-on)", () => {
    const shard = ['--shard', '1/2', '--start-on', 'stdin', '-c', '2', 'http://127.0.0.1/'];
    expect(run(...shard).shard).toMatchObject({ start: { kind: 'stdin' } });
    for (const [flag, value] of [
      ['--json', 'out.json'],
      ['--html', 'r.html'],
      ['--save', null],
    ] as const) {
      expect(() => command([...shard, flag, ...(value === null ? [] : [value])])).toThrow(
        new RegExp(`^${flag}: goes with a run's own result`),
      );
    }
  });
});

describe('trebuchet run errors name the flag', () => {
  it.each([
    [['-c', '0', 'http://127.0.0.1/'], '--connections', 'connections must be at least 1'],
    [['-c', '20000', 'http://127.0.0.1/'], '--connections', 'connections must be at most 10000'],
    [['-c', 'ten', 'http://127.0.0.1/'], '--connections', '"ten" is not a whole number'],
    [['-n', '10', '-d', '5', 'http://127.0.0.1/'], '--requests', 'either --requests or --duration'],
    [['-d', '5 minutes', 'http://127.0.0.1/'], '--duration', 'is not a duration'],
    [['--rate', 'fast', 'http://127.0.0.1/'], '--rate', 'is not a rate'],
    [['--rate', '100', '-n', '10', 'http://127.0.0.1/'], '--requests', 'closed model'],
    [['--rate', '100', '-c', '10', 'http://127.0.0.1/'], '--connections', 'add --closed'],
    [['--max-in-flight', '10', 'http://127.0.0.1/'], '--max-in-flight', 'open model only'],
    [['-m', 'BREW', 'http://127.0.0.1/'], '--method', 'Invalid option'],
    [['-H', 'NoColon', 'http://127.0.0.1/'], '--header', 'expected "Name: value"'],
    [
      ['-H', 'Bad Name: x', 'http://127.0.0.1/'],
      '--header',
      'header name has characters HTTP does not allow',
    ],
    [['--body', 'a', '--body-file', 'body.txt', 'http://127.0.0.1/'], '--body', 'not both'],
    [['--body-file', 'missing.bin', 'http://127.0.0.1/'], '--body-file', '/w/missing.bin does not exist'],
    [['--body-file', 'fifo', 'http://127.0.0.1/'], '--body-file', '/w/fifo is a named pipe (FIFO)'],
    [['--cacert', 'nope.pem', 'https://127.0.0.1/'], '--cacert', '/w/nope.pem does not exist'],
    [
      ['-H', 'X: \u20ac', 'http://127.0.0.1/'],
      '--header',
      'header value has "\u20ac" (U+20AC) at position 1',
    ],
    [['-H', 'X: a\u0000b', 'http://127.0.0.1/'], '--header', 'a control character (U+0000)'],
    [['--scenario', 'fifo-body.json'], '--scenario targets.0.body.path', '/w/fifo is a named pipe'],
    [['--engine', 'turbo', 'http://127.0.0.1/'], '--engine', 'Invalid option'],
    [['-t', '0', 'http://127.0.0.1/'], '--threads', 'workers must be at least 1'],
    [['--threads', 'many', 'http://127.0.0.1/'], '--threads', "workers must be 'auto' or a whole number"],
    [
      ['--tls-min-version', 'SSLv3', 'https://127.0.0.1/'],
      '--tls-min-version',
      'TLS version must be one of TLSv1, TLSv1.1, TLSv1.2, TLSv1.3',
    ],
    [['--threshold', 'p42<1', 'http://127.0.0.1/'], '--threshold', 'is not a threshold'],
    [['--threshold', 'p99<1%', 'http://127.0.0.1/'], '--threshold', 'is a latency'],
    [['--slo', '0', 'http://127.0.0.1/'], '--slo', 'SLO must be at least 0.001'],
    [['--interval', '50', 'http://127.0.0.1/'], '--interval', 'sample interval must be at least 100'],
    [['--timeout', '0', 'http://127.0.0.1/'], '--timeout', 'timeout must be at least 1'],
    [
      ['--format', 'xml', 'http://127.0.0.1/'],
      '--format',
      'not one of text, ab, vegeta, http_load, jmeter, json',
    ],
    [['--json', '/nope/out.json', 'http://127.0.0.1/'], '--json', 'folder does not exist: /nope'],
    [['ftp://127.0.0.1/'], '<url>', 'URL must start with http:// or https://'],
    [['not a url'], '<url>', 'URL is not valid'],
    [[], '<url>', 'give at least one target URL'],
    [['--frobnicate', 'http://127.0.0.1/'], '--frobnicate', 'unknown flag'],
    [['-c'], '-c', 'argument missing'],
    [['--scenario', 'nope.json'], '--scenario', '/w/nope.json does not exist'],
    [['--scenario', '/'], '--scenario', '/ is a folder, not a file'],
    [['--scenario', 'broken.json'], '--scenario', 'is not valid JSON'],
    [['--scenario', 'bad.json'], '--scenario load.connections', 'connections must be at least 1'],
  ])('%j -> %s', (argv, field, message) => {
    const e = fails(...argv);
    expect(e.field).toBe(field);
    expect(e.message).toContain(field);
    expect(e.message).toContain(message);
  });
});

describe('trebuchet run --preset', () => {
  it('points a built-in comparison at one server, keeping its path, with a shorter load', () => {
    const r = compare(
      ...['--preset', 'seed-004', '--target', 'lighttpd=http://127.0.0.1:9000', '-n', '500'],
      ...['--levels', '10,50', '--repetitions', '2', '--pause', '0', '--save', '--data-dir', 'data'],
    );
    expect(r.plan.targets).toEqual([
      expect.objectContaining({ name: 'lighttpd', urls: { http: 'http://127.0.0.1:9000/3kb.html' } }),
    ]);
    expect(r.plan.protocols).toEqual(['http']);
    expect(r.plan.load).toMatchObject({ model: 'closed', limit: { kind: 'requests', count: 500 } });
    expect(r.plan).toMatchObject({ levels: [10, 50], repetitions: 2, pauseSeconds: 0 });
    // The preset's own options stay: seed 004 is ab without -k.
    expect(r.plan.options.keepAlive).toBe(false);
    expect(r.notes).toEqual(['left out (no URL given): Apache (prefork), Apache (worker)']);
    expect(r.history).toEqual({ save: true, dataDir: '/w/data' });
  });

  it('takes URLs in order, and keeps only the protocols every kept target has a URL for', () => {
    const r = compare(
      '--preset',
      'builtin-seed-000-vegeta-rate',
      '-d',
      '1',
      'http://127.0.0.1:1/t',
      'http://127.0.0.1:2',
    );
    expect(r.plan.targets.map((t) => [t.name, t.urls])).toEqual([
      ['Apache', { http: 'http://127.0.0.1:1/t' }],
      ['nginx', { http: 'http://127.0.0.1:2/test.html' }],
    ]);
    expect(r.plan.protocols).toEqual(['http']);
    expect(r.plan.load).toMatchObject({ model: 'open', durationSeconds: 1 });
    expect(r.notes).toEqual([
      'left out (no URL given): H2O',
      'protocols left out (no URL given for them): https',
    ]);
  });

  it('fills http and https cells of one target from two --target URLs (names ignore case)', () => {
    const r = compare(
      ...[
        '--preset',
        'vegeta',
        '--target',
        'NGINX=http://127.0.0.1:8080/x',
        '--target',
        'nginx=https://localhost:8443',
      ],
      '--insecure',
    );
    expect(r.plan.targets.map((t) => t.urls)).toEqual([
      { http: 'http://127.0.0.1:8080/x', https: 'https://localhost:8443/test.html' },
    ]);
    expect(r.plan.protocols).toEqual(['http', 'https']);
    expect(r.plan.options.tls.verify).toBe(false);
  });

  it('measures https when only https URLs are given to an http-only preset', () => {
    const r = compare('--preset', 'seed-002', '--target', 'nginx=https://127.0.0.1:8443/');
    expect(r.plan.protocols).toEqual(['https']);
    expect(r.notes).toContain('protocols measured instead: https');
  });

  it('runs a scenario preset from a file, its paths relative to the file, flags on top', () => {
    const r = run('--preset', 'saved.json', '-c', '5', '-d', '2', '--target', 'old=http://127.0.0.1:7000');
    expect(r.scenario.targets).toEqual([
      expect.objectContaining({
        name: 'old',
        url: 'http://127.0.0.1:7000/a?x=1',
        method: 'POST',
        body: { kind: 'file', path: '/w/body.bin' },
      }),
    ]);
    expect(r.scenario.load).toMatchObject({ connections: 5, limit: { kind: 'duration', seconds: 2 } });
    expect(r.notes).toEqual(['left out (no URL given): new']);
    // Without URLs every target runs as saved.
    expect(run('--preset', 'saved.json').scenario.targets.map((t) => t.url)).toEqual([
      'http://127.0.0.1:1/a?x=1',
      'http://127.0.0.1:2/b',
    ]);
  });

  it.each([
    [['--preset', 'seed'], '--preset', 'matches 5 presets'],
    [['--preset', 'nothing-like-it'], '--preset', 'no preset file or preset named "nothing-like-it"'],
    [
      ['--preset', 'seed-004', '--target', 'nginx=http://127.0.0.1:1/'],
      '--target',
      'no target named "nginx"',
    ],
    [['--preset', 'seed-004', '--target', 'http://127.0.0.1:1/'], '--target', 'is not name=url'],
    [['--preset', 'seed-004', '-c', '10', 'http://127.0.0.1:1/'], '--connections', 'use --levels'],
    [['--preset', 'seed-004', '--http2', 'http://127.0.0.1:1/'], '--http2', 'protocol per cell'],
    [['--preset', 'seed-000', '-n', '10', 'http://127.0.0.1:1/'], '--requests', 'open model'],
    [
      ['--preset', 'seed-004', '--levels', '10,x', 'http://127.0.0.1:1/'],
      '--levels',
      'not a list of numbers',
    ],
    [['--preset', 'seed-004', '--levels', '10,5.5', 'http://127.0.0.1:1/'], '--levels', 'whole number'],
    [
      ['--preset', 'seed-004', '-n', '50', 'http://127.0.0.1:1/'],
      '--preset levels.1',
      'exceed the 50 requests',
    ],
    [
      [
        '--preset',
        'seed-000',
        '--target',
        'Apache=http://127.0.0.1:1/',
        '--target',
        'nginx=https://127.0.0.1:2/',
      ],
      '--target',
      'give nginx an http:// URL too',
    ],
    [
      ['--preset', 'seed-004', 'http://a/', 'http://b/', 'http://c/', 'http://d/'],
      '<url>',
      'has 3 target(s)',
    ],
    [['--preset', 'saved.json', '--levels', '1'], '--levels', 'is a scenario, not a comparison'],
    [['--preset', 'seed-004', '--scenario', 's.json'], '--preset', 'not both'],
    [['--levels', '1,2', 'http://127.0.0.1/'], '--levels', 'goes with --preset'],
    [['--target', 'a=http://127.0.0.1/', 'http://127.0.0.1/'], '--target', 'goes with --preset'],
  ])('%j -> %s', (argv, field, message) => {
    const e = fails(...argv);
    expect(e.field).toBe(field);
    expect(e.message).toContain(message);
  });
});

describe('flag values', () => {
  it('parses durations, rates and thresholds', () => {
    expect(parseDurationSeconds('-d', '10', 's')).toBe(10);
    expect(parseDurationSeconds('-d', '1m30s', 's')).toBe(90);
    expect(parseDurationSeconds('-d', '1h', 's')).toBe(3600);
    expect(parseDurationSeconds('--slo', '300', 'ms')).toBeCloseTo(0.3, 9);
    expect(parseDurationSeconds('--slo', '1.5s', 'ms')).toBe(1.5);
    expect(parseDurationSeconds('--slo', '250µs', 'ms')).toBeCloseTo(0.00025, 9);
    expect(parseRate('--rate', '100')).toBe(100);
    expect(parseRate('--rate', '50/500ms')).toBe(100);
    expect(parseThreshold('--threshold', 'p99.9 >= 2ms')).toEqual({ metric: 'p99.9', op: '>=', value: 2 });
    expect(parseThreshold('--threshold', 'errorRate<0.5')).toEqual({
      metric: 'errorRate',
      op: '<',
      value: 0.5,
    });
  });

  it('names the CSV files after the one --csv path', () => {
    const parts = ['json', 'summary.csv', 'timeseries.csv', 'percentiles.csv', 'resources.csv', 'stages.csv'];
    const bundle = {
      base: 'my-run',
      items: [...parts, 'html', 'ab.txt'].map((suffix) => ({
        suffix,
        label: suffix,
        type: 'text/plain',
        render: () => suffix,
      })),
    };
    const none: OutputFiles = { jsonFile: null, csvFile: null, htmlFile: null, exportDir: null };
    const paths = (out: Partial<OutputFiles>) => bundlePaths(bundle, { ...none, ...out }).map((p) => p.path);
    expect(paths({ csvFile: '/tmp/run.csv' })).toEqual([
      '/tmp/run.summary.csv',
      '/tmp/run.timeseries.csv',
      '/tmp/run.percentiles.csv',
      '/tmp/run.resources.csv',
      '/tmp/run.stages.csv',
    ]);
    expect(paths({ csvFile: '/tmp/run' })[0]).toBe('/tmp/run.summary.csv');
    // --json and --html take their part; --export every file under the app's names.
    expect(paths({ jsonFile: '/tmp/r.json', htmlFile: '/tmp/r.html' })).toEqual([
      '/tmp/r.json',
      '/tmp/r.html',
    ]);
    expect(paths({ exportDir: '/tmp/out' })).toEqual([
      ...parts.map((p) => `/tmp/out/my-run.${p}`),
      '/tmp/out/my-run.html',
      '/tmp/out/my-run.ab.txt',
    ]);
  });
});
