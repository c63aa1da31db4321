/**
 * `trebuchet run ... --shards N --on kubernetes --dry-run`: the ConfigMap and the Job as the
 * run would create them, as YAML, with no API call. They hold no start time: applied now or
 * later, the pods get ready and wait for the Job's go annotation, which the head comment says
 * how to give.
 */
import {
  GO_ANNOTATION,
  RUN_LABEL,
  configMapManifest,
  jobManifest,
} from '../../../shared/distributed/manifests.ts';
import type { KubernetesPlacement, ShardPlacement } from '../../../shared/distributed/placement.ts';
import type { Scenario } from '../../../shared/model/scenario.ts';
import { portablePlan } from '../../distributed/plan-file.ts';
import { kubeRunSpec, pinnedWorkers } from '../../jobs/sharded-target.ts';

export async function dryRunManifests(
  placement: ShardPlacement & { kubernetes: KubernetesPlacement },
  scenario: Scenario,
): Promise<string> {
  const { dumpYaml } = await import('@kubernetes/client-node');
  const placed = pinnedWorkers(placement, scenario);
  const run = await kubeRunSpec(placement, placed, JSON.stringify(await portablePlan(placed, 0), null, 2));
  const n = `-n ${run.namespace}`;
  const head = [
    `# ${run.count} shards of one plan: the pods check the target, warm up, then wait for the go.`,
    `#   kubectl apply -f this.yaml`,
    `#   kubectl wait ${n} --for=condition=Ready pod -l ${RUN_LABEL}=${run.name} --timeout=10m`,
    `#   kubectl annotate ${n} job ${run.name} ${GO_ANNOTATION}=$(date -u -d '+5 sec' +%Y-%m-%dT%H:%M:%SZ)`,
    `# Their logs hold their windows and reports; delete both objects after: kubectl delete ${n} job,configmap -l ${RUN_LABEL}=${run.name}`,
  ];
  return `${head.join('\n')}\n${[configMapManifest(run), jobManifest(run)].map((m) => `---\n${dumpYaml(m)}`).join('')}`;
}
