import { useEffect, useState } from 'react';
import type { TrebuchetApi } from '../../../shared/contract/api.ts';
import { DEFAULT_NAMESPACE } from '../../../shared/distributed/placement.ts';
import { KUBERNETES_NOT_ALLOWED } from '../../../shared/distributed/kube-confirmation.ts';
import { Segmented, SelectField, TextField } from '../../editor/fields.tsx';
import { Section } from '../../editor/Section.tsx';
import type { ShardsDraft, ShardWhere } from './shards.ts';

interface ShardsChoiceProps {
  api: TrebuchetApi;
  draft: ShardsDraft;
  onChange: (draft: ShardsDraft) => void;
  disabled: boolean;
}

const WHERE: readonly { value: ShardWhere; label: string; title: string }[] = [
  { value: 'here', label: 'Here', title: 'One run on this host' },
  { value: 'local', label: 'Shards here', title: 'N shard processes on this host, merged live' },
  { value: 'kubernetes', label: 'Kubernetes', title: 'An Indexed Job, one pod a shard, merged live' },
];

const sentence = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1) + '.';

/**
 * Where the Run tab's scenario runs: here, or split into shards (processes on the host, or
 * Kubernetes pods: context from the host's kubeconfig, namespace, image), merged live into the
 * same view and one result with a Shards table.
 */
export function ShardsChoice({ api, draft, onChange, disabled }: ShardsChoiceProps) {
  const [contexts, setContexts] = useState<{
    names: string[];
    current: string | null;
    problem: string | null;
    allowed: boolean;
  }>();
  const onKubernetes = draft.where === 'kubernetes';
  useEffect(() => {
    if (!onKubernetes || contexts) return;
    api.kube.contexts().then(
      (c) => setContexts({ names: c.contexts, current: c.current, problem: c.problem, allowed: c.allowed }),
      // Unknown: the host's own refusal at the start says it.
      (e: unknown) => setContexts({ names: [], current: null, problem: String(e), allowed: true }),
    );
  }, [api, onKubernetes, contexts]);
  const set = (change: Partial<ShardsDraft>) => onChange({ ...draft, ...change });
  const summary =
    draft.where === 'here' ? 'here' : `${draft.count} shards ${onKubernetes ? 'on Kubernetes' : 'here'}`;
  return (
    <fieldset className="editor" disabled={disabled} data-testid="shards-choice">
      <Section title="Where it runs" summary={summary} defaultOpen={false}>
        <Segmented
          label="Run on"
          value={draft.where}
          options={WHERE}
          onChange={(where) => set({ where })}
          testId="shards-where"
        />
        {onKubernetes && contexts?.allowed === false && (
          <p className="field__error" role="alert" data-testid="shards-kubernetes-refused">
            {sentence(KUBERNETES_NOT_ALLOWED)}
          </p>
        )}
        {draft.where !== 'here' && (
          <TextField
            label="Shards"
            value={draft.count}
            numeric
            onChange={(count) => set({ count })}
            testId="shards-count"
            hint="The load is split as between threads; the shards start together once all are ready, and merge exactly."
          />
        )}
        {onKubernetes && (
          <>
            <SelectField
              label="Context"
              value={draft.context}
              options={[
                { value: '', label: `Current${contexts?.current ? ` (${contexts.current})` : ''}` },
                ...(contexts?.names ?? []).map((n) => ({ value: n, label: n })),
              ]}
              onChange={(context) => set({ context })}
              testId="shards-context"
            />
            {contexts?.problem && (
              <p className="muted" data-testid="shards-kubeconfig-problem">
                The host's kubeconfig: {contexts.problem}
              </p>
            )}
            <TextField
              label="Namespace"
              value={draft.namespace}
              placeholder={`the context's, else ${DEFAULT_NAMESPACE}`}
              onChange={(namespace) => set({ namespace })}
              testId="shards-namespace"
            />
            <TextField
              label="Image"
              value={draft.image}
              placeholder="registry.example.com/trebuchet:1"
              onChange={(image) => set({ image })}
              testId="shards-image"
              hint="Built from resources/docker/Dockerfile; RBAC: resources/kubernetes/rbac.yaml."
            />
          </>
        )}
      </Section>
    </fieldset>
  );
}
