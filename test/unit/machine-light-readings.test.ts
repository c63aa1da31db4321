/**
 * The machine monitor's light readings (issue 38 item 4): on a quiet machine it reads only
 * /proc/stat and the generator's and the server's processes, the others' CPU being the rest
 * of the machine's busy time; it reads every process (counted by the scripted reader) only
 * when that rest may pass the busy verdict's share, and at the run's edges; a run's busiest
 * others are still named over the whole run, light stretches included.
 */
import { describe, expect, it } from 'vitest';
import { VERDICT } from '../../shared/model/defaults.ts';
import { askedPids, othersMayBeBusy } from '../../shared/machine/light-readings.ts';
import { machineWindow, type MachineCounters, type ProcessTimes } from '../../shared/machine/readings.ts';
import { startMachineMonitor, type MachineOutcome } from '../../electron/machine/machine-monitor.ts';
import { liveOthersText } from '../../shared/format/machine/machine-table.ts';
import { scriptedMachine, type ScriptedProcess } from '../helpers/scripted-machine.ts';
import { cpu, proc } from '../helpers/machine-counters.ts';
import { sampleFixture } from '../helpers/run-result.ts';

const SERVER_ROOT = 500;
const SERVER: ScriptedProcess[] = [
  { pid: SERVER_ROOT, name: 'nginx', cpuPercent: 0 },
  { pid: SERVER_ROOT + 1, name: 'nginx', cpuPercent: 5, ppid: SERVER_ROOT },
];
const SSHD: ScriptedProcess = { pid: 700, name: 'sshd', cpuPercent: 2 };
const roles = { selfPid: process.pid, serverRoot: SERVER_ROOT };
const near = (v: number | undefined): number => Number(v?.toFixed(9));

/** A run of one tick a second for `seconds` on a scripted machine (the generator at 15 %), the last tick final. */
function run(
  processes: ScriptedProcess[],
  seconds: number,
  warmupSeconds = 0,
): { outcome: MachineOutcome; reads: { full: number; light: number } } {
  let now = 0;
  const reader = scriptedMachine({ processes }, () => now);
  const monitor = startMachineMonitor({
    options: { sampleIntervalMs: 1000, warmupSeconds },
    reader,
    roles: () => roles,
    link: null,
  });
  for (let s = 1; s <= seconds; s++) {
    now = s * 1000;
    monitor.tick(
      sampleFixture({ seq: s, elapsedSeconds: s, warmup: s <= warmupSeconds, final: s === seconds }),
    );
  }
  return { outcome: monitor.stop(), reads: reader.reads() };
}

const others = (o: MachineOutcome) =>
  o.machine.samples.map((s) => [
    near(s.otherCpuPercent),
    s.otherProcesses?.map((p) => [p.name, near(p.cpuPercent)]) ?? 'light',
  ]);

describe('the machine monitor on a quiet machine', () => {
  it('reads every process only at the run’s edges, and names the quiet others over the run', () => {
    const { outcome, reads } = run([...SERVER, SSHD], 10, 2);
    // The baseline, both warm-up readings and the last: the 7 readings between are light.
    expect(reads).toEqual({ full: 4, light: 7 });
    const read = others(outcome);
    expect(read.slice(0, 2)).toEqual([
      [2, [['sshd', 2]]],
      [2, [['sshd', 2]]],
    ]);
    // Light: the machine's busy 22 % of a core less the generator's 15 and the server's 5.
    for (const r of read.slice(2, 9)) expect(r).toEqual([2, 'light']);
    expect(read[9]).toEqual([2, 'light']);
    const m = outcome.machine;
    expect([m.coveredSeconds, near(m.otherCpuPercent ?? undefined)]).toEqual([8, 2]);
    // The others' CPU added up from the warm-up's end to the last reading of every process.
    expect(m.otherProcesses.map((p) => [p.name, p.pid, near(p.cpuPercent)])).toEqual([['sshd', 700, 2]]);
    expect(near(outcome.generator?.cpuPercentMean)).toBe(15);
    // The live panel says a light window's others were not named, not that there were none.
    expect(m.samples.slice(1, 3).map(liveOthersText)).toEqual([
      'busiest other processes: sshd (pid 700) 2.0%',
      'other processes too light to name',
    ]);
    const { otherCpuPercent: _, ...unlisted } = m.samples[2]!;
    expect(liveOthersText(unlisted)).toBe('no other process used the CPU');
  });
});

describe('the machine monitor when the server’s root becomes known', () => {
  it('reads every process then, to know its tree, and counts its CPU as the server’s after', () => {
    let now = 0;
    let serverRoot: number | null = null;
    const reader = scriptedMachine({ processes: [...SERVER, SSHD] }, () => now);
    const monitor = startMachineMonitor({
      options: { sampleIntervalMs: 1000, warmupSeconds: 0 },
      reader,
      roles: () => ({ selfPid: process.pid, serverRoot }),
      link: null,
    });
    for (let s = 1; s <= 5; s++) {
      now = s * 1000;
      // The server monitor finds its root after the second tick.
      if (s === 3) serverRoot = SERVER_ROOT;
      monitor.tick(sampleFixture({ seq: s, elapsedSeconds: s, final: s === 5 }));
    }
    const outcome = monitor.stop();
    // Every process: the baseline, the first, the third (the root new) and the last; light: the second and fourth.
    expect(reader.reads()).toEqual({ full: 4, light: 2 });
    // nginx's 5 % is among the others until its root is known, and in the window it became
    // known (the light reading before it had not read nginx: that window is a remainder).
    expect(others(outcome)).toEqual([
      [
        7,
        [
          ['nginx', 5],
          ['sshd', 2],
        ],
      ],
      [7, 'light'],
      [7, 'light'],
      [2, 'light'],
      [2, 'light'],
    ]);
    // Over the run: nginx in the first window only (0.05 of 5 CPU-s); the stretch after it is
    // added up with the roles known at the reading that closed it.
    expect(outcome.machine.otherProcesses.map((p) => [p.name, p.pid, near(p.cpuPercent)])).toEqual([
      ['sshd', 700, 2],
      ['nginx', SERVER_ROOT + 1, 1],
    ]);
  });
});

describe('the machine monitor on a busy machine', () => {
  it('reads every process each reading, once, and names the hog in each window', () => {
    const hog: ScriptedProcess = { pid: 4242, name: 'yes', cpuPercent: 90 };
    const { outcome, reads } = run([...SERVER, SSHD, hog], 5);
    // The baseline and all 5 readings; none light (the first is read whole, and each after a busy window).
    expect(reads).toEqual({ full: 6, light: 0 });
    for (const r of others(outcome)) {
      expect(r).toEqual([
        92,
        [
          ['yes', 90],
          ['sshd', 2],
        ],
      ]);
    }
    expect(outcome.machine.otherProcesses.map((p) => [p.name, near(p.cpuPercent)])).toEqual([
      ['yes', 90],
      ['sshd', 2],
    ]);
  });

  it('from quiet to busy to quiet: light, then every process from the first busy window, then light', () => {
    // A hog from 3 s to 6 s of a 10 s run.
    const hog: ScriptedProcess = { pid: 4242, name: 'yes', cpuPercent: 90, during: [3000, 6000] };
    const { outcome, reads } = run([...SERVER, SSHD, hog], 10);
    // Every process: the baseline, the first reading, the three busy ones, the one after them
    // (the last busy window calls for it) and the last. Light: readings 2 and 3, 4 (whose rest
    // called for every process at once), 8 and 9.
    expect(reads).toEqual({ full: 7, light: 5 });
    expect(others(outcome)).toEqual([
      [2, [['sshd', 2]]],
      [2, 'light'],
      [2, 'light'],
      // The first busy window follows a light reading: its rest, no one named yet.
      [92, 'light'],
      [
        92,
        [
          ['yes', 90],
          ['sshd', 2],
        ],
      ],
      [
        92,
        [
          ['yes', 90],
          ['sshd', 2],
        ],
      ],
      [2, [['sshd', 2]]],
      [2, 'light'],
      [2, 'light'],
      [2, 'light'],
    ]);
    const m = outcome.machine;
    expect(near(m.otherCpuPercent ?? undefined)).toBe((7 * 2 + 3 * 92) / 10);
    // Over the run, light windows included: the hog's 2.7 CPU-s of 10 s, sshd's 0.2.
    expect(m.otherProcesses.map((p) => [p.name, p.pid, near(p.cpuPercent)])).toEqual([
      ['yes', 4242, 27],
      ['sshd', 700, 2],
    ]);
    expect((m.otherCpuPercent ?? 0) / m.cores).toBeGreaterThan(VERDICT.machineOtherPercent);
  });
});

describe('a light window', () => {
  it('counts as others what the machine was busy with less the generator’s and the server’s, steal apart', () => {
    const at = (
      ms: number,
      grow: number,
      processes: [number, ProcessTimes][],
      only?: number[],
    ): MachineCounters => ({
      at: ms,
      cores: 2,
      // user, system, softirq: 1.2 of a core busy; steal 0.2 is another guest's.
      cpu: cpu({
        user: grow * 0.8,
        system: grow * 0.3,
        softirq: grow * 0.1,
        steal: grow * 0.2,
        idle: grow * 0.6,
      }),
      processes: new Map(processes),
      threads: null,
      selfSeconds: 0,
      link: null,
      ...(only ? { only: new Set(only) } : {}),
    });
    const full = at(0, 0, [
      [10, proc(1, 0)],
      [20, proc(1, 0)],
      [21, proc(20, 0)],
      [900, proc(1, 0)],
    ]);
    // The server's worker 21 exited: it is no longer there to count, its time the rest's.
    const light = at(
      1000,
      1,
      [
        [10, proc(1, 0.5)],
        [20, proc(1, 0.1)],
      ],
      [10, 20, 21],
    );
    const w = machineWindow(full, light, { selfPid: 10, serverRoot: 20 }).figures;
    expect([near(w.generatorCpuPercent), near(w.otherCpuPercent), w.otherProcesses]).toEqual([
      50,
      60,
      undefined,
    ]);
    expect(near(w.cpuBusyPercent)).toBe(70);
  });

  it('calls for every process near the busy share, by the ticks its counters are cut to', () => {
    // 2 cores over 1 s: busy above 0.2 CPU-s; 3 processes counted: (5 + 2 x 3) ticks of 10 ms below it.
    const w = (otherCpuPercent: number) => ({ intervalSeconds: 1, cores: 2, otherCpuPercent });
    expect(othersMayBeBusy(w(8.9), 3, 0.01)).toBe(false);
    expect(othersMayBeBusy(w(9.1), 3, 0.01)).toBe(true);
    // Where no process was counted, nearer the share; and without a process list, never.
    expect(othersMayBeBusy(w(14.9), 0, 0.01)).toBe(false);
    expect(othersMayBeBusy(w(15.1), 0, 0.01)).toBe(true);
    expect(othersMayBeBusy({ intervalSeconds: 1, cores: 2 }, 3, 0.01)).toBe(false);
  });

  it('asks for the generator’s and the server’s trees', () => {
    const list = new Map([
      [10, proc(1, 0)],
      [11, proc(10, 0)],
      [20, proc(1, 0)],
      [21, proc(20, 0)],
      [22, proc(21, 0)],
      [900, proc(1, 0)],
    ]);
    expect([...askedPids(list, { selfPid: 10, serverRoot: 20 })].sort((a, b) => a - b)).toEqual([
      10, 11, 20, 21, 22,
    ]);
    // A server root the reading missed (it had not started) is asked for all the same.
    expect([...askedPids(list, { selfPid: 10, serverRoot: 30 })].sort((a, b) => a - b)).toEqual([10, 11, 30]);
  });
});
