import type { JobKind } from '../../shared/contract/jobs.ts';
import type { RunResult, Sample } from '../../shared/model/result.ts';
import type { Load, Scenario } from '../../shared/model/scenario.ts';
import type { ResourceSample } from '../../shared/model/server-resources.ts';
import { CpuAccount } from '../engine/cpu.ts';
import { startRun, type RunHandle } from '../engine/run.ts';
import { buildRunSpec } from '../engine/spec.ts';
import { sendsOnSchedule, type SpecPlacement } from '../engine/types.ts';
import { startServerMonitor, withServerResources, type ServerMonitor } from '../monitor/server-monitor.ts';
import type { MachineSample } from '../../shared/model/machine-facts.ts';
import type { MachineMonitor } from '../machine/machine-monitor.ts';
import { planMachine, startMachine, withMachine } from '../machine/start.ts';

/** What one target's run tells the job it belongs to, as it goes. */
export interface TargetListener {
  /** The load begins now (after the server monitor's first reading); not called when stopped before. */
  started(): void;
  /** One per tick of the engine (never one per request). */
  sample(sample: Sample): void;
  /** One reading of the target's server (target.monitor), on the engine's tick it was taken at. */
  reading(reading: ResourceSample): void;
  /** One reading of the machine the generator runs on, on the engine's tick it was taken at. */
  machine(reading: MachineSample): void;
}

/** One target's run as a job drives it. */
export interface TargetRun {
  /**
   * Its result (status 'cancelled' when stopped: what was measured is kept), or null when it
   * was stopped before its load began. Rejects only when the host breaks down.
   */
  readonly done: Promise<RunResult | null>;
  /** Ends the run within one tick; resolves once asked (await done for the result). */
  stop(): Promise<void>;
}

/** Starts one target of a scenario: the engine's (startTarget) or, in tests, a stand-in. */
export type StartTarget = (
  scenario: Scenario,
  targetIndex: number,
  on: TargetListener,
  ids: { runId: string; appVersion: string },
) => TargetRun;

/** A job, as a reader of its parts knows it. */
export interface JobIdentity {
  id: string;
  kind: JobKind;
}

/**
 * A reader of a job's parts (the live metrics out, electron/metrics/hub.ts): wraps how each
 * part runs to read its samples and result, on the host, after the job's own listener.
 */
export type PartReader = (job: JobIdentity, start: StartTarget) => StartTarget;

/**
 * The one way a part of any job runs: the target's spec is built on the host (its body and
 * CA files read), its server monitor started, then its load in an engine worker
 * (electron/engine/run.ts), each engine sample feeding the monitor's ticks. A file that cannot
 * be read gives a failed result naming the field, never a crash.
 */
export const startTarget: StartTarget = (scenario, targetIndex, on, ids) =>
  startPlacedTarget(scenario, targetIndex, on, ids, undefined, false);

/** startTarget for a machine's shard of a plan (`trebuchet run --shard`): its spec carries its placement. */
export function placedTarget(placement: SpecPlacement): StartTarget {
  return (scenario, targetIndex, on, ids) =>
    startPlacedTarget(scenario, targetIndex, on, ids, placement, false);
}

/** At most this many requests, in one closed loop with no rate and no stages, is a tiny run. */
export const TINY_RUN_REQUESTS = 100;

/** Whether a load is a tiny run's (engine/run-here.ts): a few requests, over in moments. */
export function isTinyLoad(load: Load): boolean {
  return (
    load.model === 'closed' &&
    !load.stages &&
    load.rate === null &&
    load.limit.kind === 'requests' &&
    load.limit.count <= TINY_RUN_REQUESTS
  );
}

/**
 * startTarget for `trebuchet run` (the CLI only, never a host): a tiny run's engine runs in the
 * CLI's own thread (engine/run-here.ts, loaded only then), and so does a scheduled run's
 * coordinator, whose shards each have a thread of their own anyway (shards/links.ts backendOf):
 * an engine worker with nothing but the coordinator would be one more thread loading the engine
 * (0.3-0.4 CPU-s). Every other run's engine runs in an engine worker.
 */
export const startTargetForCli: StartTarget = (scenario, targetIndex, on, ids) =>
  startPlacedTarget(scenario, targetIndex, on, ids, undefined, true);

function startPlacedTarget(
  scenario: Scenario,
  targetIndex: number,
  on: TargetListener,
  ids: { runId: string; appVersion: string },
  placement: SpecPlacement | undefined,
  /** The CLI's thread may take a tiny run's engine or a scheduled run's coordinator (run-here.ts). */
  cliThread: boolean,
): TargetRun {
  let stopped = false;
  let engine: RunHandle | null = null;
  const done = (async (): Promise<RunResult | null> => {
    const built = await buildRunSpec(scenario, targetIndex, ids);
    if (built.ok && placement) built.spec.placement = placement;
    // The CLI's own work on the engine's thread, which the engine's CPU figure leaves out.
    const hostCpu =
      cliThread && built.ok && (isTinyLoad(built.spec.load) || sendsOnSchedule(built.spec))
        ? new CpuAccount()
        : null;
    const here = hostCpu && (await import('../engine/run-here.ts'));
    // The server's side (issue 11): sampled on the host beside the run, on its ticks; and the
    // machine's (issue 32): what else took its CPU, the generator's whole process, the link.
    const [monitor, machinePlan]: [ServerMonitor | null, Awaited<ReturnType<typeof planMachine>> | null] =
      built.ok
        ? await Promise.all([
            startServerMonitor(built.spec.target, {
              options: scenario.options,
              onSample: (reading) => on.reading(reading),
              ...(hostCpu ? { cpu: hostCpu } : {}),
            }),
            planMachine(built.spec.target, built.spec.target.monitor.kind !== 'off'),
          ])
        : [null, null];
    if (stopped) {
      await monitor?.stop({ seconds: 0, requests: 0 });
      return null;
    }
    on.started();
    if (!built.ok) return built.result;
    const machine: MachineMonitor | null = machinePlan
      ? startMachine({
          plan: machinePlan,
          options: scenario.options,
          serverRoot: () => monitor?.rootPid() ?? null,
          onSample: (reading) => on.machine(reading),
          ...(hostCpu ? { cpu: hostCpu } : {}),
        })
      : null;
    const callbacks = {
      onSample: (sample: Sample) => {
        on.sample(sample);
        monitor?.tick(sample);
        machine?.tick(sample);
      },
    };
    engine =
      here && hostCpu ? here.startRunHere(built.spec, callbacks, hostCpu) : startRun(built.spec, callbacks);
    const result = await engine.done;
    return withServerResources(withMachine(result, machine?.stop() ?? null), monitor);
  })();
  return {
    done,
    stop: async () => {
      stopped = true;
      await engine?.stop();
    },
  };
}
