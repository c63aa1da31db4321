/**
 * The Kubernetes objects of a distributed run (`--on kubernetes`): a ConfigMap holding the
 * plan and an Indexed Job whose pod i runs shard i + 1 of N (`$JOB_COMPLETION_INDEX` counts
 * from 0, `--shard` from 1) from the mounted plan. A pod checks the target, warms its
 * connections, says it is ready (its log, its readiness probe) and waits for the Job's
 * `trebuchet.dev/go` annotation, which holds the common start: no time is baked in, so a
 * manifest applied later starts the same way. Made for a cluster that admits the "restricted"
 * Pod Security Standard: no root, no privilege escalation, no capability, a read-only root
 * filesystem (a scratch /tmp for the ready file and Node's compile cache), the default
 * seccomp profile; a deadline from the plan. Plain objects, as the API and `--dry-run` take
 * them. Pure.
 */
import type { Load } from '../model/scenario.ts';
import { LIMITS } from '../model/defaults.ts';
import { loadSeconds } from '../stages/load-plan.ts';

export interface KubeRunSpec {
  /** The run's objects' name (ConfigMap and Job), a DNS label. */
  name: string;
  namespace: string;
  image: string;
  count: number;
  planText: string;
  /** Cores each shard's pod requests (its engine threads), whole cores. */
  cpu: number;
  nodeSelector: Record<string, string>;
  /** The Job's activeDeadlineSeconds (jobDeadlineSeconds). */
  deadlineSeconds: number;
}

/** Finished Jobs (and their pods) are removed by Kubernetes after this long if the coordinator could not. */
export const JOB_TTL_SECONDS = 600;
/** The label every object of a run carries, its value the run's name: pods are found by it. */
export const RUN_LABEL = 'trebuchet.dev/run';
/** The Job's annotation the shards watch: the common start, RFC 3339 (`kubectl annotate job NAME trebuchet.dev/go=...`). */
export const GO_ANNOTATION = 'trebuchet.dev/go';
export const PLAN_MOUNT = '/plan';
export const CONTAINER_NAME = 'shard';
/** What the shards' pods run as (resources/kubernetes/rbac.yaml): it may read its Job, nothing else. */
export const SHARD_SERVICE_ACCOUNT = 'trebuchet-shard';
/** The writable scratch of a read-only root filesystem. */
const TMP = '/tmp';
/** Written by a shard once it is ready: its readiness probe looks for it. */
export const READY_FILE = `${TMP}/ready`;
/** The image's user (resources/docker/Dockerfile: node:24-slim's `node`), by number so runAsNonRoot can check it. */
export const SHARD_UID = 1000;
/** A pod deleted (Ctrl-C, a failed shard) stops its load and writes its report in well under this. */
const STOP_GRACE_SECONDS = 30;
/** A load whose length only the server decides (a request count with no rate) is given this much at most. */
const UNTIMED_LOAD_SECONDS = LIMITS.durationSeconds.max;

/** A DNS-1123 label from a run id: lower case, [a-z0-9-], at most 52 characters (a Job's pods add a suffix). */
export function kubeName(runId: string): string {
  const base = `trebuchet-${runId.toLowerCase().replace(/[^a-z0-9-]+/g, '-')}`;
  return base.slice(0, 52).replace(/-+$/, '');
}

/**
 * The Job's deadline from the plan: its pods' time to get ready (the image pulled, the
 * connections warmed), the warm-up, the load's planned length (a request count: at its rate
 * cap, or a day at most), and a stop's grace.
 */
export function jobDeadlineSeconds(load: Load, warmupSeconds: number, readySeconds: number): number {
  const limit = load.model === 'closed' ? load.limit : null;
  const capped = limit?.kind === 'requests' && load.rate !== null ? limit.count / load.rate : null;
  const planned = loadSeconds(load) ?? capped ?? UNTIMED_LOAD_SECONDS;
  return Math.ceil(readySeconds + warmupSeconds + planned + STOP_GRACE_SECONDS);
}

/** The shard command in a pod: the CLI's entry in the image, shard `$JOB_COMPLETION_INDEX + 1` of N. */
export function shardCommand(name: string, count: number): string[] {
  return [
    'sh',
    '-c',
    `exec trebuchet run --scenario ${PLAN_MOUNT}/plan.json --shard "$((JOB_COMPLETION_INDEX + 1))/${count}" --start-on job/${name} --ready-file ${READY_FILE} -q`,
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
      // The same, said on the Job's Failed condition with the rule that fired (kubectl describe job).
      podFailurePolicy: {
        rules: [
          // Evicted or preempted: a replacement would begin after the common start.
          { action: 'FailJob', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] },
          // Its load failed or its plan was refused: running it again cannot rejoin the run.
          {
            action: 'FailJob',
            onExitCodes: { containerName: CONTAINER_NAME, operator: 'NotIn', values: [0] },
          },
        ],
      },
      activeDeadlineSeconds: spec.deadlineSeconds,
      ttlSecondsAfterFinished: JOB_TTL_SECONDS,
      template: {
        metadata: { labels },
        spec: {
          restartPolicy: 'Never',
          // Its token reads its own Job's go annotation, nothing more (rbac.yaml).
          serviceAccountName: SHARD_SERVICE_ACCOUNT,
          automountServiceAccountToken: true,
          securityContext: {
            runAsNonRoot: true,
            runAsUser: SHARD_UID,
            runAsGroup: SHARD_UID,
            seccompProfile: { type: 'RuntimeDefault' },
          },
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
              command: shardCommand(spec.name, spec.count),
              env: [{ name: 'NODE_COMPILE_CACHE', value: `${TMP}/compile-cache` }],
              // Requests equal limits: the shard's engine threads get whole cores (Guaranteed QoS).
              resources: {
                requests: { cpu, memory: '512Mi' },
                limits: { cpu, memory: '512Mi' },
              },
              securityContext: {
                allowPrivilegeEscalation: false,
                readOnlyRootFilesystem: true,
                runAsNonRoot: true,
                capabilities: { drop: ['ALL'] },
              },
              // Ready once its connections are warm: `kubectl wait --for=condition=Ready` before the go.
              readinessProbe: { exec: { command: ['test', '-e', READY_FILE] }, periodSeconds: 1 },
              volumeMounts: [
                { name: 'plan', mountPath: PLAN_MOUNT, readOnly: true },
                { name: 'tmp', mountPath: TMP },
              ],
            },
          ],
          volumes: [
            { name: 'plan', configMap: { name: spec.name } },
            { name: 'tmp', emptyDir: { sizeLimit: '256Mi' } },
          ],
        },
      },
    },
  };
}

export type ConfigMapManifest = ReturnType<typeof configMapManifest>;
export type JobManifest = ReturnType<typeof jobManifest>;
