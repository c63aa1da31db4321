import { parse as parseCsv } from 'csv-parse/sync';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ResourceSample } from '../../shared/model/server-resources.ts';
import type { RunResult, Sample } from '../../shared/model/result.ts';
import { scenarioSchema, type ScenarioInput } from '../../shared/model/scenario.ts';
import { checkTarget } from '../../electron/engine/preflight/target-check.ts';
import { comparisonRunner } from '../../electron/jobs/comparison.ts';
import { runRunner } from '../../electron/jobs/run.ts';
import { startTarget } from '../../electron/jobs/target-run.ts';
import { comparisonPlanSchema } from '../../shared/comparison/plan.ts';
import { fetchMetricsText } from '../../electron/monitor/exporter-source.ts';
import { startServerMonitor } from '../../electron/monitor/server-monitor.ts';
import { endAfterAll } from '../helpers/cleanup.ts';
import { runWith } from '../helpers/jobs.ts';
import { runCli } from '../helpers/cli.ts';
import { startNginx, type NginxServer } from '../helpers/nginx.ts';
import { startNodeExporter } from '../helpers/node-exporter.ts';
import { sampleFixture } from '../helpers/run-result.ts';
import type { LocalServer } from '../helpers/server-process.ts';
import { startApache, startCaddy, startH2o, startLighttpd } from '../helpers/web-servers.ts';
import { handlers, refusedPort, startHttpServer, type TestServer } from '../helpers/servers.ts';

const endAll = endAfterAll();
let nginx: NginxServer;
let exporter: LocalServer;
let node: TestServer;

beforeAll(async () => {
  nginx = endAll(await startNginx({ workers: 2 }));
  exporter = endAll(await startNodeExporter());
  node = endAll(await startHttpServer(handlers.ok()));
});

/** The nginx master and its workers, as ps lists them. */
function psTree(master: number): { pid: number; ppid: number; comm: string }[] {
  const out = execFileSync('ps', ['-o', 'pid=,ppid=,comm=', '-p', String(master), '--ppid', String(master)], {
    encoding: 'utf8',
  });
  return out
    .trim()
    .split('\n')
    .map((line) => {
      const [pid, ppid, comm] = line.trim().split(/\s+/);
      return { pid: Number(pid), ppid: Number(ppid), comm: comm! };
    });
}

/**
 * CPU-seconds the processes ran, from the scheduler's own clock (/proc/<pid>/task/<tid>/schedstat,
 * nanoseconds): another counter than the /proc/<pid>/stat ticks the monitor reads.
 */
function schedCpuSeconds(pids: readonly number[]): number {
  let ns = 0;
  for (const pid of pids) {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    }
  }
  return ns / 1e9;
}

interface MonitoredRun {
  results: RunResult[];
  samples: Sample[];
  serverSamples: ResourceSample[];
}

async function monitoredRun(input: ScenarioInput): Promise<MonitoredRun> {
  const { events, results } = await runWith(runRunner, scenarioSchema.parse(input), { start: startTarget });
  return {
    results,
    samples: events.flatMap((e) => (e.type === 'sample' && e.source === 'engine' ? [e.sample] : [])),
    serverSamples: events.flatMap((e) => (e.type === 'sample' && e.source === 'server' ? [e.sample] : [])),
  };
}

const closed = (seconds: number, connections: number): ScenarioInput['load'] => ({
  model: 'closed',
  connections,
  limit: { kind: 'duration', seconds },
});

const one = (target: ScenarioInput['targets'][number], load: ScenarioInput['load']): ScenarioInput => ({
  targets: [target],
  load,
});

describe("the server's process tree (nginx with 2 workers)", () => {
  it(
    "finds the master and both workers by the target's port; the CPU matches the scheduler's within a few percent",
    { tags: ['timing'] },
    async () => {
      const tree = psTree(nginx.pid);
      expect(tree).toHaveLength(3);
      const pids = tree.map((p) => p.pid);
      const before = schedCpuSeconds(pids);
      const run = await monitoredRun(one({ url: `${nginx.httpUrl}test.html` }, closed(4, 40)));
      const after = schedCpuSeconds(pids);
      const result = run.results[0]!;
      expect(result.status).toBe('completed');
      const sr = result.serverResources!;
      expect(sr.source).toMatchObject({
        method: 'process',
        found: 'port',
        port: Number(new URL(nginx.httpUrl).port),
        reader: 'procfs',
        rootPid: nginx.pid,
      });
      if (sr.source.method !== 'process') throw new Error('not a process source');
      expect(sr.source.processes.map((p) => p.pid).sort()).toEqual([...pids].sort());
      expect(new Set(sr.source.processes.map((p) => p.name))).toEqual(new Set(['nginx']));

      // One reading per engine tick, on its time axis; the live events and the result carry the same series.
      expect(run.serverSamples).toEqual(sr.samples);
      expect(sr.samples.map((s) => [s.seq, s.elapsedSeconds])).toEqual(
        run.samples.map((s) => [s.seq, s.elapsedSeconds]),
      );
      for (const s of sr.samples) {
        expect(s.gap).toBeUndefined();
        expect(s).toMatchObject({ processes: 3, threads: 3 });
        expect(s.rssBytes).toBeGreaterThan(1024 * 1024);
        expect(s.openFiles).toBeGreaterThan(3);
      }
      expect(sr.summary.cpuPercent!.mean).toBeGreaterThan(10);

      const sampled = sr.samples.reduce((sum, s) => sum + (s.cpuSeconds ?? 0), 0);
      const scheduled = after - before;
      expect(Math.abs(sampled - scheduled) / scheduled).toBeLessThan(0.05);
      expect(sr.cpuSeconds).toBeCloseTo(sampled, 9);
      // The mean is those CPU-seconds over the time the readings cover: readings weighted by
      // their windows, the run's short last one folded (a mean of readings would count a last
      // 22 ms window as a whole tick), exactly. The readings cover the measured time, as the
      // efficiency figure needs; how far they reach past it is the machine's (a late tick's
      // reading covers its lateness: 16 % more beside test:flaky's hog and others' load).
      const covered = sr.samples.reduce(
        (sum, s) => sum + (s.cpuSeconds === undefined ? 0 : s.intervalSeconds),
        0,
      );
      expect(covered).toBeGreaterThanOrEqual(result.durationSeconds * 0.9);
      console.log(
        `nginx: ${sampled.toFixed(3)} CPU-s over ${covered.toFixed(2)} s read (${result.durationSeconds.toFixed(2)} s measured); summary mean ${sr.summary.cpuPercent!.mean.toFixed(1)}%, max ${sr.summary.cpuPercent!.max.toFixed(1)}%`,
      );
      expect(sr.summary.cpuPercent!.mean).toBeCloseTo((sampled / covered) * 100, 6);
      expect(sr.summary.cpuPercent!.max).toBeGreaterThanOrEqual(sr.summary.cpuPercent!.mean);
      expect(sr.cpuSecondsPer10kRequests).toBeCloseTo((sampled / result.requests.total) * 10_000, 9);
      expect(sr.monitorCpuPercent).toBeLessThan(1);
      expect(sr.gaps).toEqual([]);
    },
  );

  it(
    'reads under 5 % of a core when nginx is idle, at a cost under 1 % of a core',
    { tags: ['timing'] },
    async () => {
      const monitor = await startServerMonitor(
        { url: nginx.httpUrl, monitor: { kind: 'auto' } },
        { options: { sampleIntervalMs: 1000, warmupSeconds: 0 } },
      );
      for (let seq = 0; seq < 3; seq++) {
        await new Promise((r) => setTimeout(r, 1000));
        monitor!.tick(sampleFixture({ seq, elapsedSeconds: seq + 1 }));
      }
      const sr = await monitor!.stop({ seconds: 3, requests: 0 });
      expect(sr.samples).toHaveLength(3);
      for (const s of sr.samples) {
        expect(s.cpuPercent).toBeLessThan(5);
        expect(s.intervalSeconds).toBeGreaterThan(0.9);
      }
      expect(sr.cpuSecondsPer10kRequests).toBeNull();
      expect(sr.notes).toContain('no requests were measured: no CPU-seconds per 10,000 requests');
      expect(sr.monitorCpuPercent).toBeLessThan(1);
    },
  );

  it('watches the pid given and its descendants only', async () => {
    const worker = psTree(nginx.pid).find((p) => p.ppid === nginx.pid)!;
    const run = await monitoredRun(
      one({ url: `${nginx.httpUrl}test.html`, monitor: { kind: 'pid', pid: worker.pid } }, closed(1, 4)),
    );
    const sr = run.results[0]!.serverResources!;
    expect(sr.source).toMatchObject({ method: 'process', found: 'pid', port: null, rootPid: worker.pid });
    expect(sr.samples.every((s) => s.processes === 1)).toBe(true);
  });

  it('says why when nothing listens on the port, and the run still reports its own failure', async () => {
    const port = await refusedPort();
    const run = await monitoredRun(one({ url: `http://127.0.0.1:${port}/` }, closed(1, 1)));
    const result = run.results[0]!;
    expect(result.error?.kind).toBe('refused');
    expect(result.serverResources?.source).toEqual({
      method: 'none',
      reason: `nothing listens on port ${port} on this machine`,
    });
  });

  it('trebuchet run --monitor pid:N prints Server resources and writes the resources CSV', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trebuchet-monitor-'));
    try {
      const csv = join(dir, 'run.csv');
      const json = join(dir, 'run.json');
      const r = await runCli([
        'run',
        '-d',
        '2',
        '-c',
        '10',
        '--monitor',
        `pid:${nginx.pid}`,
        '--csv',
        csv,
        '--json',
        json,
        nginx.httpUrl,
      ]);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(
        new RegExp(
          `^Server resources:\\n  process tree of nginx \\(pid ${nginx.pid}, given by pid\\): 3 processes seen \\(nginx\\)`,
          'm',
        ),
      );
      // The report prints the result's figures: its efficiency figure, or why there is none
      // (on a busy machine a reading can fall behind the tick: a gap, and then too little of
      // the run is covered). Whether readings cover a run is the monitor tests' above.
      const sr = (JSON.parse(readFileSync(json, 'utf8')) as RunResult).serverResources!;
      if (sr.cpuSecondsPer10kRequests !== null) {
        expect(r.stdout).toMatch(/^ {2}server CPU-seconds per 10,000 requests: \d+\.\d{3}$/m);
      } else {
        expect(r.stdout).toMatch(/^ {2}note: CPU readings cover [\d.]+ s of the [\d.]+ s measured/m);
      }
      const rows = parseCsv<Record<string, string>>(readFileSync(join(dir, 'run.resources.csv'), 'utf8'), {
        columns: true,
      });
      // One row per reading, the last one (the run's end) always read.
      expect(rows.length).toBe(sr.samples.length);
      expect(rows.length).toBeGreaterThanOrEqual(2);
      expect(rows.every((row) => row.method === 'process')).toBe(true);
      const cpu = (row: Record<string, string>) => row['CPU (% of a core)'];
      rows.forEach((row, i) => {
        const reading = sr.samples[i]!;
        if (reading.cpuPercent === undefined) expect(cpu(row)).toBe('');
        else expect(Number(cpu(row))).toBeCloseTo(reading.cpuPercent, 5);
        if (reading.gap === undefined) expect(row.processes).toBe('3');
      });
      expect(Number(cpu(rows.at(-1)!))).toBeGreaterThanOrEqual(0);
      expect(cpu(rows.at(-1)!)).not.toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the comparison suite's other servers", () => {
  const servers: [() => Promise<LocalServer>, string[]][] = [
    [() => startApache({ mpm: 'event' }), ['apache2']],
    [() => startApache({ mpm: 'prefork' }), ['apache2']],
    [() => startH2o(), ['h2o', 'perl']],
    [() => startLighttpd(), ['lighttpd']],
    [() => startCaddy(), ['caddy']],
  ];

  it('are each found from their port, with the whole family below the first process', async () => {
    for (const [start, names] of servers) {
      const server = await start();
      try {
        // H2O forks its perl helper after its ports accept: the family is read once it is whole.
        await expect
          .poll(() => new Set(psTree(server.pid).map((p) => p.comm)), { timeout: 10_000 })
          .toEqual(new Set(names));
        // Listed first: Apache (prefork) keeps forking children after start, so a later monitor sees more.
        const family = psTree(server.pid);
        const monitor = await startServerMonitor(
          { url: server.httpUrl, monitor: { kind: 'auto' } },
          { options: { sampleIntervalMs: 1000, warmupSeconds: 0 } },
        );
        monitor!.tick(sampleFixture({ seq: 0, elapsedSeconds: 1 }));
        const sr = await monitor!.stop({ seconds: 1, requests: 0 });
        expect(sr.source, server.name).toMatchObject({ method: 'process', rootPid: server.pid });
        if (sr.source.method !== 'process') throw new Error('not a process source');
        expect(sr.source.processes.map((p) => p.pid).sort(), server.name).toEqual(
          expect.arrayContaining(family.map((p) => p.pid)),
        );
        expect(new Set(sr.source.processes.map((p) => p.name)), server.name).toEqual(new Set(names));
        // Every process the tick counted was seen (a child may have come or gone since the baseline).
        expect(sr.samples[0]!.processes, server.name).toBeGreaterThan(0);
        expect(sr.samples[0]!.processes, server.name).toBeLessThanOrEqual(sr.source.processes.length);
      } finally {
        await server.stop();
      }
    }
  });
});

describe('a comparison of two local servers', () => {
  it("gives each run the server's own CPU-seconds per 10,000 requests", { tags: ['timing'] }, async () => {
    const plan = comparisonPlanSchema.parse({
      targets: [
        { name: 'nginx', urls: { http: `${nginx.httpUrl}test.html` } },
        { name: 'node', urls: { http: node.url } },
      ],
      load: { model: 'closed', limit: { kind: 'duration', seconds: 2 } },
      levels: [10],
      repetitions: 1,
    });
    const { results: outcomes } = await runWith(
      comparisonRunner,
      plan,
      { start: startTarget },
      {
        checkTarget: (scenario, signal) => checkTarget(scenario, { appVersion: 'test', signal }),
      },
    );
    expect(outcomes).toHaveLength(2);
    const [a, b] = outcomes.map((o) => o.result.serverResources!);
    expect(a!.source).toMatchObject({ method: 'process', rootPid: nginx.pid });
    // The Node server runs in this test process: its family (same-named parents) is the test runner's.
    if (b!.source.method !== 'process') throw new Error('not a process source');
    expect(b!.source.processes.map((p) => p.pid)).toContain(process.pid);
    for (const sr of [a!, b!]) {
      expect(sr.cpuSecondsPer10kRequests).toBeGreaterThan(0);
      expect(sr.gaps).toEqual([]);
    }
  });
});

describe('a node_exporter', () => {
  it('gives machine CPU, load, memory and network figures at every tick', { tags: ['timing'] }, async () => {
    const url = `${exporter.httpUrl}metrics`;
    const run = await monitoredRun(
      one({ url: node.url, monitor: { kind: 'node-exporter', url } }, closed(3, 10)),
    );
    const result = run.results[0]!;
    expect(result.status).toBe('completed');
    const sr = result.serverResources!;
    expect(sr.source).toEqual({ method: 'node-exporter', url, cpuCount: cpus().length });
    expect(sr.samples.map((s) => s.seq)).toEqual(run.samples.map((s) => s.seq));
    for (const s of sr.samples) {
      expect(s.gap).toBeUndefined();
      for (const figure of [
        'cpuPercent',
        'cpuBusyPercent',
        'load1',
        'load5',
        'load15',
        'memoryUsedBytes',
      ] as const) {
        expect(s[figure]).toBeGreaterThanOrEqual(0);
      }
      expect(s.cpuBusyPercent).toBeLessThanOrEqual(100);
      expect(s.memoryUsedBytes).toBeLessThan(s.memoryTotalBytes!);
      expect(s.netInBytesPerSecond).toBeGreaterThanOrEqual(0);
      expect(s.netOutBytesPerSecond).toBeGreaterThanOrEqual(0);
    }
    // The load generator runs on this machine: it keeps a core busy.
    expect(sr.summary.cpuPercent!.mean).toBeGreaterThan(20);
    expect(sr.notes[0]).toMatch(/^this node_exporter runs on the machine that sends the load/);
  });

  it('a wrong URL and a page that is not metrics are named gaps; the runs still complete', async () => {
    const refused = `http://127.0.0.1:${await refusedPort()}/metrics`;
    const run = await monitoredRun({
      targets: [
        { url: node.url, monitor: { kind: 'node-exporter', url: refused } },
        { url: node.url, monitor: { kind: 'node-exporter', url: exporter.httpUrl } },
      ],
      load: closed(1.5, 4),
    });
    const [a, b] = run.results;
    expect(a!.status).toBe('completed');
    expect(a!.requests.ok).toBeGreaterThan(0);
    expect(a!.serverResources!.gaps).toEqual([
      {
        reason: `node_exporter ${refused}: connection refused`,
        count: a!.samples.length,
        firstElapsedSeconds: a!.samples[0]!.elapsedSeconds,
      },
    ]);
    expect(b!.status).toBe('completed');
    expect(b!.serverResources!.gaps.map((g) => g.reason)).toEqual([
      `node_exporter ${exporter.httpUrl}: not a metrics page (Content-Type text/html; charset=utf-8)`,
    ]);
    expect(b!.serverResources!.cpuSecondsPer10kRequests).toBeNull();
  });
});

describe('a hostile exporter', () => {
  const limits = { timeoutMs: 300, maxBytes: 1024 * 1024, maxSeries: 100 };

  it('stops reading past the size cap, gives up after the timeout, and names an HTTP error', async () => {
    const chunk = Buffer.alloc(64 * 1024, 'node_load1 1\n');
    const server = endAll(
      await startHttpServer((req, res) => {
        if (req.url === '/endless') {
          res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' });
          // Bounded: 20 MiB at most, far past the 1 MiB cap; the client hangs up first.
          let left = 320;
          const more = (): void => {
            while (left-- > 0 && res.write(chunk));
            if (left > 0) res.once('drain', more);
            else res.end();
          };
          more();
        } else if (req.url === '/silent') {
          setTimeout(() => res.end(), 2000);
        } else {
          res.writeHead(500).end('boom');
        }
      }),
    );
    expect(await fetchMetricsText(`${server.url}endless`, limits)).toEqual({
      ok: false,
      reason: 'the answer is larger than 1 MiB',
    });
    expect(await fetchMetricsText(`${server.url}silent`, limits)).toEqual({
      ok: false,
      reason: 'no answer within 0.3 s',
    });
    expect(await fetchMetricsText(`${server.url}other`, limits)).toEqual({ ok: false, reason: 'HTTP 500' });
  });
});
