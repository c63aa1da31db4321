import { z } from 'zod';
import { DEFAULTS } from '../../shared/model/defaults.ts';
import type { MachineSample } from '../../shared/model/machine-facts.ts';
import type { RunResult } from '../../shared/model/result.ts';
import { routeOf } from '../../shared/model/route.ts';
import type { RunOptions, Target } from '../../shared/model/scenario.ts';
import type { CpuAccount } from '../engine/cpu.ts';
import { familyRoot } from '../monitor/procfs.ts';
import { isThisMachine } from '../monitor/resolve.ts';
import { tcpListener } from '../monitor/tcp-listener.ts';
import { unixSocketListener } from '../monitor/unix-socket-owner.ts';
import { findLink, type LinkPlan } from './link.ts';
import { startMachineMonitor, type MachineMonitor, type MachineOutcome } from './machine-monitor.ts';
import { machineReader, type MachineReader } from './proc-readers.ts';

/*
 * A part's machine readings as target-run.ts starts them: what is known before the load (the
 * link to a target past this machine, the server's process when its monitor does not watch
 * it), then the baseline reading just before the engine starts, then one reading per tick.
 */

/**
 * Whether this host reads the machine: TREBUCHET_MACHINE=off leaves it unread (results carry
 * no machine facts, and their verdicts do not judge it): for a test suite on a shared machine
 * whose tests are not about the machine, so their verdicts do not follow others' load. A value
 * other than on or off reads it, and says so.
 */
export function machineSetting(env: NodeJS.ProcessEnv = process.env): { read: boolean; note: string | null } {
  const parsed = z.enum(['on', 'off']).optional().safeParse(env.TREBUCHET_MACHINE);
  if (parsed.success) return { read: parsed.data !== 'off', note: null };
  return {
    read: true,
    note: `TREBUCHET_MACHINE=${String(env.TREBUCHET_MACHINE).slice(0, 40)} is neither on nor off: the machine is read`,
  };
}

/** What the machine's readings need to know of a target before its load. */
export interface MachinePlan {
  link: LinkPlan | null;
  /** What must be known to read the figures: why the link is not judged, what the setting said. */
  notes: string[];
  /** The server's process tree root on this machine when its monitor is not watching it (monitor off). */
  serverRoot: number | null;
}

/** The process serving a target on this machine, by its socket (what the server monitor's 'auto' finds). */
function listenerRoot(
  target: Pick<Target, 'url' | 'connectTo' | 'unixSocket'>,
  local: boolean,
): number | null {
  const route = routeOf(target);
  const found =
    route.kind === 'unix'
      ? unixSocketListener(route.path)
      : local
        ? tcpListener(route.port, route.host.replace(/^\[|\]$/g, ''))
        : null;
  return found?.ok ? familyRoot(found.pid) : null;
}

/**
 * Resolves the link or the server's process, before the load (never fails: what is not known
 * is said); null when the machine is not read (machineSetting).
 */
export async function planMachine(
  target: Pick<Target, 'url' | 'connectTo' | 'unixSocket'>,
  serverWatched: boolean,
): Promise<MachinePlan | null> {
  const setting = machineSetting();
  if (!setting.read) return null;
  const notes = setting.note ? [setting.note] : [];
  const route = routeOf(target);
  if (route.kind === 'unix') {
    return { link: null, notes, serverRoot: serverWatched ? null : listenerRoot(target, true) };
  }
  const local = await isThisMachine(route.host);
  const serverRoot = serverWatched ? null : listenerRoot(target, local);
  if (local) return { link: null, notes, serverRoot };
  const found = await findLink(route.host);
  return 'link' in found
    ? { link: found.link, notes, serverRoot }
    : { link: null, notes: [...notes, found.note], serverRoot };
}

export interface MachineStart {
  plan: MachinePlan;
  options: Pick<RunOptions, 'sampleIntervalMs' | 'warmupSeconds'>;
  /** The server monitor's process tree root, once it is watching one. */
  serverRoot: () => number | null;
  onSample: (sample: MachineSample) => void;
  cpu?: CpuAccount;
  /** The counters' source: the OS's (tests give a stand-in). */
  reader?: MachineReader;
}

/** Takes the baseline reading: call it just before the engine starts. */
export function startMachine(start: MachineStart): MachineMonitor {
  return startMachineMonitor({
    options: start.options,
    reader: start.reader ?? machineReader(DEFAULTS.machine.maxProcesses),
    roles: () => ({ selfPid: process.pid, serverRoot: start.serverRoot() ?? start.plan.serverRoot }),
    link: start.plan.link,
    notes: start.plan.notes,
    onSample: start.onSample,
    ...(start.cpu ? { cpu: start.cpu } : {}),
  });
}

/**
 * The result with the machine's readings: the machine's facts, and the generator's whole
 * process beside its engine's figures. A run that sent no load has none (idle readings beside
 * zero requests would only look like a result).
 */
export function withMachine(result: RunResult, outcome: MachineOutcome | null): RunResult {
  if (!outcome || (result.status === 'failed' && result.samples.length === 0)) return result;
  return {
    ...result,
    generator: { ...result.generator, ...(outcome.generator ? { process: outcome.generator } : {}) },
    machine: outcome.machine,
  };
}
