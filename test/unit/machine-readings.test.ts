/**
 * The machine's readings (issue 32) from counters given to them: the CPU split, whose
 * processes are whose (the generator's tree, the server's tree, kernel threads, the others),
 * children that come and go, the busiest thread, the link; the summary over a run; the
 * monitor's ticks and cost budget over a stand-in reader; and the parsers of /proc and tc.
 */
import { describe, expect, it } from 'vitest';
import {
  cpuShares,
  machineWindow,
  processSeconds,
  treeOf,
  type MachineCounters,
} from '../../shared/machine/readings.ts';
import { summarizeMachine } from '../../shared/machine/summary.ts';
import { commandName, parseProcStat, type MachineReader } from '../../electron/machine/proc-readers.ts';
import { routeDevice4, routeDevice6, shaperRate } from '../../electron/machine/link.ts';
import { startMachineMonitor } from '../../electron/machine/machine-monitor.ts';
import { cpu, proc } from '../helpers/machine-counters.ts';
import { sampleFixture } from '../helpers/run-result.ts';

describe('the machine between two readings', () => {
  it('splits the CPU into busy (steal included), idle, iowait and steal shares of all cores', () => {
    const a = cpu({ user: 10, system: 5, idle: 100 });
    const b = cpu({ user: 11, system: 5.5, idle: 100.3, iowait: 0.1, softirq: 0.05, steal: 0.05 });
    const shares = cpuShares(a, b);
    expect(shares.cpuBusyPercent).toBeCloseTo(80, 9);
    expect(shares.cpuIdlePercent).toBeCloseTo(15, 9);
    expect(shares.cpuIowaitPercent).toBeCloseTo(5, 9);
    expect(shares.cpuStealPercent).toBeCloseTo(2.5, 9);
  });

  it('charges a process with the last moments of children and grandchildren it reaped, never twice', () => {
    // make (10) ran gcc (11), which ran cc1 (12); both exited: cc1's whole life reached make
    // through gcc. Seen before at 3 s and 1 s, they ran 0.5 s more between the readings.
    const prev = new Map([
      [10, proc(1, 1, { name: 'make' })],
      [11, proc(10, 1, { name: 'gcc' })],
      [12, proc(11, 3, { name: 'cc1' })],
    ]);
    const cur = new Map([[10, proc(1, 1.1, { name: 'make', childSeconds: 1.2 + 3.3 })]]);
    expect(processSeconds(prev, cur).get(10)).toBeCloseTo(0.1 + 0.5, 9);
    // A pid reused by a new process is a new process: its whole time, no growth.
    const reused = new Map([[10, proc(1, 0.2, { start: 99 })]]);
    expect(processSeconds(prev, reused).get(10)).toBeCloseTo(0.2, 9);
  });

  it('tells the generator, the server and kernel threads from the others', () => {
    const at = (ms: number, grow: number): MachineCounters => ({
      at: ms,
      cores: 2,
      cpu: cpu({ user: 10 + grow * 1.6, idle: 10 + grow * 0.4 }),
      processes: new Map([
        [500, proc(1, grow * 0.5, { name: 'node' })], // the generator
        [501, proc(500, grow * 0.1, { name: 'trebuchet' })], // its child (a shard)
        [700, proc(1, grow * 0.05, { name: 'nginx' })], // the server's master
        [701, proc(700, grow * 0.4, { name: 'nginx' })], // its worker
        [20, proc(2, grow * 0.05, { name: 'ksoftirqd/0', kernel: true })],
        [900, proc(1, grow * 0.45, { name: 'yes' })],
        [901, proc(1, 0, { name: 'sshd' })],
      ]),
      threads: new Map([
        [500, { name: 'MainThread', seconds: grow * 0.1 }],
        [503, { name: 'engine', seconds: grow * 0.4 }],
      ]),
      selfSeconds: 0,
      link: null,
    });
    const w = machineWindow(at(0, 0), at(1000, 1), { selfPid: 500, serverRoot: 700 });
    expect(w.figures.generatorCpuPercent).toBeCloseTo(60, 9);
    expect(w.figures.otherCpuPercent).toBeCloseTo(45, 9);
    expect(w.figures.otherProcesses?.map((p) => [p.name, p.pid, Number(p.cpuPercent.toFixed(9))])).toEqual([
      ['yes', 900, 45],
    ]);
    expect(w.figures.generatorThread?.name).toBe('engine');
    expect(w.figures.generatorThread?.cpuPercent).toBeCloseTo(40, 9);
    expect(w.figures.cpuBusyPercent).toBeCloseTo(80, 9);
    expect(w.serverInGenerator).toBe(false);
    // A test's own server: its listener is the generator's process, whose tree holds the test runner.
    const inside = machineWindow(at(0, 0), at(1000, 1), { selfPid: 501, serverRoot: 500 });
    expect(inside.serverInGenerator).toBe(true);
    expect(treeOf(700, at(0, 1).processes!)).toEqual(new Set([700, 701]));
  });

  it('reads the link in bits per second', () => {
    const at = (ms: number, rx: number): MachineCounters => ({
      at: ms,
      cores: 1,
      cpu: cpu({ idle: ms / 1000 }),
      processes: null,
      threads: null,
      selfSeconds: ms / 4000,
      link: { rxBytes: rx, txBytes: rx / 100 },
    });
    const w = machineWindow(at(0, 0), at(2000, 5e6), { selfPid: 1, serverRoot: null });
    expect(w.figures.linkInBitsPerSecond).toBe(20e6);
    expect(w.figures.linkOutBitsPerSecond).toBe(0.2e6);
    // Without a process list (os.cpus()), the generator is this process's own CPU and others are unknown.
    expect(w.figures.generatorCpuPercent).toBe(25);
    expect(w.figures.otherCpuPercent).toBeUndefined();
  });
});

describe("a run's machine summary", () => {
  it('weighs each window by its length, leaves the warm-up out, and names the busiest others over the run', () => {
    const sample = (seq: number, interval: number, busy: number, warmup = false) => ({
      seq,
      elapsedSeconds: seq,
      intervalSeconds: interval,
      warmup,
      cores: 2,
      cpuBusyPercent: busy,
      cpuIdlePercent: 100 - busy,
      cpuIowaitPercent: 0,
      cpuStealPercent: 0,
      generatorCpuPercent: busy,
      otherCpuPercent: 10,
    });
    const s = summarizeMachine(
      [sample(1, 1, 100, true), sample(2, 1, 40), sample(3, 1, 60), sample(4, 0.05, 90)],
      {
        others: new Map([
          [9, { name: 'yes', seconds: 0.1 }],
          [8, { name: 'sshd', seconds: 0.001 }],
        ]),
        threads: new Map([[3, { name: 'engine', seconds: 1.5, max: 80 }]]),
        serverInGenerator: false,
      },
      1,
    );
    // The 50 ms tail folds into the window before: (40 + 60 x 1 + 90 x 0.05 ... ) over 2.05 s.
    expect(s.coveredSeconds).toBeCloseTo(2.05, 9);
    expect(s.cpuBusyPercent).toBeCloseTo((40 + 60 + 90 * 0.05) / 2.05, 9);
    expect(s.otherProcesses.map((p) => [p.name, Number(p.cpuPercent.toFixed(2))])).toEqual([
      ['yes', 4.88],
      ['sshd', 0.05],
    ]);
    expect(s.generator?.busiestThread?.name).toBe('engine');
    expect(s.generator?.busiestThread?.cpuPercentMean).toBeCloseTo(73.17, 2);
    expect(s.generator?.busiestThread?.cpuPercentMax).toBe(80);
    expect(s.generator?.saturated).toBe(false);
  });
});

describe('the monitor over a stand-in reader', () => {
  /** A reader whose machine is busy `busy` of 2 cores, reading costing nothing. */
  function reader(): MachineReader & { reads: number } {
    let t = 0;
    const r = {
      reads: 0,
      reader: 'procfs' as const,
      read(): MachineCounters {
        r.reads++;
        t += 1;
        return {
          at: t * 1000,
          cores: 2,
          cpu: cpu({ user: t * 1.5, idle: t * 0.5 }),
          processes: new Map([
            [process.pid, proc(1, t * 0.3)],
            [4242, proc(1, t * 0.9, { name: 'yes' })],
          ]),
          threads: new Map(),
          selfSeconds: 0,
          link: null,
        };
      },
      cut: () => false,
      label: (_pid: number, comm: string) => `${comm} (named)`,
    };
    return r;
  }

  it('reads on the engine ticks at most once an interval, the warm-up apart, and names the others', () => {
    const source = reader();
    const seen: number[] = [];
    const m = startMachineMonitor({
      options: { sampleIntervalMs: 500, warmupSeconds: 1 },
      reader: source,
      roles: () => ({ selfPid: process.pid, serverRoot: null }),
      link: null,
      onSample: (s) => seen.push(s.seq),
    });
    const tick = (seq: number, warmup = false, final = false) =>
      m.tick(
        sampleFixture({
          seq,
          elapsedSeconds: seq / 2,
          intervalSeconds: 0.5,
          warmup,
          ...(final ? { final } : {}),
        }),
      );
    tick(1, true);
    tick(2, true); // the warm-up's last tick: read
    tick(3);
    tick(4); // a second after the last reading
    tick(5);
    tick(6, false, true);
    const { machine, generator } = m.stop();
    expect(seen).toEqual([2, 4, 6]);
    expect(machine.samples.map((s) => s.warmup)).toEqual([true, false, false]);
    expect(machine.otherProcesses.map((p) => [p.name, p.pid, Number(p.cpuPercent.toFixed(6))])).toEqual([
      ['yes (named)', 4242, 90],
    ]);
    expect(machine.cpuBusyPercent).toBeCloseTo(75, 9);
    expect(generator?.cpuPercentMean).toBeCloseTo(30, 9);
    expect(machine.coveredSeconds).toBe(2);
  });
});

describe('the parsers', () => {
  it("reads /proc/stat's machine line and counts the cores", () => {
    const text =
      'cpu  100 5 50 800 10 0 5 20 0 0\ncpu0 50 2 25 400 5 0 2 10 0 0\ncpu1 50 3 25 400 5 0 3 10 0 0\nintr 1\n';
    expect(parseProcStat(text, 100)).toEqual({
      cpu: { user: 1, nice: 0.05, system: 0.5, idle: 8, iowait: 0.1, irq: 0, softirq: 0.05, steal: 0.2 },
      cores: 2,
    });
  });

  it('names a process as a person knows it', () => {
    expect(commandName('yes\0', 'yes')).toBe('yes');
    expect(
      commandName('/usr/bin/node\0--require\0/x/warn.cjs\0/w/node_modules/.bin/tsc\0-p\0x\0', 'MainThread'),
    ).toBe('node tsc');
    expect(commandName('nginx: worker process\0', 'nginx')).toBe('nginx: worker process');
    expect(commandName('', 'kworker/0:1')).toBe('kworker/0:1');
  });

  it('finds the route device by longest prefix and metric, v4 and v6', () => {
    const v4 = [
      'Iface\tDestination\tGateway\tFlags\tRefCnt\tUse\tMetric\tMask\tMTU\tWindow\tIRTT',
      'eth0\t00000000\t0102A8C0\t0003\t0\t0\t100\t00000000\t0\t0\t0',
      'veth0\t00004D0A\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0',
      'eth1\t00004D0A\t00000000\t0001\t0\t0\t0\t0000FFFF\t0\t0\t0',
    ].join('\n');
    expect(routeDevice4(v4, '10.77.0.2')).toBe('veth0');
    expect(routeDevice4(v4, '10.77.9.2')).toBe('eth1');
    expect(routeDevice4(v4, '8.8.8.8')).toBe('eth0');
    const v6 = [
      'fd000000000000000000000000000000 08 00000000000000000000000000000000 00 00000000000000000000000000000000 00000100 00000001 00000000 00000001     veth0',
      '00000000000000000000000000000000 00 00000000000000000000000000000000 00 fe800000000000000000000000000001 00000400 00000001 00000000 00000003      eth0',
    ].join('\n');
    expect(routeDevice6(v6, 'fd00::2')).toBe('veth0');
    expect(routeDevice6(v6, '2001:db8::1')).toBe('eth0');
  });

  it("reads a shaper's rate from tc's JSON (bytes per second) as bits", () => {
    expect(
      shaperRate('[{"kind":"tbf","handle":"8001:","root":true,"options":{"rate":2500000,"burst":4095}}]'),
    ).toBe(20e6);
    expect(shaperRate('[{"kind":"noqueue","options":{}}]')).toBeNull();
    expect(shaperRate('not json')).toBeNull();
  });
});
