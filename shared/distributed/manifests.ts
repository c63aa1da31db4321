/**
 * The Kubernetes objects of a distributed run (`--on kubernetes`): a ConfigMap holding the
 * plan and an Indexed Job whose pod i runs shard i (`$JOB_COMPLETION_INDEX`) from the
 * mounted plan at the common start. Plain objects, as the API and `--dry-run` take them. Pure.
 */

export interface KubeRunSpec {
  /** The run's objects' name (ConfigMap and Job), a DNS label. */
  name: string;
  namespace: string;
  image: string;
  count: number;
  /** The common start, epoch ms. */
  startAt: number;
  planText: string;
  /** Cores each shard's pod requests (its engine threads), whole cores. */
  cpu: number;
  nodeSelector: Record<string, string>;
}

/** Finished Jobs (and their pods) are removed by Kubernetes after this long if the coordinator could not. */
export const JOB_TTL_SECONDS = 600;
/** The label every object of a run carries, its value the run's name: pods are found by it. */
export const RUN_LABEL = 'trebuchet.dev/run';
export const PLAN_MOUNT = '/plan';
export const CONTAINER_NAME = 'shard';

/** A DNS-1123 label from a run id: lower case, [a-z0-9-], at most 52 characters (a Job's pods add a suffix). */
export function kubeName(runId: string): string {
  const base = `trebuchet-${runId.toLowerCase().replace(/[^a-z0-9-]+/g, '-')}`;
  return base.slice(0, 52).replace(/-+$/, '');
}

/** The shard command in a pod: the CLI's entry in the image, its index from the Job. */
export function shardCommand(count: number, startAt: number): string[] {
  return [
    'sh',
    '-c',
    `exec trebuchet run --scenario ${PLAN_MOUNT}/plan.json --shard "$JOB_COMPLETION_INDEX/${count}" --start-at ${new Date(startAt).toISOString()} --json - -q`,
  ];
}

export function configMapManifest(spec: KubeRunSpec) {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: spec.name, namespace: spec.namespace, labels: { [RUN_LABEL]: spec.name } },
    data: { 'plan.json': spec.planText },
  };
}

export function jobManifest(spec: KubeRunSpec) {
  const labels = { [RUN_LABEL]: spec.name };
  const cpu = String(spec.cpu);
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: spec.name, namespace: spec.namespace, labels },
    spec: {
      completionMode: 'Indexed',
      completions: spec.count,
      parallelism: spec.count,
      // A failed shard fails the run: a retried one would start after the others.
      backoffLimit: 0,
      ttlSecondsAfterFinished: JOB_TTL_SECONDS,
      template: {
        metadata: { labels },
        spec: {
          restartPolicy: 'Never',
          // One shard a node where the cluster has nodes enough: shards share no machine's cores.
          topologySpreadConstraints: [
            {
              maxSkew: 1,
              topologyKey: 'kubernetes.io/hostname',
              whenUnsatisfiable: 'ScheduleAnyway',
              labelSelector: { matchLabels: labels },
            },
          ],
          ...(Object.keys(spec.nodeSelector).length > 0 ? { nodeSelector: spec.nodeSelector } : {}),
          containers: [
            {
              name: CONTAINER_NAME,
              image: spec.image,
              command: shardCommand(spec.count, spec.startAt),
              // Requests equal limits: the shard's engine threads get whole cores (Guaranteed QoS).
              resources: {
                requests: { cpu, memory: '512Mi' },
                limits: { cpu, memory: '512Mi' },
              },
              volumeMounts: [{ name: 'plan', mountPath: PLAN_MOUNT, readOnly: true }],
            },
          ],
          volumes: [{ name: 'plan', configMap: { name: spec.name } }],
        },
      },
    },
  };
}

export type ConfigMapManifest = ReturnType<typeof configMapManifest>;
export type JobManifest = ReturnType<typeof jobManifest>;
