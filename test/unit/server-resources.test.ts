import { parse as parseCsv } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { groupGaps } from '../../shared/resources/charts.ts';
import { summarizeResources } from '../../shared/resources/summary.ts';
import { keepUsedFamilies, scrapeFromText } from '../../electron/monitor/exporter-source.ts';
import { resolveMonitor } from '../../electron/monitor/resolve.ts';
import { expandPlan } from '../../shared/comparison/cells.ts';
import { comparisonPlanSchema } from '../../shared/comparison/plan.ts';
import { resourcesCsv, summaryCsv } from '../../shared/format/csv.ts';
import { formatTextReport } from '../../shared/format/report.ts';
import {
  isLoopbackHostname,
  monitorSchema,
  monitorText,
  parseMonitorText,
} from '../../shared/model/monitor.ts';
import { exporterFigures, type ExporterScrape } from '../../shared/resources/exporter.ts';
import {
  processCpuByPid,
  processFigures,
  type ProcessCounters,
  type ProcessReading,
} from '../../shared/resources/process.ts';
import {
  serverResourcesSchema,
  type ResourceSample,
  type ServerResources,
} from '../../shared/model/server-resources.ts';
import { runResultSchema } from '../../shared/model/result.ts';
import { scenarioSchema, targetSchema } from '../../shared/model/scenario.ts';
import { runResultFixture } from '../helpers/run-result.ts';

const proc = (over: Partial<ProcessCounters> = {}): ProcessCounters => ({
  ppid: 1,
  userSeconds: 0,
  systemSeconds: 0,
  childUserSeconds: 0,
  childSystemSeconds: 0,
  rssBytes: 1000,
  threads: 1,
  openFiles: 10,
  ...over,
});

const reading = (at: number, processes: [number, ProcessCounters][]): ProcessReading => ({
  at,
  rootPid: 100,
  processes: new Map(processes),
});

describe('CPU of a process tree from two readings', () => {
  it('sums user and system growth over the tree, 100 % = one core', () => {
    const a = reading(0, [
      [100, proc({ userSeconds: 1, systemSeconds: 1 })],
      [101, proc({ ppid: 100, userSeconds: 5, systemSeconds: 2 })],
      [102, proc({ ppid: 100, userSeconds: 5, systemSeconds: 2 })],
    ]);
    const b = reading(2000, [
      [100, proc({ userSeconds: 1.02, systemSeconds: 1 })],
      [101, proc({ ppid: 100, userSeconds: 5.6, systemSeconds: 2.4, rssBytes: 2000 })],
      [102, proc({ ppid: 100, userSeconds: 5.4, systemSeconds: 2.6, threads: 4, openFiles: 30 })],
    ]);
    const f = processFigures(a, b);
    expect(f.intervalSeconds).toBe(2);
    expect(f.cpuSeconds).toBeCloseTo(2.02, 9);
    expect(f.cpuPercent).toBeCloseTo(101, 9);
    expect(f.cpuUserPercent).toBeCloseTo(51, 9);
    expect(f.cpuSystemPercent).toBeCloseTo(50, 9);
    expect(f).toMatchObject({ rssBytes: 4000, threads: 6, openFiles: 50, processes: 3 });
  });

  it("counts a new child's whole time and an exited child's last moments (reaped by the root)", () => {
    const a = reading(0, [
      [100, proc({ childUserSeconds: 10, childSystemSeconds: 4 })],
      [101, proc({ ppid: 100, userSeconds: 3, systemSeconds: 1 })],
    ]);
    // 101 ran 0.5 s more (user) and exited; the root waited for it, so its 3.5 + 1 s moved into the root's children counters.
    const b = reading(1000, [
      [100, proc({ childUserSeconds: 13.5, childSystemSeconds: 5 })],
      [103, proc({ ppid: 100, userSeconds: 0.25, systemSeconds: 0.125 })],
    ]);
    // The exited child's last 0.5 s is the root's (it reaped it), the new child's whole time its own.
    expect(processCpuByPid(a, b)).toEqual(
      new Map([
        [100, { userSeconds: 0.5, systemSeconds: 0 }],
        [103, { userSeconds: 0.25, systemSeconds: 0.125 }],
      ]),
    );
    const f = processFigures(a, b);
    expect(f.cpuUserPercent).toBeCloseTo(75, 9);
    expect(f.cpuSystemPercent).toBeCloseTo(12.5, 9);
    // The root has a child: it is not a worker, so the busiest serving process is 103.
    expect(f.busiestCpuPercent).toBeCloseTo(37.5, 9);
  });

  it('leaves the open-file count out when any process of the tree cannot be read', () => {
    const a = reading(0, [[100, proc()]]);
    const b = reading(1000, [
      [100, proc()],
      [101, proc({ ppid: 100, openFiles: null })],
    ]);
    expect(processFigures(a, b).openFiles).toBeUndefined();
  });
});

const EXPORTER_TEXT = (o: {
  idle: number;
  user: number;
  iowait: number;
  rx: number;
  lo: number;
  load1: number;
}) => `# HELP node_cpu_seconds_total Seconds the CPUs spent in each mode.
# TYPE node_cpu_seconds_total counter
node_cpu_seconds_total{cpu="0",mode="idle"} ${o.idle}
node_cpu_seconds_total{cpu="0",mode="iowait"} ${o.iowait}
node_cpu_seconds_total{cpu="0",mode="user"} ${o.user}
node_cpu_seconds_total{cpu="0",mode="system"} 10
node_cpu_seconds_total{cpu="1",mode="idle"} ${o.idle}
node_cpu_seconds_total{cpu="1",mode="iowait"} 0
node_cpu_seconds_total{cpu="1",mode="user"} ${o.user}
node_cpu_seconds_total{cpu="1",mode="system"} 10
# HELP go_goroutines Number of goroutines.
# TYPE go_goroutines gauge
go_goroutines 8
# TYPE node_load1 gauge
node_load1 ${o.load1}
# TYPE node_load5 gauge
node_load5 0.5
# TYPE node_load15 gauge
node_load15 0.25
# TYPE node_memory_MemAvailable_bytes gauge
node_memory_MemAvailable_bytes 6e+09
# TYPE node_memory_MemTotal_bytes gauge
node_memory_MemTotal_bytes 8e+09
# TYPE node_network_receive_bytes_total counter
node_network_receive_bytes_total{device="eth0"} ${o.rx}
node_network_receive_bytes_total{device="lo"} ${o.lo}
# TYPE node_network_transmit_bytes_total counter
node_network_transmit_bytes_total{device="eth0"} 5000
node_network_transmit_bytes_total{device="lo"} ${o.lo}`;

function scrape(at: number, o: Parameters<typeof EXPORTER_TEXT>[0]): ExporterScrape {
  const r = scrapeFromText(EXPORTER_TEXT(o), at, 1000);
  if (!r.ok) throw new Error(r.reason);
  return r.scrape;
}

describe('node_exporter figures from two scrapes', () => {
  const first = { idle: 100, user: 50, iowait: 5, rx: 1000, lo: 0, load1: 1.5 };

  it('derives busy CPU (idle and iowait are not busy), load, memory used and network without lo', () => {
    const a = scrape(0, first);
    // 2 s later, on each of 2 CPUs: 0.5 s user, 1 s idle, 0.5 s iowait (cpu 0 only).
    const b = scrape(2000, { idle: 101, user: 50.5, iowait: 5.5, rx: 5000, lo: 1e9, load1: 2 });
    const f = exporterFigures(a, b, ['lo']);
    expect(f.intervalSeconds).toBe(2);
    expect(f.cpuSeconds).toBeCloseTo(1, 9);
    expect(f.cpuPercent).toBeCloseTo(50, 9);
    expect(f.cpuUserPercent).toBeCloseTo(50, 9);
    expect(f.cpuSystemPercent).toBe(0);
    // busy 1 s of 3.5 s counted (2 x 1.5 s + 0.5 s iowait).
    expect(f.cpuBusyPercent).toBeCloseTo((1 / 3.5) * 100, 9);
    expect(f).toMatchObject({
      load1: 2,
      load5: 0.5,
      load15: 0.25,
      memoryUsedBytes: 2e9,
      memoryTotalBytes: 8e9,
    });
    expect(f.netInBytesPerSecond).toBe(2000);
    expect(f.netOutBytesPerSecond).toBe(0);
  });

  it('takes a counter that went down as reset (its new value is the growth)', () => {
    const a = scrape(0, first);
    const b = scrape(1000, { ...first, rx: 300 });
    expect(exporterFigures(a, b, ['lo']).netInBytesPerSecond).toBe(300);
  });

  it('keeps only the families used before parsing, and counts their series', () => {
    const kept = keepUsedFamilies(EXPORTER_TEXT(first));
    expect(kept.series).toBe(17);
    expect(kept.text).not.toContain('go_goroutines');
    expect(kept.text.endsWith('\n')).toBe(true);
  });

  it('refuses more series than the cap, a page that is not the text format, and one without CPU series', () => {
    expect(scrapeFromText(EXPORTER_TEXT(first), 0, 10)).toEqual({
      ok: false,
      reason: 'the exporter sent 17 series of the families used (at most 10 are read)',
    });
    const broken = scrapeFromText(
      'node_load1{x="1" 3\nnode_cpu_seconds_total{cpu="0",mode="idle"} 1\n',
      0,
      10,
    );
    expect(broken.ok).toBe(false);
    expect(!broken.ok && broken.reason).toMatch(/^not in the Prometheus text format: /);
    expect(scrapeFromText('<html><body>Hello</body></html>', 0, 10)).toEqual({
      ok: false,
      reason: "no node_cpu_seconds_total in the answer: is this a node_exporter's /metrics?",
    });
  });
});

const rs = (over: Partial<ResourceSample>): ResourceSample => ({
  seq: 0,
  elapsedSeconds: 1,
  intervalSeconds: 1,
  warmup: false,
  ...over,
});

describe('summary of a run', () => {
  it('leaves warm-up out of the means and maxima and gives CPU-seconds per 10,000 requests', () => {
    const samples = [
      rs({ seq: 0, warmup: true, cpuPercent: 300, cpuSeconds: 3 }),
      rs({ seq: 1, cpuPercent: 50, cpuSeconds: 0.5, rssBytes: 10 }),
      rs({ seq: 2, cpuPercent: 70, cpuSeconds: 0.7, rssBytes: 30 }),
    ];
    const s = summarizeResources(samples, { seconds: 2, requests: 40_000 }, 1);
    expect(s.summary.cpuPercent).toEqual({ mean: 60, max: 70 });
    expect(s.summary.rssBytes).toEqual({ mean: 20, max: 30 });
    expect(s.cpuSeconds).toBeCloseTo(1.2, 9);
    expect(s.cpuSecondsPer10kRequests).toBeCloseTo(0.3, 9);
    expect(s.note).toBeNull();
  });

  it('weights CPU readings by their interval and folds the short last one (nginx at 1,000 req/s for 5 s)', () => {
    // Five 1 s readings of 2.2-3.1% and the run's last: 21.8 ms holding one 10 ms CPU tick (45.9%).
    const ticks = [0.026, 0.031, 0.025, 0.026, 0.022].map((cpuSeconds, i) =>
      rs({ seq: i + 1, elapsedSeconds: i + 1, cpuSeconds, cpuPercent: cpuSeconds * 100 }),
    );
    const tail = {
      elapsedSeconds: 5.0218,
      intervalSeconds: 0.0218,
      cpuSeconds: 0.01,
      cpuPercent: (0.01 / 0.0218) * 100,
    };
    const cpuOver = 0.14 / 5.0218;
    // The last reading at the final tick's seq (the charts fold it), or at a seq of its own.
    for (const seq of [5, 6]) {
      const s = summarizeResources([...ticks, rs({ seq, ...tail })], { seconds: 5, requests: 5000 }, 1);
      // Was 9.8% mean (unweighted, the tail counted as a whole reading) and 45.9% max.
      expect(s.summary.cpuPercent!.mean * 100).toBeCloseTo(cpuOver * 10_000, 6);
      expect(s.summary.cpuPercent!.mean).toBeCloseTo(2.79, 2);
      // The tail folded into the last tick: 0.032 CPU-s over 1.0218 s, the chart's peak too.
      expect(s.summary.cpuPercent!.max).toBeCloseTo(3.13, 2);
      expect(s.cpuSeconds).toBeCloseTo(0.14, 9);
    }
    // A reading covering 3 s (a slow first read) weighs three times one covering 1 s.
    const uneven = [rs({ intervalSeconds: 3, cpuPercent: 10 }), rs({ seq: 1, cpuPercent: 50 })];
    expect(summarizeResources(uneven, { seconds: 4, requests: 1 }, 1).summary.cpuPercent).toEqual({
      mean: 20,
      max: 50,
    });
  });

  it('gives no efficiency figure when the readings cover too little of the measured time', () => {
    const samples = [
      rs({ cpuSeconds: 0.5 }),
      rs({ seq: 1, gap: 'process 12 (nginx) is gone', intervalSeconds: 0 }),
    ];
    const s = summarizeResources(samples, { seconds: 4, requests: 1000 }, 1);
    expect(s.cpuSecondsPer10kRequests).toBeNull();
    expect(s.note).toBe('CPU readings cover 1.0 s of the 4.0 s measured: no CPU-seconds per 10,000 requests');
    expect(
      groupGaps([...samples, rs({ seq: 2, elapsedSeconds: 3, gap: 'process 12 (nginx) is gone' })]),
    ).toEqual([{ reason: 'process 12 (nginx) is gone', count: 2, firstElapsedSeconds: 1 }]);
  });

  it("counts a gap per engine tick: a final reading on the tick before (a folded short last window) is that tick's", () => {
    const refused = 'node_exporter http://127.0.0.1:9/metrics: connection refused';
    // A 1.5 s run whose end came just under half a window after its 1 s tick: the engine folds
    // the tail into that tick (seq 0, now ending at 1.49 s), and the monitor read at both.
    const folded = [
      rs({ seq: 0, elapsedSeconds: 1, gap: refused }),
      rs({ seq: 0, elapsedSeconds: 1.49, intervalSeconds: 0.49, gap: refused }),
    ];
    expect(groupGaps(folded)).toEqual([{ reason: refused, count: 1, firstElapsedSeconds: 1.49 }]);
    // A reading with figures at the tick fills it, whichever of the two it was.
    expect(
      groupGaps([rs({ seq: 0, cpuPercent: 5 }), rs({ seq: 0, elapsedSeconds: 1.49, gap: refused })]),
    ).toEqual([]);
    expect(
      groupGaps([rs({ seq: 0, gap: refused }), rs({ seq: 0, elapsedSeconds: 1.49, cpuPercent: 5 })]),
    ).toEqual([]);
    // Two ticks of their own are two.
    expect(
      groupGaps([rs({ seq: 0, gap: refused }), rs({ seq: 1, elapsedSeconds: 1.5, gap: refused })]),
    ).toEqual([{ reason: refused, count: 2, firstElapsedSeconds: 1 }]);
  });
});

describe('the monitor model', () => {
  it('defaults to auto, so presets and results saved before it still parse', () => {
    expect(targetSchema.parse({ url: 'http://127.0.0.1:8080/' }).monitor).toEqual({ kind: 'auto' });
    const old = runResultFixture();
    expect(runResultSchema.parse(old).serverResources).toBeUndefined();
  });

  it('names the field and what is wrong', () => {
    const bad = scenarioSchema.safeParse({
      targets: [{ url: 'http://a/', monitor: { kind: 'pid', pid: 0 } }],
    });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]).toMatchObject({
      path: ['targets', 0, 'monitor', 'pid'],
      message: 'pid must be at least 1',
    });
    expect(
      monitorSchema.safeParse({ kind: 'node-exporter', url: 'ftp://x/' }).error?.issues[0]?.message,
    ).toBe('node_exporter URL must start with http:// or https:// (got ftp://)');
    expect(monitorSchema.safeParse({ kind: 'ssh' }).error?.issues[0]?.message).toBe(
      'monitor kind must be auto, pid, node-exporter or off',
    );
  });

  it("reads the CLI's --monitor text and writes it back", () => {
    for (const text of ['auto', 'off', 'pid:1234', 'http://server:9100/metrics']) {
      const r = parseMonitorText(text);
      expect(r.ok && monitorText(r.monitor)).toBe(text);
    }
    expect(parseMonitorText('pid:x')).toEqual({
      ok: false,
      message: '"pid:x": pid:N takes a process id (e.g. pid:1234)',
    });
    const notOne = parseMonitorText('server:9100');
    expect(!notOne.ok && notOne.message).toMatch(/is not a monitor/);
  });

  it('tells loopback names by their text', () => {
    for (const h of ['localhost', '127.0.0.1', '127.1.2.3', '[::1]', '::ffff:127.0.0.1', 'a.localhost']) {
      expect(isLoopbackHostname(h)).toBe(true);
    }
    for (const h of ['10.0.0.1', 'example.com', '::2', '128.0.0.1'])
      expect(isLoopbackHostname(h)).toBe(false);
  });

  it("resolves auto to the target's port on this machine and to nothing (with the reason) elsewhere", async () => {
    expect(await resolveMonitor({ url: 'http://127.0.0.1:8080/x', monitor: { kind: 'auto' } })).toEqual({
      kind: 'port',
      port: 8080,
      host: '127.0.0.1',
    });
    expect(await resolveMonitor({ url: 'https://localhost/', monitor: { kind: 'auto' } })).toMatchObject({
      port: 443,
    });
    const remote = await resolveMonitor({ url: 'http://192.0.2.10/', monitor: { kind: 'auto' } });
    expect(remote?.kind === 'none' && remote.reason).toMatch(/^192\.0\.2\.10 is not this machine/);
    expect(await resolveMonitor({ url: 'http://127.0.0.1/', monitor: { kind: 'off' } })).toBeNull();
  });

  it("gives every cell of a comparison its target's monitor", () => {
    const plan = comparisonPlanSchema.parse({
      targets: [
        {
          name: 'far',
          urls: { http: 'http://192.0.2.10/' },
          monitor: { kind: 'node-exporter', url: 'http://192.0.2.10:9100/metrics' },
        },
      ],
      load: { model: 'closed', limit: { kind: 'duration', seconds: 1 } },
      levels: [1],
      repetitions: 1,
    });
    expect(expandPlan(plan)[0]!.scenario.targets[0]!.monitor).toEqual({
      kind: 'node-exporter',
      url: 'http://192.0.2.10:9100/metrics',
    });
  });
});

const resources: ServerResources = serverResourcesSchema.parse({
  source: {
    method: 'process',
    found: 'port',
    port: 8080,
    platform: 'linux',
    reader: 'procfs',
    rootPid: 10,
    processes: [
      { pid: 10, name: 'nginx' },
      { pid: 11, name: 'nginx' },
    ],
  },
  minIntervalMs: 1000,
  samples: [
    rs({ seq: 0, elapsedSeconds: 1, cpuPercent: 40, cpuSeconds: 0.4, rssBytes: 2048, processes: 2 }),
    rs({
      seq: 1,
      elapsedSeconds: 2,
      gap: 'the previous reading was still running (slower than the tick)',
      intervalSeconds: 0,
    }),
  ],
  summary: { cpuPercent: { mean: 40, max: 40 }, rssBytes: { mean: 2048, max: 2048 } },
  cpuSeconds: 0.4,
  cpuSecondsPer10kRequests: 0.123,
  gaps: [
    {
      reason: 'the previous reading was still running (slower than the tick)',
      count: 1,
      firstElapsedSeconds: 2,
    },
  ],
  notes: [
    'open files of process 10 (nginx, uid 0) cannot be read by this user (uid 1000): the open-file count is left out',
  ],
  monitorCpuPercent: 0.05,
});

describe('server resources in the exports', () => {
  const result = { ...runResultFixture(), serverResources: resources };

  it('writes one resources CSV row per reading, on the engine time axis', () => {
    const rows = parseCsv<Record<string, string>>(resourcesCsv([{ label: 'nginx', result }]), {
      columns: true,
    });
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      target: 'nginx',
      method: 'process',
      seq: '0',
      'elapsed (s)': '1',
      'CPU (% of a core)': '40',
      'RSS (B)': '2048',
      processes: '2',
      'load 1m': '',
      gap: '',
    });
    expect(rows[1]!.gap).toBe('the previous reading was still running (slower than the tick)');
  });

  it('adds the efficiency figure to the summary CSV and a Server resources block to the text report', () => {
    const rows = parseCsv<Record<string, string>>(summaryCsv([{ label: 'nginx', result }]), {
      columns: true,
    });
    expect(rows[0]).toMatchObject({
      'server monitor': 'process',
      'server cpu mean (% of a core)': '40',
      'server cpu seconds per 10k requests': '0.123',
    });
    const text = formatTextReport(result);
    expect(text).toContain(
      'Server resources:\n  process tree of nginx (pid 10, listening on port 8080): 2 processes seen (nginx), read from /proc on linux\n',
    );
    expect(text).toMatch(/^ {2}CPU \(% of a core\) +40\.0% +40\.0%$/m);
    expect(text).toContain('  server CPU-seconds per 10,000 requests: 0.123\n');
    expect(text).toContain(
      '  gap (1x from 2.0 s): the previous reading was still running (slower than the tick)\n',
    );
    expect(text).toContain('  monitor cost: 0.05% of a core\n');
  });
});
