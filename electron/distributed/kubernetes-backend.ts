/**
 * `--on kubernetes`: the plan in a ConfigMap and the shards as an Indexed Job's pods
 * (shared/distributed/manifests.ts), through the few API calls of KubeClient (the real one in
 * kubernetes-client.ts). The pods are watched by polling: each one's log is followed once it
 * runs; one still not running at the start time (unschedulable, an image that cannot be
 * pulled), or failed (OOM, a non-zero exit), fails its shard with the reason the API gives.
 */
import { PassThrough, type Writable } from 'node:stream';
import { createInterface } from 'node:readline';
import {
  CONTAINER_NAME,
  configMapManifest,
  jobManifest,
  type ConfigMapManifest,
  type JobManifest,
} from '../../shared/distributed/manifests.ts';
import { hopeless, podIndex, podView, type PodLike } from '../../shared/distributed/pod-state.ts';
import type { DistributedBackend, ShardEnd, ShardLaunch } from './backend.ts';

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** The API calls the backend makes; a fake in tests. */
export interface KubeClient {
  createConfigMap(body: ConfigMapManifest): Promise<void>;
  createJob(body: JobManifest): Promise<void>;
  /** The run's pods (by its label). */
  listPods(namespace: string, runName: string): Promise<PodLike[]>;
  /** Follows a container's log into `out` (ended when the container ends); returns how to stop following. */
  followLog(namespace: string, pod: string, container: string, out: Writable): Promise<{ abort(): void }>;
  /** Deletes the Job and its pods; a missing one is not an error. */
  deleteJob(namespace: string, name: string): Promise<void>;
  deleteConfigMap(namespace: string, name: string): Promise<void>;
}

export interface KubernetesOptions {
  client: KubeClient;
  name: string;
  namespace: string;
  image: string;
  cpu: number;
  nodeSelector: Record<string, string>;
  /** How often the pods are listed, ms. */
  pollMs?: number;
  /** A pod may start running this long after the start time (its load then starts late, its offset says so). */
  lateMs?: number;
  now?: () => number;
}

interface Shard {
  out: PassThrough;
  following: { abort(): void } | null;
  end: ShardEnd | null;
  settle: (end: ShardEnd) => void;
  ended: Promise<ShardEnd>;
}

export class KubernetesBackend implements DistributedBackend {
  readonly name: string;
  readonly #o: KubernetesOptions;
  #shards: Shard[] = [];
  #created = { configMap: false, job: false };
  #timer: NodeJS.Timeout | null = null;
  #startAt = 0;
  #polling = false;
  #stopping = false;
  #cleaned: Promise<void> | null = null;

  constructor(options: KubernetesOptions) {
    this.#o = options;
    this.name = `kubernetes (namespace ${options.namespace})`;
  }

  async start(launch: ShardLaunch): Promise<void> {
    const { name, namespace, image, cpu, nodeSelector, client } = this.#o;
    const spec = {
      name,
      namespace,
      image,
      cpu,
      nodeSelector,
      count: launch.count,
      startAt: launch.startAt,
      planText: launch.planText,
    };
    this.#startAt = launch.startAt;
    this.#shards = Array.from({ length: launch.count }, () => {
      let settle!: (end: ShardEnd) => void;
      const ended = new Promise<ShardEnd>((resolve) => (settle = resolve));
      const out = new PassThrough();
      // A failed shard's output is ended at once; its log may still deliver a chunk after that.
      out.on('error', () => undefined);
      return { out, following: null, end: null, settle, ended };
    });
    await client.createConfigMap(configMapManifest(spec));
    this.#created.configMap = true;
    await client.createJob(jobManifest(spec));
    this.#created.job = true;
    this.#timer = setInterval(() => void this.#poll(), this.#o.pollMs ?? 1000);
  }

  lines(index: number): AsyncIterable<string> {
    return createInterface({ input: this.#shards[index]!.out, crlfDelay: Infinity });
  }

  ended(index: number): Promise<ShardEnd> {
    return this.#shards[index]!.ended;
  }

  #finish(shard: Shard, end: ShardEnd): void {
    if (shard.end) return;
    shard.end = end;
    // A failed shard's log is not waited for: its output ends here.
    if (end.failure !== null) {
      shard.following?.abort();
      shard.out.end();
    }
    shard.settle(end);
  }

  async #poll(): Promise<void> {
    if (this.#polling || this.#cleaned) return;
    this.#polling = true;
    try {
      const { client, namespace, name } = this.#o;
      const now = (this.#o.now ?? Date.now)();
      const late = now > this.#startAt + (this.#o.lateMs ?? 1000);
      const pods = new Map<number, PodLike>();
      for (const pod of await client.listPods(namespace, name)) {
        const i = podIndex(pod);
        if (i !== null) pods.set(i, pod);
      }
      for (const [i, shard] of this.#shards.entries()) {
        if (shard.end) continue;
        const pod = pods.get(i);
        if (!pod) {
          // Stopping deletes the pods: their logs end on their own, with what they measured.
          if (late && !this.#stopping)
            this.#finish(shard, { failure: 'no pod was created for it by the start time' });
          continue;
        }
        const view = podView(pod);
        const podName = pod.metadata?.name ?? `index ${i}`;
        if (view.state === 'waiting') {
          if (late || hopeless(view.reason))
            this.#finish(shard, { failure: `pod ${podName} not running by the start time: ${view.reason}` });
          continue;
        }
        if (!shard.following) {
          try {
            shard.following = await client.followLog(namespace, podName, CONTAINER_NAME, shard.out);
          } catch (e) {
            this.#finish(shard, { failure: `the log of pod ${podName} cannot be followed: ${messageOf(e)}` });
            continue;
          }
        }
        if (view.state === 'failed')
          this.#finish(shard, { failure: `pod ${podName} failed: ${view.reason}` });
        else if (view.state === 'succeeded') this.#finish(shard, { failure: null });
      }
    } catch (e) {
      // The API not answering fails every shard still going: the run cannot be followed.
      const reason = `the Kubernetes API failed: ${messageOf(e)}`;
      for (const shard of this.#shards) this.#finish(shard, { failure: reason });
    } finally {
      this.#polling = false;
    }
  }

  /** Deleting the Job deletes its pods: each shard gets SIGTERM, stops and writes its partial result. */
  async stop(): Promise<void> {
    this.#stopping = true;
    if (this.#created.job) await this.#o.client.deleteJob(this.#o.namespace, this.#o.name);
  }

  cleanup(): Promise<void> {
    this.#cleaned ??= (async () => {
      if (this.#timer) clearInterval(this.#timer);
      const { client, namespace, name } = this.#o;
      for (const shard of this.#shards) {
        shard.following?.abort();
        shard.out.end();
        this.#finish(shard, { failure: 'stopped' });
      }
      const problems: string[] = [];
      const attempt = async (what: string, call: () => Promise<void>) => {
        try {
          await call();
        } catch (e) {
          problems.push(`${what}: ${messageOf(e)}`);
        }
      };
      if (this.#created.job) await attempt(`Job ${name}`, () => client.deleteJob(namespace, name));
      if (this.#created.configMap)
        await attempt(`ConfigMap ${name}`, () => client.deleteConfigMap(namespace, name));
      if (problems.length > 0) {
        throw new Error(
          `could not delete ${problems.join('; ')} in namespace ${namespace}: delete them with kubectl`,
        );
      }
    })();
    return this.#cleaned;
  }
}
