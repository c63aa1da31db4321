import { z } from 'zod';

/**
 * Where a run's shards go when the app's Run tab runs it on shards (the CLI's `--shards N --on
 * local|kubernetes`): how many, how long they may take to get ready, and for Kubernetes the
 * image, namespace, kubeconfig context and node labels. Pure.
 */

export const MAX_SHARDS = 100;
/**
 * How long the shards may take to get ready (process or pod started, target checked,
 * connections warmed) before the run gives up, by default: N processes loading the CLI on a
 * busy machine; pods scheduled and their image pulled on a cold node.
 */
export const READY_TIMEOUT_SECONDS = { kubernetes: 300, local: 60 } as const;
export const MAX_READY_TIMEOUT_SECONDS = 3600;
/** The namespace when neither the placement nor the kubeconfig's context names one: resources/kubernetes/rbac.yaml's. */
export const DEFAULT_NAMESPACE = 'trebuchet';

export const namespaceSchema = z
  .string()
  .regex(/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/, 'a namespace is lower case letters, digits and -');

export const kubernetesPlacementSchema = z.strictObject({
  image: z.string().trim().min(1, 'give the image built from resources/docker/Dockerfile').max(512),
  /** null: the context's namespace in the kubeconfig, else DEFAULT_NAMESPACE. */
  namespace: namespaceSchema.nullable(),
  /** The kubeconfig's context; null for its current one. */
  context: z.string().min(1).max(253).nullable(),
  nodeSelector: z.record(z.string().min(1).max(317), z.string().max(63)),
});
export type KubernetesPlacement = z.infer<typeof kubernetesPlacementSchema>;

export const shardPlacementSchema = z.strictObject({
  count: z
    .number()
    .int()
    .min(1, `give 1 to ${MAX_SHARDS} shards`)
    .max(MAX_SHARDS, `give 1 to ${MAX_SHARDS} shards`),
  /** null: READY_TIMEOUT_SECONDS for the place. */
  readyTimeoutSeconds: z
    .number()
    .min(1, 'give the shards at least 1 s to get ready')
    .max(MAX_READY_TIMEOUT_SECONDS, `give the shards at most ${MAX_READY_TIMEOUT_SECONDS} s to get ready`)
    .nullable(),
  /** null: the shards run as processes on the host's machine. */
  kubernetes: kubernetesPlacementSchema.nullable(),
});
export type ShardPlacement = z.infer<typeof shardPlacementSchema>;

/** How long a placement's shards may take to get ready, seconds. */
export const readyTimeoutOf = (p: ShardPlacement): number =>
  p.readyTimeoutSeconds ?? READY_TIMEOUT_SECONDS[p.kubernetes ? 'kubernetes' : 'local'];
