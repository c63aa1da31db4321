/**
 * A run's Machine block, one model for the text report, the screen and the HTML report: what
 * was read and how, the machine's CPU, the other processes with the busiest named, the link,
 * the notes and the readings' own cost; and the generator's whole process beside its engine
 * workers' CPU.
 */
import type { GeneratorProcess, MachineFacts, MachineSample } from '../../model/machine-facts.ts';
import { bitsText, fixed } from '../../figures/units.ts';
import { otherProcessesText } from '../../machine/readings.ts';

const pct = (v: number): string => `${fixed(v, 1)}%`;

/** "2 cores, read from /proc on linux (every process's CPU)" */
export function describeMachine(m: MachineFacts): string {
  const how =
    m.reader === 'procfs'
      ? `read from /proc on ${m.platform} (every process's CPU)`
      : `read from the OS's per-core times on ${m.platform} (no process list)`;
  return `${m.cores} core${m.cores === 1 ? '' : 's'}, ${how}`;
}

export interface MachineRow {
  /** A stable key for tests and the screen (data-figure). */
  key: 'busy' | 'idle' | 'others' | 'named' | 'link';
  label: string;
  value: string;
}

/** The rows of the block, over the measured readings. */
export function machineRows(m: MachineFacts): MachineRow[] {
  const rows: MachineRow[] = [
    {
      key: 'busy',
      label: 'CPU busy (% of all cores)',
      value: `${pct(m.cpuBusyPercent)} (max ${pct(m.cpuBusyPercentMax)})`,
    },
    {
      key: 'idle',
      label: 'idle, iowait, steal',
      value: `${pct(m.cpuIdlePercent)}, ${pct(m.cpuIowaitPercent)}, ${pct(m.cpuStealPercent)}`,
    },
  ];
  if (m.otherCpuPercent !== null) {
    rows.push({ key: 'others', label: 'other processes (% of a core)', value: pct(m.otherCpuPercent) });
    rows.push({
      key: 'named',
      label: 'busiest other processes',
      value: m.otherProcesses.length > 0 ? otherProcessesText(m.otherProcesses) : 'none used the CPU',
    });
  }
  if (m.link) {
    const l = m.link;
    rows.push({
      key: 'link',
      label: `link ${l.device} (${bitsText(l.bitsPerSecond)}, ${l.from === 'shaper' ? 'its shaper' : 'its speed'})`,
      value: `${bitsText(l.inBitsPerSecond)} in, ${bitsText(l.outBitsPerSecond)} out`,
    });
  }
  return rows;
}

/** "whole process 26% of a core (max 31%), busiest thread engine 20%" */
export function generatorProcessText(p: GeneratorProcess): string {
  const thread = p.busiestThread
    ? `, busiest thread ${p.busiestThread.name} ${fixed(p.busiestThread.cpuPercentMean, 0)}%`
    : '';
  return `whole process ${fixed(p.cpuPercentMean, 0)}% of a core (max ${fixed(p.cpuPercentMax, 0)}%)${thread}${p.saturated ? ' (flat out)' : ''}`;
}

/** The text report's "Machine" block. */
export function formatMachine(m: MachineFacts): string {
  const rows = machineRows(m);
  const width = Math.max(...rows.map((r) => r.label.length));
  const lines = [
    'Machine:',
    `  ${describeMachine(m)}`,
    ...rows.map((r) => `  ${r.label.padEnd(width)}  ${r.value}`),
    ...m.notes.map((n) => `  note: ${n}`),
  ];
  if (m.monitorCpuPercent !== null)
    lines.push(`  readings' cost: ${fixed(m.monitorCpuPercent, 2)}% of a core`);
  return lines.join('\n') + '\n';
}

/** What the live Machine panel says of a reading's other processes. */
export function liveOthersText(s: MachineSample): string {
  if (s.gap !== undefined) return `no reading: ${s.gap}`;
  if (s.otherProcesses && s.otherProcesses.length > 0)
    return `busiest other processes: ${otherProcessesText(s.otherProcesses)}`;
  // A light reading's window: the others' CPU is a remainder, too little to read them one by one.
  if (s.otherProcesses === undefined && s.otherCpuPercent !== undefined)
    return 'other processes too light to name';
  return 'no other process used the CPU';
}
