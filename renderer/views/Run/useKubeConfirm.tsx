import { useCallback, useState, type ReactNode } from 'react';
import type { TrebuchetApi } from '../../../shared/contract/api.ts';
import type { KubeConfirmation } from '../../../shared/distributed/kube-confirmation.ts';
import type { ShardPlacement } from '../../../shared/distributed/placement.ts';
import { Dialog } from '../../components/Dialog.tsx';
import type { PlacedShards } from '../../jobs/useJob.ts';
import { errorText } from '../../lib/errors.ts';
import './run.css';

interface Pending {
  values: KubeConfirmation;
  answer: (ok: boolean) => void;
}

/**
 * The question before a run on Kubernetes: the host says what it would start (kube.preview:
 * the context, namespace, image and pod count it resolved), the person confirms those four
 * values, and the job carries them back for the host to check. Cancel starts nothing. A host
 * that refuses (a web host without --allow-kubernetes, a kubeconfig without the context) has
 * its message given to onRefused.
 */
export function useKubeConfirm(
  api: TrebuchetApi,
  onRefused: (message: string) => void,
): {
  /** Calls go now for a run here or on local shards; on Kubernetes once confirmed. True: the start was handled. */
  start: (placement: ShardPlacement | undefined, go: (shards?: PlacedShards) => boolean) => boolean;
  dialog: ReactNode;
} {
  const [pending, setPending] = useState<Pending | null>(null);

  const start = useCallback(
    (placement: ShardPlacement | undefined, go: (shards?: PlacedShards) => boolean): boolean => {
      if (!placement?.kubernetes) return go(placement && { shards: placement });
      api.kube.preview({ shards: placement }).then(
        async (values) => {
          const ok = await new Promise<boolean>((answer) => setPending({ values, answer }));
          setPending(null);
          if (ok) go({ shards: placement, kubernetesConfirmed: values });
        },
        (e: unknown) => onRefused(errorText(e)),
      );
      return true;
    },
    [api, onRefused],
  );

  const dialog = pending && (
    <Dialog
      title="Start pods on Kubernetes?"
      testId="kube-confirm"
      onClose={() => pending.answer(false)}
      footer={
        <>
          <button
            type="button"
            className="btn btn--secondary"
            data-testid="kube-confirm-cancel"
            onClick={() => pending.answer(false)}
          >
            Cancel
          </button>
          <button
            type="button"
            className="btn btn--primary"
            data-testid="kube-confirm-start"
            onClick={() => pending.answer(true)}
          >
            Start {pending.values.pods} {pending.values.pods === 1 ? 'pod' : 'pods'}
          </button>
        </>
      }
    >
      <p>The host will create an Indexed Job in this cluster, one pod a shard, each sending load:</p>
      <dl className="kube-confirm" data-testid="kube-confirm-values">
        <dt>Context</dt>
        <dd data-testid="kube-confirm-context">{pending.values.context}</dd>
        <dt>Namespace</dt>
        <dd data-testid="kube-confirm-namespace">{pending.values.namespace}</dd>
        <dt>Image</dt>
        <dd data-testid="kube-confirm-image">{pending.values.image}</dd>
        <dt>Pods</dt>
        <dd data-testid="kube-confirm-pods">{pending.values.pods}</dd>
      </dl>
    </Dialog>
  );

  return { start, dialog };
}
