import {
  confirmationIssues,
  KUBERNETES_FIELD,
  KUBERNETES_NOT_ALLOWED,
  type KubeConfirmation,
} from '../../shared/distributed/kube-confirmation.ts';
import type { ShardPlacement } from '../../shared/distributed/placement.ts';
import { ValidationError } from '../../shared/model/validation.ts';

/**
 * Whether a host starts runs on Kubernetes (the desktop app does; the web host only with
 * `trebuchet serve --allow-kubernetes`), and how it resolves what a placement would start
 * (sharded-target.ts's kubeStartOf; tests give their own).
 */
export interface KubeGate {
  allowed: boolean;
  resolve: (placement: ShardPlacement) => Promise<KubeConfirmation>;
}

const refused = (command: string, message: string, path = KUBERNETES_FIELD): ValidationError =>
  new ValidationError(`${command} input`, [{ path, message }]);

/** What the host would start for a placement on Kubernetes, for the page to confirm; refused when not allowed. */
export async function previewKubernetes(
  gate: KubeGate,
  placement: ShardPlacement,
  command = 'kube.preview',
): Promise<KubeConfirmation> {
  if (!placement.kubernetes) throw refused(command, 'the run is not on Kubernetes');
  if (!gate.allowed) throw refused(command, KUBERNETES_NOT_ALLOWED);
  try {
    return await gate.resolve(placement);
  } catch (e) {
    throw refused(command, e instanceof Error ? e.message : String(e), `${KUBERNETES_FIELD}.context`);
  }
}

/**
 * The placement a job on Kubernetes starts with, once the host allows it and the page confirmed
 * exactly what the host would start; its context and namespace pinned to the confirmed ones, so
 * a kubeconfig changed in between cannot send the Job elsewhere. Throws a ValidationError naming
 * the field otherwise. A placement on this machine passes as it is.
 */
export async function gatedPlacement(
  gate: KubeGate,
  placement: ShardPlacement,
  confirmed: KubeConfirmation | undefined,
): Promise<ShardPlacement> {
  const k = placement.kubernetes;
  if (!k) return placement;
  const wouldStart = await previewKubernetes(gate, placement, 'jobs.start');
  const issues = confirmationIssues(confirmed, wouldStart);
  if (issues.length > 0) throw new ValidationError('jobs.start input', issues);
  return { ...placement, kubernetes: { ...k, context: wouldStart.context, namespace: wouldStart.namespace } };
}
