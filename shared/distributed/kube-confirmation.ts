import { z } from 'zod';
import type { FieldIssue } from '../model/validation.ts';
import { MAX_SHARDS, namespaceSchema } from './placement.ts';

/**
 * A run on Kubernetes as the person confirmed it in the page: the four values that decide what
 * the host creates in a cluster (which cluster, where in it, what runs, how many). The host
 * starts a Job only when they equal what it would start, so a page holding the token cannot
 * skip the confirmation by sending the job directly. Pure.
 */
export const kubeConfirmationSchema = z.strictObject({
  /** The kubeconfig context, resolved (never "the current one"). */
  context: z.string().min(1).max(253),
  /** The namespace, resolved (the placement's, else the context's, else the default). */
  namespace: namespaceSchema,
  image: z.string().min(1).max(512),
  pods: z.number().int().min(1).max(MAX_SHARDS),
});
export type KubeConfirmation = z.infer<typeof kubeConfirmationSchema>;

/** The field of jobs.start a Kubernetes refusal is said at. */
export const KUBERNETES_FIELD = 'shards.kubernetes';

/** What a web host started without the flag says (the page shows it at "Run on"). */
export const KUBERNETES_NOT_ALLOWED =
  'this web host does not start Kubernetes Jobs: restart it with `trebuchet serve --allow-kubernetes` to allow it';

const LABELS: Record<keyof KubeConfirmation, string> = {
  context: 'context',
  namespace: 'namespace',
  image: 'image',
  pods: 'pod count',
};

/**
 * Where what the page confirmed differs from what the host would start, one issue a value, each
 * naming both; one issue when nothing was confirmed. Empty: the host may start it.
 */
export function confirmationIssues(
  confirmed: KubeConfirmation | undefined,
  wouldStart: KubeConfirmation,
): FieldIssue[] {
  if (!confirmed)
    return [
      {
        path: KUBERNETES_FIELD,
        message:
          'a run on Kubernetes starts only once its context, namespace, image and pod count are confirmed',
      },
    ];
  return (Object.keys(LABELS) as (keyof KubeConfirmation)[])
    .filter((key) => confirmed[key] !== wouldStart[key])
    .map((key) => ({
      path: `kubernetesConfirmed.${key}`,
      message: `the ${LABELS[key]} confirmed (${JSON.stringify(confirmed[key])}) is not the one the host would start (${JSON.stringify(wouldStart[key])}); confirm again`,
    }));
}
