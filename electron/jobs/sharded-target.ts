/**
 * A run on shards that are machines of their own (`trebuchet run --shards N --on
 * local|kubernetes`, the app's Run tab "Shards here" and "Kubernetes") as one target's run of
 * the job model: the engine's one coordinator (electron/engine/shards/) over N links, local
 * processes or pods (electron/distributed/: process-links.ts, pod-links.ts), in this thread:
 * it only merges, the load is the shards'. Each shard checks the target and warms up; the coordinator starts them
 * together once all are ready, merges their windows live into the samples a run here has (the
 * whole run's percentiles), and their reports exactly into one result with a Shards table.
 * The target's server is watched from here, as beside a run here.
 */
import os from 'node:os';
import type { RunResult, Sample } from '../../shared/model/result.ts';
import type { Scenario } from '../../shared/model/scenario.ts';
import { splitLoad } from '../../shared/shards/plan.ts';
import {
  DEFAULT_NAMESPACE,
  readyTimeoutOf,
  type ShardPlacement,
} from '../../shared/distributed/placement.ts';
import type { KubeConfirmation } from '../../shared/distributed/kube-confirmation.ts';
import { jobDeadlineSeconds, kubeName, type KubeRunSpec } from '../../shared/distributed/manifests.ts';
import { CpuAccount } from '../engine/cpu.ts';
import { failedResult } from '../engine/result.ts';
import { plannedEngine } from '../engine/load-generators.ts';
import { coordinate } from '../engine/shards/run-assembly.ts';
import { buildRunSpec } from '../engine/spec.ts';
import { newRunId } from './ids.ts';
import type { StartTarget } from './target-run.ts';
import { startServerMonitor, withServerResources, type ServerMonitor } from '../monitor/server-monitor.ts';
import type { KubeClient } from '../distributed/kubernetes-client.ts';
import { portablePlan, PlanFileError } from '../distributed/plan-file.ts';
import { PodLinks } from '../distributed/pod-links.ts';
import { ProcessLinks } from '../distributed/process-links.ts';

/** Cores a shard's pod requests: the plan's engine threads (-t), else one. */
export const shardCores = (scenario: Scenario): number =>
  typeof scenario.options.workers === 'number' ? scenario.options.workers : 1;

/**
 * A shard's engine threads: on Kubernetes the cores its pod requests ('auto' in a pod would
 * count the node's cores, not its share); here, 'auto' is this machine's cores shared between
 * the shards' processes (each counting them all would run N times as many threads as cores).
 */
export function pinnedWorkers(placement: ShardPlacement, scenario: Scenario): Scenario {
  const { workers } = scenario.options;
  const pinned = placement.kubernetes
    ? shardCores(scenario)
    : workers === 'auto'
      ? Math.max(1, Math.floor(os.availableParallelism() / placement.count))
      : workers;
  return { ...scenario, options: { ...scenario.options, workers: pinned } };
}

/** The namespace of a run on Kubernetes: the placement's, else its context's in the kubeconfig, else rbac.yaml's. */
export async function namespaceOf(placement: ShardPlacement): Promise<string> {
  const k = placement.kubernetes;
  if (!k) return DEFAULT_NAMESPACE;
  if (k.namespace !== null) return k.namespace;
  const { kubeNamespace } = await import('../distributed/kubernetes-client.ts');
  return kubeNamespace(k.context) ?? DEFAULT_NAMESPACE;
}

/**
 * What a run on Kubernetes would start, each value as the host resolves it: the context (the
 * kubeconfig's current one when the placement names none), the namespace, the image and the
 * pods. Throws when the kubeconfig names no context to use.
 */
export async function kubeStartOf(placement: ShardPlacement): Promise<KubeConfirmation> {
  const k = placement.kubernetes;
  if (!k) throw new Error('the run is not on Kubernetes');
  const { kubeContexts } = await import('../distributed/kubernetes-client.ts');
  const context = k.context ?? kubeContexts().current;
  if (context === null) throw new Error("the host's kubeconfig has no current context: choose one");
  return { context, namespace: await namespaceOf(placement), image: k.image, pods: placement.count };
}

/** The Kubernetes objects of a run: its name, namespace, the plan, the pods' size and deadline. */
export async function kubeRunSpec(
  placement: ShardPlacement,
  scenario: Scenario,
  planText: string,
): Promise<KubeRunSpec> {
  const k = placement.kubernetes!;
  return {
    name: kubeName(newRunId()),
    namespace: await namespaceOf(placement),
    image: k.image,
    count: placement.count,
    planText,
    cpu: shardCores(scenario),
    nodeSelector: k.nodeSelector,
    deadlineSeconds: jobDeadlineSeconds(
      scenario.load,
      scenario.options.warmupSeconds,
      readyTimeoutOf(placement),
    ),
  };
}

/**
 * What the links are made with, beyond the placement: tests give a fake API client, or a
 * scripted shard's command and, to measure a hundred of them on a busy machine, a longer
 * silence limit.
 */
export interface LinkMakers {
  kubeClient?: (context: string | null) => KubeClient;
  processCommand?: readonly string[];
  processSilenceMs?: number;
}

async function linksFor(
  placement: ShardPlacement,
  scenario: Scenario,
  planText: string,
  makers: LinkMakers,
): Promise<ProcessLinks | PodLinks> {
  const readyTimeoutMs = readyTimeoutOf(placement) * 1000;
  if (!placement.kubernetes) {
    return ProcessLinks.create({
      planText,
      count: placement.count,
      readyTimeoutMs,
      ...(makers.processCommand ? { command: makers.processCommand } : {}),
      ...(makers.processSilenceMs === undefined ? {} : { silenceMs: makers.processSilenceMs }),
    });
  }
  const client = makers.kubeClient ?? (await import('../distributed/kubernetes-client.ts')).kubeClient;
  return new PodLinks({
    client: client(placement.kubernetes.context),
    run: await kubeRunSpec(placement, scenario, planText),
    readyTimeoutMs,
  });
}

/**
 * The StartTarget of a run on shards. What cannot begin (a file the plan carries unreadable, a
 * kubeconfig without the context) is a failed result saying why; the links' clean-up (a
 * Kubernetes delete refused) is said in the result's warnings.
 */
export function shardedTarget(placement: ShardPlacement, makers: LinkMakers = {}): StartTarget {
  return (scenario, targetIndex, on, ids) => {
    const controller = new AbortController();
    const done = (async (): Promise<RunResult | null> => {
      const placed = pinnedWorkers(placement, scenario);
      const built = await buildRunSpec(placed, targetIndex, ids);
      if (!built.ok) {
        on.started();
        return built.result;
      }
      const { spec } = built;
      const engine = plannedEngine(spec.options);
      let links: ProcessLinks | PodLinks;
      try {
        links = await linksFor(
          placement,
          placed,
          JSON.stringify(await portablePlan(placed, targetIndex)),
          makers,
        );
      } catch (e) {
        on.started();
        const message = e instanceof PlanFileError || e instanceof Error ? e.message : String(e);
        return failedResult(spec, { kind: 'other', message }, { engine, startedAt: new Date() });
      }
      const cpu = new CpuAccount();
      let monitor: ServerMonitor | null = null;
      // The shards start now: getting ready takes them far longer than the monitor's first reading.
      const running = coordinate({
        spec,
        shards: splitLoad(spec.load, placement.count),
        backendFor: () => links,
        signal: controller.signal,
        onSample: (sample: Sample) => {
          on.sample(sample);
          monitor?.tick(sample);
        },
        engine,
        startedAt: new Date(),
        cpu,
      });
      // The target's server is watched from here, on the merged ticks, as beside a run here.
      monitor = await startServerMonitor(spec.target, {
        options: spec.options,
        onSample: (reading) => on.reading(reading),
      });
      if (!controller.signal.aborted) on.started();
      const result = await running;
      try {
        await links.dispose();
      } catch (e) {
        result.warnings.push({ code: 'other', message: e instanceof Error ? e.message : String(e) });
      }
      return withServerResources(result, monitor);
    })();
    return {
      done,
      stop: () => {
        controller.abort();
        return Promise.resolve();
      },
    };
  };
}
