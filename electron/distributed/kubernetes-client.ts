/**
 * The KubeClient of the Kubernetes backend on @kubernetes/client-node: the kubeconfig found as
 * kubectl finds it ($KUBECONFIG, ~/.kube/config, in-cluster), a context chosen or its current
 * one. Loaded only when a run goes to Kubernetes.
 */
import { BatchV1Api, CoreV1Api, KubeConfig, Log } from '@kubernetes/client-node';
import { RUN_LABEL } from '../../shared/distributed/manifests.ts';
import type { KubeClient } from './kubernetes-backend.ts';

/** The kubeconfig's contexts and its current one (the app's Run tab lists them). */
export function kubeContexts(): { contexts: string[]; current: string | null } {
  const config = new KubeConfig();
  config.loadFromDefault();
  return { contexts: config.getContexts().map((c) => c.name), current: config.getCurrentContext() || null };
}

/** A 404 on delete: already gone (the Job's TTL, a second clean-up). */
const notFound = (e: unknown): boolean => (e as { code?: number }).code === 404;

export function kubeClient(context: string | null): KubeClient {
  const config = new KubeConfig();
  config.loadFromDefault();
  if (context !== null) {
    if (!config.getContexts().some((c) => c.name === context)) {
      throw new Error(
        `the kubeconfig has no context "${context}" (it has: ${
          config
            .getContexts()
            .map((c) => c.name)
            .join(', ') || 'none'
        })`,
      );
    }
    config.setCurrentContext(context);
  }
  const core = config.makeApiClient(CoreV1Api);
  const batch = config.makeApiClient(BatchV1Api);
  const log = new Log(config);
  return {
    createConfigMap: async (body) => {
      await core.createNamespacedConfigMap({ namespace: body.metadata.namespace, body: body });
    },
    createJob: async (body) => {
      await batch.createNamespacedJob({ namespace: body.metadata.namespace, body: body });
    },
    listPods: async (namespace, runName) =>
      (await core.listNamespacedPod({ namespace, labelSelector: `${RUN_LABEL}=${runName}` })).items,
    followLog: (namespace, pod, container, out) => log.log(namespace, pod, container, out, { follow: true }),
    deleteJob: async (namespace, name) => {
      try {
        await batch.deleteNamespacedJob({ name, namespace, propagationPolicy: 'Background' });
      } catch (e) {
        if (!notFound(e)) throw e;
      }
    },
    deleteConfigMap: async (namespace, name) => {
      try {
        await core.deleteNamespacedConfigMap({ name, namespace });
      } catch (e) {
        if (!notFound(e)) throw e;
      }
    },
  };
}
