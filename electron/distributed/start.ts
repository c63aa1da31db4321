/**
 * A distributed run's pieces from what was asked (CLI flags, the app's Run tab): its backend
 * and the StartTarget that coordinates it, or the manifests `--dry-run` prints.
 */
import type { Scenario } from '../../shared/model/scenario.ts';
import type { KubernetesPlacement, ShardPlacement } from '../../shared/distributed/placement.ts';
import {
  configMapManifest,
  jobManifest,
  kubeName,
  type KubeRunSpec,
} from '../../shared/distributed/manifests.ts';
import { newRunId } from '../jobs/ids.ts';
import type { StartTarget } from '../jobs/target-run.ts';
import type { DistributedBackend } from './backend.ts';
import { distributedTarget } from './coordinator.ts';
import { KubernetesBackend } from './kubernetes-backend.ts';
import { LocalBackend } from './local-backend.ts';
import { portablePlan } from './plan-file.ts';

/** Cores a shard's pod requests: the plan's engine threads (-t), else one. */
export const shardCores = (scenario: Scenario): number =>
  typeof scenario.options.workers === 'number' ? scenario.options.workers : 1;

/**
 * On Kubernetes a shard's engine threads are the cores its pod requests: 'auto' in a pod
 * would count the node's cores, not its share.
 */
function pinnedWorkers(plan: ShardPlacement, scenario: Scenario): Scenario {
  if (!plan.kubernetes) return scenario;
  return { ...scenario, options: { ...scenario.options, workers: shardCores(scenario) } };
}

async function backendFor(plan: ShardPlacement, scenario: Scenario): Promise<DistributedBackend> {
  if (!plan.kubernetes) return new LocalBackend();
  const { kubeClient } = await import('./kubernetes-client.ts');
  const k = plan.kubernetes;
  return new KubernetesBackend({
    client: kubeClient(k.context),
    name: kubeName(newRunId()),
    namespace: k.namespace,
    image: k.image,
    cpu: shardCores(scenario),
    nodeSelector: k.nodeSelector,
  });
}

/**
 * The StartTarget of a distributed run. The backend is made when the target starts (the
 * kubeconfig read then): a missing kubeconfig or context fails that run with its reason.
 */
export function distributedStart(plan: ShardPlacement): StartTarget {
  return (scenario, targetIndex, on, ids) => {
    let inner: ReturnType<StartTarget> | null = null;
    let stopped = false;
    const done = (async () => {
      const backend = await backendFor(plan, scenario);
      if (stopped) return null;
      inner = distributedTarget({
        backend,
        count: plan.count,
        startMarginMs: plan.startMarginSeconds * 1000,
      })(pinnedWorkers(plan, scenario), targetIndex, on, ids);
      return inner.done;
    })();
    return {
      done,
      stop: async () => {
        stopped = true;
        await inner?.stop();
      },
    };
  };
}

/** `--dry-run`: the ConfigMap and the Job as they would be created now, as YAML documents. */
export async function dryRunManifests(
  plan: ShardPlacement & { kubernetes: KubernetesPlacement },
  scenario: Scenario,
): Promise<string> {
  const { dumpYaml } = await import('@kubernetes/client-node');
  const k = plan.kubernetes;
  const spec: KubeRunSpec = {
    name: kubeName(newRunId()),
    namespace: k.namespace,
    image: k.image,
    count: plan.count,
    startAt: Date.now() + plan.startMarginSeconds * 1000,
    planText: JSON.stringify(await portablePlan(pinnedWorkers(plan, scenario), 0), null, 2),
    cpu: shardCores(scenario),
    nodeSelector: k.nodeSelector,
  };
  return [configMapManifest(spec), jobManifest(spec)].map((m) => `---\n${dumpYaml(m)}`).join('');
}
