/**
 * What a shard's pod's status says to the coordinator: whether its log can be followed,
 * whether it ended, and why it failed or cannot run (unschedulable, image pull, OOM). Reads
 * the fields of a Kubernetes Pod it needs, as the API returns them. Pure.
 */

interface ContainerState {
  waiting?: { reason?: string; message?: string };
  running?: object;
  terminated?: { reason?: string; message?: string; exitCode: number; signal?: number };
}

export interface PodLike {
  metadata?: { name?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  status?: {
    phase?: string;
    reason?: string;
    message?: string;
    conditions?: { type: string; status: string; reason?: string; message?: string }[];
    containerStatuses?: { name: string; state?: ContainerState }[];
  };
}

/** An Indexed Job's pod carries its index in this label (and annotation, before Kubernetes 1.28). */
const INDEX_KEY = 'batch.kubernetes.io/job-completion-index';

export function podIndex(pod: PodLike): number | null {
  const text = pod.metadata?.labels?.[INDEX_KEY] ?? pod.metadata?.annotations?.[INDEX_KEY];
  return text !== undefined && /^\d+$/.test(text) ? Number(text) : null;
}

export type PodView =
  | { state: 'waiting'; reason: string }
  | { state: 'running' }
  | { state: 'succeeded' }
  | { state: 'failed'; reason: string };

const join = (reason?: string, message?: string): string =>
  [reason, message].filter((s) => s !== undefined && s !== '').join(': ');

/** Why a pod is not running yet: a waiting container's reason, else its scheduling condition. */
function waitingReason(pod: PodLike): string {
  for (const c of pod.status?.containerStatuses ?? []) {
    const w = c.state?.waiting;
    if (w) return join(w.reason, w.message) || 'container waiting';
  }
  const scheduled = pod.status?.conditions?.find((c) => c.type === 'PodScheduled');
  if (scheduled && scheduled.status !== 'True')
    return join(scheduled.reason ?? 'Unschedulable', scheduled.message);
  return `pod ${pod.status?.phase ?? 'Pending'}`;
}

function terminatedReason(pod: PodLike): string {
  for (const c of pod.status?.containerStatuses ?? []) {
    const t = c.state?.terminated;
    if (t) {
      const what = join(t.reason, t.message) || 'terminated';
      return `${what} (exit code ${t.exitCode}${t.signal ? `, signal ${t.signal}` : ''})`;
    }
  }
  return join(pod.status?.reason, pod.status?.message) || 'pod failed';
}

export function podView(pod: PodLike): PodView {
  switch (pod.status?.phase) {
    case 'Running':
      return { state: 'running' };
    case 'Succeeded':
      return { state: 'succeeded' };
    case 'Failed':
      return { state: 'failed', reason: terminatedReason(pod) };
    default:
      return { state: 'waiting', reason: waitingReason(pod) };
  }
}

/** A waiting pod's reason that will not pass by waiting (a bad image name, a pull refused). */
export function hopeless(reason: string): boolean {
  return /^(ErrImagePull|ImagePullBackOff|InvalidImageName|CreateContainerConfigError|CreateContainerError)\b/.test(
    reason,
  );
}
