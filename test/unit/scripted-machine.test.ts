/**
 * The scripted machine of the browser tests (test/helpers/scripted-machine.ts): its counters
 * give the script's shares exactly in any window of its clock, read by the product's own
 * machine window and monitor; a reading on an unchanged clock still covers time; a script
 * that cannot be is refused.
 */
import { describe, expect, it } from 'vitest';
import { machineWindow } from '../../shared/machine/readings.ts';
import { startMachineMonitor } from '../../electron/machine/machine-monitor.ts';
import {
  ENGINE_THREAD,
  MIN_READING_MS,
  scriptedMachine,
  type MachineScript,
} from '../helpers/scripted-machine.ts';
import { sampleFixture } from '../helpers/run-result.ts';

const HOGS: MachineScript = {
  processes: [
    { pid: 500, name: 'nginx', cpuPercent: 0 },
    { pid: 501, name: 'nginx', cpuPercent: 5, ppid: 500 },
    { pid: 424_242, name: 'yes', cpuPercent: 90 },
    { pid: 424_243, name: 'yes', cpuPercent: 90 },
  ],
};
const roles = { selfPid: process.pid, serverRoot: 500 };
const near = (v: number | undefined): number => Number(v?.toFixed(9));

describe('scriptedMachine', () => {
  it('reads the script’s shares in a window of its clock, whatever its length', () => {
    let now = 0;
    const reader = scriptedMachine(HOGS, () => now);
    const base = reader.read(null);
    for (const ms of [1000, 250, 7000]) {
      now += ms;
      const cur = reader.read(null);
      const w = machineWindow(base, cur, roles).figures;
      expect(w.intervalSeconds).toBe(now / 1000);
      expect([w.cores, near(w.cpuBusyPercent), near(w.cpuIdlePercent)]).toEqual([2, 100, 0]);
      // The generator (this process, 15 %) and the server's tree (5 %) are not "others".
      expect(near(w.generatorCpuPercent)).toBe(15);
      expect(near(w.otherCpuPercent)).toBe(180);
      expect(w.otherProcesses?.map((p) => [p.name, p.pid, near(p.cpuPercent)])).toEqual([
        ['yes', 424_242, 90],
        ['yes', 424_243, 90],
      ]);
      expect(w.generatorThread?.name).toBe(ENGINE_THREAD);
    }
  });

  it('idles what its processes leave of the cores, and labels a process by its comm', () => {
    let now = 0;
    const reader = scriptedMachine(
      { cores: 4, generatorPercent: 20, processes: [{ pid: 7, name: 'sshd', cpuPercent: 2 }] },
      () => now,
    );
    const base = reader.read(null);
    now = 2000;
    const w = machineWindow(base, reader.read(null), { selfPid: process.pid, serverRoot: null }).figures;
    expect([near(w.cpuBusyPercent), near(w.cpuIdlePercent), near(w.otherCpuPercent)]).toEqual([5.5, 94.5, 2]);
    expect(reader.label(7, 'sshd')).toBe('sshd');
    expect([reader.reader, reader.cut()]).toEqual(['procfs', false]);
  });

  it('moves its clock on by MIN_READING_MS when read again at the same time', () => {
    const reader = scriptedMachine(HOGS, () => 5000);
    const a = reader.read(null);
    const b = reader.read(null);
    expect(b.at - a.at).toBe(MIN_READING_MS);
    expect(near(machineWindow(a, b, roles).figures.cpuBusyPercent)).toBe(100);
  });

  it('gives the machine monitor a reading per tick on the run’s time, and its summary', () => {
    let now = 0;
    const monitor = startMachineMonitor({
      options: { sampleIntervalMs: 1000, warmupSeconds: 0 },
      reader: scriptedMachine(HOGS, () => now),
      roles: () => roles,
      link: null,
    });
    for (const [seq, elapsedSeconds, final] of [
      [1, 1, false],
      [2, 2, false],
      [2, 2, true],
    ] as const) {
      now = elapsedSeconds * 1000;
      monitor.tick(sampleFixture({ seq, elapsedSeconds, final }));
    }
    const { machine } = monitor.stop();
    expect(machine.samples.map((s) => [s.elapsedSeconds, s.intervalSeconds])).toEqual([
      [1, 1],
      [2, 1],
      [2, MIN_READING_MS / 1000],
    ]);
    expect([near(machine.cpuBusyPercent), near(machine.otherCpuPercent ?? undefined)]).toEqual([100, 180]);
    expect(machine.otherProcesses.map((p) => p.pid)).toEqual([424_242, 424_243]);
  });

  it('refuses a pid listed twice and processes that need more than its cores', () => {
    const clock = () => 0;
    expect(() =>
      scriptedMachine({ processes: [{ pid: process.pid, name: 'x', cpuPercent: 1 }] }, clock),
    ).toThrow(/pid twice/);
    expect(() =>
      scriptedMachine({ cores: 1, processes: [{ pid: 9, name: 'yes', cpuPercent: 90 }] }, clock),
    ).toThrow(/use 1.05 cores of its 1/);
  });
});
