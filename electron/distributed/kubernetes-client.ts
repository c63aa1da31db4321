/**
 * The few Kubernetes API calls a distributed run makes (KubeClient: a fake in tests), and the
 * real client on @kubernetes/client-node: the kubeconfig found as kubectl finds it
 * ($KUBECONFIG, ~/.kube/config, in-cluster), a context chosen or its current one. Loaded only
 * when a run goes to Kubernetes: by the coordinator (create, follow, annotate, delete) and by
 * each shard's pod (watch its Job for the go).
 */
import type { Writable } from 'node:stream';
import {
  BatchV1Api,
  CoreV1Api,
  KubeConfig,
  Log,
  PatchStrategy,
  Watch,
  setHeaderOptions,
} from '@kubernetes/client-node';
import { RUN_LABEL, type ConfigMapManifest, type JobManifest } from '../../shared/distributed/manifests.ts';
import type { PodLike } from '../../shared/distributed/pod-state.ts';

/** The API calls of a run on Kubernetes; a fake in tests. */
export interface KubeClient {
  createConfigMap(body: ConfigMapManifest): Promise<void>;
  /** Creates the Job; its uid names it as the ConfigMap's owner. */
  createJob(body: JobManifest): Promise<{ uid: string }>;
  /** The Job owns the ConfigMap: deleting the Job (or its TTL) deletes the plan with it. */
  ownConfigMap(namespace: string, name: string, job: { name: string; uid: string }): Promise<void>;
  /** Sets one annotation of the Job (the go its shards watch). */
  annotateJob(namespace: string, name: string, key: string, value: string): Promise<void>;
  /**
   * Follows the Job's annotations: `on` hears them as they are now, then at each change, until
   * the returned stop; `problem` hears a watch that broke (it is watched again).
   */
  watchJob(
    namespace: string,
    name: string,
    on: (annotations: Record<string, string>) => void,
    problem: (message: string) => void,
  ): () => void;
  /** The run's pods (by its label). */
  listPods(namespace: string, runName: string): Promise<PodLike[]>;
  /** Follows a container's log into `out` (ended when the container ends); returns how to stop following. */
  followLog(namespace: string, pod: string, container: string, out: Writable): Promise<{ abort(): void }>;
  /** Deletes the Job and its pods; a missing one is not an error. */
  deleteJob(namespace: string, name: string): Promise<void>;
  deleteConfigMap(namespace: string, name: string): Promise<void>;
}

function loadConfig(context: string | null): KubeConfig {
  const config = new KubeConfig();
  config.loadFromDefault();
  if (context !== null) {
    if (!config.getContexts().some((c) => c.name === context)) {
      const names = config.getContexts().map((c) => c.name);
      throw new Error(`the kubeconfig has no context "${context}" (it has: ${names.join(', ') || 'none'})`);
    }
    config.setCurrentContext(context);
  }
  return config;
}

/** The kubeconfig's contexts and its current one (the app's Run tab lists them). */
export function kubeContexts(): { contexts: string[]; current: string | null } {
  const config = new KubeConfig();
  config.loadFromDefault();
  return { contexts: config.getContexts().map((c) => c.name), current: config.getCurrentContext() || null };
}

/**
 * The namespace a context names (kubectl's default for it; in a pod, the pod's own), or null:
 * no kubeconfig, or a context without one.
 */
export function kubeNamespace(context: string | null): string | null {
  try {
    const config = loadConfig(context);
    return config.getContextObject(config.getCurrentContext())?.namespace ?? null;
  } catch {
    return null;
  }
}

/** A 404 on delete: already gone (the Job's TTL, a second clean-up). */
const notFound = (e: unknown): boolean => (e as { code?: number }).code === 404;
const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
/** A watch that ended (the API server closes them every few minutes) or broke is opened again after this. */
const REWATCH_MS = 1000;

export function kubeClient(context: string | null): KubeClient {
  const config = loadConfig(context);
  const core = config.makeApiClient(CoreV1Api);
  const batch = config.makeApiClient(BatchV1Api);
  const log = new Log(config);
  return {
    createConfigMap: async (body) => {
      await core.createNamespacedConfigMap({ namespace: body.metadata.namespace, body });
    },
    createJob: async (body) => {
      const job = await batch.createNamespacedJob({ namespace: body.metadata.namespace, body });
      return { uid: job.metadata?.uid ?? '' };
    },
    ownConfigMap: async (namespace, name, job) => {
      const owner = { apiVersion: 'batch/v1', kind: 'Job', name: job.name, uid: job.uid };
      await core.patchNamespacedConfigMap(
        { name, namespace, body: { metadata: { ownerReferences: [owner] } } },
        mergePatch,
      );
    },
    annotateJob: async (namespace, name, key, value) => {
      await batch.patchNamespacedJob(
        { name, namespace, body: { metadata: { annotations: { [key]: value } } } },
        mergePatch,
      );
    },
    watchJob: (namespace, name, on, problem) => {
      let stopped = false;
      let request: AbortController | null = null;
      let timer: NodeJS.Timeout | null = null;
      const watch = new Watch(config);
      const open = (): void => {
        if (stopped) return;
        const again = (err: unknown): void => {
          if (stopped) return;
          if (err) problem(err instanceof Error ? err.message : JSON.stringify(err));
          timer = setTimeout(open, REWATCH_MS);
        };
        watch
          .watch(
            `/apis/batch/v1/namespaces/${namespace}/jobs`,
            { fieldSelector: `metadata.name=${name}` },
            (_type, job: { metadata?: { annotations?: Record<string, string> } }) =>
              on(job.metadata?.annotations ?? {}),
            again,
          )
          .then((r) => {
            request = r;
            if (stopped) r.abort();
          }, again);
      };
      open();
      return () => {
        stopped = true;
        if (timer) clearTimeout(timer);
        request?.abort();
      };
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
