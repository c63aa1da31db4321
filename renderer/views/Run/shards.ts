import { shardPlacementSchema, type ShardPlacement } from '../../../shared/distributed/placement.ts';

/** Where the Run tab runs a scenario: here (one run), as shards on this machine, or on Kubernetes. */
export type ShardWhere = 'here' | 'local' | 'kubernetes';

/** The Run tab's shard choice as typed (text fields, checked when a run starts). */
export interface ShardsDraft {
  where: ShardWhere;
  count: string;
  /** Blank: the kubeconfig's current context. */
  context: string;
  /** Blank: the context's namespace in the kubeconfig, else "trebuchet" (resources/kubernetes/rbac.yaml's). */
  namespace: string;
  image: string;
}

export const defaultShardsDraft: ShardsDraft = {
  where: 'here',
  count: '2',
  context: '',
  namespace: '',
  image: '',
};

/** placement undefined: a run here. */
export type PlacementCheck =
  { ok: true; placement: ShardPlacement | undefined } | { ok: false; message: string };

/** The draft as the placement jobs.start takes; a message naming the field when it cannot be. */
export function placementOf(d: ShardsDraft): PlacementCheck {
  if (d.where === 'here') return { ok: true, placement: undefined };
  const candidate = {
    count: Number(d.count.trim() === '' ? NaN : d.count),
    // The shards start once every one is ready; the default time they may take is the place's.
    readyTimeoutSeconds: null,
    kubernetes:
      d.where === 'kubernetes'
        ? {
            image: d.image,
            namespace: d.namespace.trim() || null,
            context: d.context || null,
            nodeSelector: {},
          }
        : null,
  };
  const parsed = shardPlacementSchema.safeParse(candidate);
  if (parsed.success) return { ok: true, placement: parsed.data };
  const issue = parsed.error.issues[0]!;
  const field = { count: 'Shards', kubernetes: 'Kubernetes' }[String(issue.path[0]) as 'count'];
  const sub = issue.path[1] === undefined ? '' : ` ${String(issue.path[1])}`;
  const message = Number.isNaN(candidate[issue.path[0] as 'count']) ? 'is not a number' : issue.message;
  return { ok: false, message: `${field ?? 'Shards'}${sub}: ${message}` };
}
