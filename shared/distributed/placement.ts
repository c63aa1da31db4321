import { z } from 'zod';

/**
 * Where a run's shards go when the app's Run tab runs it on shards (the CLI's `--shards N --on
 * local|kubernetes`): how many, the time from the start to their common start, and for
 * Kubernetes the image, namespace, kubeconfig context and node labels. Pure.
 */

export const MAX_SHARDS = 100;
/** The default start margins: room to schedule pods and pull the image; to start N processes here. */
export const START_MARGIN_SECONDS = { kubernetes: 30, local: 10 } as const;

export const namespaceSchema = z
  .string()
  .regex(/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/, 'a namespace is lower case letters, digits and -');

export const kubernetesPlacementSchema = z.strictObject({
  image: z.string().trim().min(1, 'give the image built from resources/docker/Dockerfile').max(512),
  namespace: namespaceSchema,
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
  startMarginSeconds: z.number().min(1, 'give at least 1 s for the shards to start').max(3600),
  /** null: the shards run as processes on the host's machine. */
  kubernetes: kubernetesPlacementSchema.nullable(),
});
export type ShardPlacement = z.infer<typeof shardPlacementSchema>;
