/**
 * Results that name what limited their figures, as the machine's and the server's readings
 * make them (issue 32): a machine busy with other processes, one with no idle CPU left, a
 * server held by one worker, a p99 made of TLS handshakes, a full link, a closed run with
 * nothing flat, and a generator whose whole process ran flat. Each is a clean run's figures
 * with the readings that change its verdict, so each word is the only reason it has.
 */
import type { MachineFacts, MachineSample } from '../../shared/model/machine-facts.ts';
import type { PhaseStats, RunResult } from '../../shared/model/result.ts';
import type { ServerResources } from '../../shared/model/server-resources.ts';
import { amendResult, runResultFixture } from './run-result.ts';

/** A closed run of 10 connections, every one of 36,000 answers a 200. */
export function cleanClosedRun(): RunResult {
  return amendResult(runResultFixture(), {
    requests: { ok: 36_000, non2xx: 0 },
    statusCodes: { '200': 36_000 },
    successRatio: 1,
  });
}

/** One machine reading of a run's readings (a 1 s window). */
export function machineSample(over: Partial<MachineSample> = {}): MachineSample {
  return {
    seq: 1,
    elapsedSeconds: 1,
    intervalSeconds: 1,
    warmup: false,
    cores: 2,
    cpuBusyPercent: 40,
    cpuIdlePercent: 60,
    cpuIowaitPercent: 0,
    cpuStealPercent: 0,
    generatorCpuPercent: 40,
    generatorThread: { name: 'engine', cpuPercent: 35 },
    otherCpuPercent: 2,
    otherProcesses: [{ name: 'sshd', pid: 801, cpuPercent: 2 }],
    ...over,
  };
}

/** A 2-core machine over 3 s: 60 % idle, other processes 2 % of a core. */
export function machineFacts(over: Partial<MachineFacts> = {}): MachineFacts {
  return {
    reader: 'procfs',
    platform: 'linux',
    cores: 2,
    minIntervalMs: 1000,
    samples: [1, 2, 3].map((seq) => machineSample({ seq, elapsedSeconds: seq })),
    coveredSeconds: 3,
    cpuBusyPercent: 40,
    cpuBusyPercentMax: 44,
    cpuIdlePercent: 60,
    cpuIowaitPercent: 0,
    cpuStealPercent: 0,
    otherCpuPercent: 2,
    otherProcesses: [{ name: 'sshd', pid: 801, cpuPercent: 2 }],
    serverInGenerator: false,
    notes: [],
    monitorCpuPercent: 0.2,
    ...over,
  };
}

/** nginx's process tree over the run: `busiest` % of a core in its busiest of `count` workers. */
export function serverWith(busiest: number, count = 2, busy = busiest > 90 ? 1 : 0): ServerResources {
  return {
    source: {
      method: 'process',
      found: 'port',
      port: 8080,
      platform: 'linux',
      reader: 'procfs',
      rootPid: 700,
      processes: [
        { pid: 700, name: 'nginx' },
        ...Array.from({ length: count }, (_, i) => ({ pid: 701 + i, name: 'nginx' })),
      ],
    },
    minIntervalMs: 1000,
    samples: [],
    summary: { cpuPercent: { mean: busiest + 5, max: busiest + 8 } },
    cpuSeconds: 3,
    cpuSecondsPer10kRequests: 0.8,
    workers: {
      count,
      busy,
      busiest: { pid: 701, name: 'nginx', cpuPercentMean: busiest, cpuPercentMax: busiest + 1 },
    },
    gaps: [],
    notes: [],
    monitorCpuPercent: 0.1,
  };
}

/** The generator's whole process at `mean` % of a core, its engine thread the busiest. */
function generatorProcess(mean: number, thread = mean - 5) {
  return {
    cpuPercentMean: mean,
    cpuPercentMax: mean + 3,
    busiestThread: { name: 'engine', cpuPercentMean: thread, cpuPercentMax: thread + 3 },
    saturated: mean > 180 || thread > 90,
  };
}

const phase = (p99: number): PhaseStats => ({
  min: 0,
  mean: p99 / 4,
  stdev: p99 / 8,
  median: p99 / 5,
  max: p99 * 1.2,
  percentiles: { '50': p99 / 5, '99': p99 },
});

/** Each word that names what limited a run, and the run that earns it. */
export const LIMITED_RUNS = {
  /** Two `yes` hogs took both cores: other processes 190 % of a core. */
  'machine-busy': (): RunResult => ({
    ...cleanClosedRun(),
    serverResources: serverWith(45),
    generator: { ...cleanClosedRun().generator, process: generatorProcess(30) },
    machine: machineFacts({
      cpuBusyPercent: 100,
      cpuIdlePercent: 0,
      otherCpuPercent: 190,
      otherProcesses: [
        { name: 'yes', pid: 4242, cpuPercent: 96 },
        { name: 'yes', pid: 4243, cpuPercent: 94 },
      ],
    }),
  }),
  /** nginx with one worker: it ran at 99 % of a core while 0.7 of the 2 cores stayed idle. */
  'server-worker-bound': (): RunResult => ({
    ...cleanClosedRun(),
    serverResources: serverWith(99, 1, 1),
    generator: { ...cleanClosedRun().generator, process: generatorProcess(30) },
    machine: machineFacts({ cpuBusyPercent: 65, cpuIdlePercent: 35 }),
  }),
  /** 1,000 https connections: p99 1.52 s, of which the request itself 42 ms. */
  'setup-bound': (): RunResult => ({
    ...cleanClosedRun(),
    phases: { setup: phase(1310), processing: phase(42), total: phase(1520) },
  }),
  /** A 20 Mb/s shaper on the veth to a server in a network namespace, 19.6 Mb/s received. */
  'link-bound': (): RunResult => ({
    ...cleanClosedRun(),
    machine: machineFacts({
      link: {
        device: 'veth-trb0',
        bitsPerSecond: 20e6,
        from: 'shaper',
        inBitsPerSecond: 19.6e6,
        outBitsPerSecond: 0.8e6,
      },
    }),
  }),
  /** The generator's whole process at 196 % of the 2 cores (its engine thread 92 %). */
  'client-bound': (): RunResult => ({
    ...cleanClosedRun(),
    serverResources: serverWith(40),
    generator: { ...cleanClosedRun().generator, process: generatorProcess(196, 92) },
    machine: machineFacts({ cpuBusyPercent: 99, cpuIdlePercent: 1, otherCpuPercent: 1 }),
  }),
} as const;

/**
 * A closed run of 10 connections where nothing was flat on a machine with room: clean, with
 * the closed model's note. Its 12,000 req/s are 10 connections over its 0.83 ms mean latency.
 */
export function closedModelRun(): RunResult {
  const run = cleanClosedRun();
  return {
    ...run,
    latency: { ...run.latency!, mean: 0.83 },
    serverResources: serverWith(35),
    generator: { ...cleanClosedRun().generator, process: generatorProcess(40) },
    machine: machineFacts(),
  };
}
