import { VERDICT } from '../model/defaults.ts';
import { treeOf, type MachineRoles, type MachineWindow, type ProcessTimes } from './readings.ts';

/*
 * When the machine monitor reads every process, and when a light reading does (issue 38 item
 * 4: reading every /proc/<pid>/stat, 106 processes here, cost the CLI's main thread 3.9-4.1 ms
 * of CPU a tick, the largest part of its CPU during a run). A light reading reads /proc/stat
 * and only the generator's and the server's processes; the others' CPU is then the machine's
 * busy time less theirs (readings.ts, machineWindow). The others are read one by one, to name
 * them, only when that remainder may pass the busy verdict's share. Pure.
 */

/** The /proc/stat fields the remainder sums: user, nice, system, irq and softirq. */
const MACHINE_FIELDS = 5;
/** The fields each counted process's time sums: user and system. */
const PROCESS_FIELDS = 2;

/**
 * The processes a light reading asks for, from a reading of every process: the generator's
 * tree and the server's (its own root too, even when that reading missed it). A child either
 * starts later is not asked: its CPU lands in the remainder, which then reads more, never less.
 */
export function askedPids(processes: ReadonlyMap<number, ProcessTimes>, roles: MachineRoles): Set<number> {
  const out = treeOf(roles.selfPid, processes);
  out.add(roles.selfPid);
  if (roles.serverRoot !== null) {
    for (const pid of treeOf(roles.serverRoot, processes)) out.add(pid);
    out.add(roles.serverRoot);
  }
  return out;
}

/**
 * Whether a light window's others may have taken more than VERDICT.machineOtherPercent of
 * the machine's cores, so that its processes must be read to name them. Every counter the
 * remainder is made of is cut to whole clock ticks (`tickSeconds`, 10 ms at USER_HZ 100): each
 * of /proc/stat's machine fields (summed over the cores before it is cut) and each counted
 * process's user and system time can each read up to one tick short or long between two
 * readings. So the others may have used (MACHINE_FIELDS + PROCESS_FIELDS x `counted`) ticks
 * more than the remainder says: the processes are read once the remainder is within that of
 * the threshold (on 2 cores over 1 s with 3 processes counted, 11 ticks: read above 4.5 % of
 * the cores rather than 10 %).
 */
export function othersMayBeBusy(
  w: Pick<MachineWindow['figures'], 'intervalSeconds' | 'cores' | 'otherCpuPercent'>,
  counted: number,
  tickSeconds: number,
): boolean {
  if (w.otherCpuPercent === undefined) return false;
  const remainder = (w.otherCpuPercent / 100) * w.intervalSeconds;
  const margin = (MACHINE_FIELDS + PROCESS_FIELDS * counted) * tickSeconds;
  return remainder + margin > (VERDICT.machineOtherPercent / 100) * w.cores * w.intervalSeconds;
}
