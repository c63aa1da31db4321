/**
 * `--on kubernetes`: each shard a pod of one Indexed Job (shared/distributed/manifests.ts), the
 * plan in a ConfigMap the Job owns, reached through the few API calls of KubeClient
 * (kubernetes-client.ts). The Job is created once every shard's link is open; its pods check the
 * target, warm up and wait. A pod's log is followed once it runs: it carries the shard's
 * messages (message-lines.ts; stderr lines in it are kept as its last words). The go is the
 * Job's `trebuchet.dev/go` annotation; a stop deletes the Job (each pod gets SIGTERM, stops its
 * load and logs its report). A pod that cannot run (an image that cannot be pulled) or that
 * failed (OOM, a non-zero exit) is a lost shard with the reason the API gives.
 */
import { Writable } from 'node:stream';
import type { LinkListener, ShardBackend, ShardLink } from '../engine/shards/links.ts';
import type { ShardData, ToShard } from '../engine/shards/messages.ts';
import {
  CONTAINER_NAME,
  GO_ANNOTATION,
  configMapManifest,
  jobManifest,
  type KubeRunSpec,
} from '../../shared/distributed/manifests.ts';
import { hopeless, podIndex, podView, type PodLike } from '../../shared/distributed/pod-state.ts';
import type { KubeClient } from './kubernetes-client.ts';
import { isMessageLine, MessageLines } from './message-lines.ts';

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/**
 * What the go takes to reach every pod: the annotation written, then delivered by the API
 * server to each pod's watch (tens of ms on a quiet cluster, more with hundreds of watches),
 * then through the pod's own coordinator to its engine threads.
 */
const POD_START_MARGIN_MS = 2000;
/** A running pod logs a window every tick; its log, through the kubelet and the API server, may lag by seconds. */
export const POD_SILENCE_MS = 30_000;
/** The API failing this many polls in a row fails every shard: the run cannot be followed. */
const FAILED_POLLS = 3;

export interface PodLinksOptions {
  client: KubeClient;
  run: KubeRunSpec;
  readyTimeoutMs: number;
  /** How often the pods are listed, ms. */
  pollMs?: number;
}

interface Pod {
  listener: LinkListener;
  following: { abort(): void } | null;
  /** Its log ended (its container ended). */
  logEnded: boolean;
  waiting: string | null;
  lastWords: string;
  gone: boolean;
  closed: boolean;
}

export class PodLinks implements ShardBackend {
  readonly kind = 'machine';
  readonly startMarginMs = POD_START_MARGIN_MS;
  readonly silenceMs = POD_SILENCE_MS;
  readonly readyTimeoutMs: number;
  readonly #o: PodLinksOptions;
  readonly #pods: Pod[] = [];
  readonly #created = { configMap: false, job: false };
  #timer: NodeJS.Timeout | null = null;
  #polling = false;
  #failedPolls = 0;
  #went = false;
  #stopped = false;
  #cleaned: Promise<void> | null = null;

  constructor(options: PodLinksOptions) {
    this.#o = options;
    this.readyTimeoutMs = options.readyTimeoutMs;
  }

  get name(): string {
    return this.#o.run.name;
  }

  open(data: ShardData, listener: LinkListener): ShardLink {
    const pod: Pod = {
      listener,
      following: null,
      logEnded: false,
      waiting: null,
      lastWords: '',
      gone: false,
      closed: false,
    };
    this.#pods[data.shard.index] = pod;
    if (this.#pods.filter(Boolean).length === this.#o.run.count) void this.#launch();
    return {
      send: (m: ToShard) => (m.type === 'start' ? this.#go(m.at) : this.#stop()),
      close: () => {
        pod.gone = true;
        pod.closed = true;
        pod.following?.abort();
        if (this.#pods.every((p) => p.closed)) void this.dispose().catch(() => undefined);
      },
      waiting: () => pod.waiting,
    };
  }

  #lose(pod: Pod, reason: string): void {
    if (pod.gone) return;
    pod.gone = true;
    pod.following?.abort();
    pod.listener.lost(pod.lastWords ? `${reason} (its log said: ${pod.lastWords})` : reason);
  }

  #loseAll(reason: string): void {
    for (const pod of this.#pods) this.#lose(pod, reason);
  }

  /** The ConfigMap, the Job, the Job made the ConfigMap's owner; then the pods are watched. */
  async #launch(): Promise<void> {
    const { client, run } = this.#o;
    try {
      await client.createConfigMap(configMapManifest(run));
      this.#created.configMap = true;
      const job = await client.createJob(jobManifest(run));
      this.#created.job = true;
      await client.ownConfigMap(run.namespace, run.name, { name: run.name, uid: job.uid });
    } catch (e) {
      this.#loseAll(
        `failed: the Kubernetes API refused the run's objects in namespace ${run.namespace}: ${messageOf(e)}`,
      );
      return;
    }
    if (this.#cleaned) return;
    this.#timer = setInterval(() => void this.#poll(), this.#o.pollMs ?? 1000);
  }

  /** Every pod is ready: the common start on the Job, for every pod's watch. */
  #go(at: number): void {
    if (this.#went) return;
    this.#went = true;
    const { client, run } = this.#o;
    client
      .annotateJob(run.namespace, run.name, GO_ANNOTATION, new Date(at).toISOString())
      .catch((e: unknown) =>
        this.#loseAll(`failed: the go could not be set on Job ${run.name}: ${messageOf(e)}`),
      );
  }

  /** Deleting the Job deletes its pods: each shard gets SIGTERM, stops and logs its report. */
  #stop(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    const { client, run } = this.#o;
    if (this.#created.job) void client.deleteJob(run.namespace, run.name).catch(() => undefined);
  }

  async #poll(): Promise<void> {
    if (this.#polling || this.#cleaned) return;
    this.#polling = true;
    try {
      const { client, run } = this.#o;
      const pods = new Map<number, PodLike>();
      for (const pod of await client.listPods(run.namespace, run.name)) {
        const i = podIndex(pod);
        if (i !== null) pods.set(i, pod);
      }
      this.#failedPolls = 0;
      for (const [i, link] of this.#pods.entries()) {
        if (link.gone) continue;
        const pod = pods.get(i);
        if (!pod) continue;
        await this.#look(link, pod);
      }
    } catch (e) {
      if (++this.#failedPolls >= FAILED_POLLS)
        this.#loseAll(`failed: the Kubernetes API failed: ${messageOf(e)}`);
    } finally {
      this.#polling = false;
    }
  }

  /** One pod's status: still waiting (and why), its log to follow, or its end. */
  async #look(link: Pod, pod: PodLike): Promise<void> {
    const { client, run } = this.#o;
    const view = podView(pod);
    const name = pod.metadata?.name ?? 'its pod';
    if (view.state === 'waiting') {
      link.waiting = `pod ${name}: ${view.reason}`;
      if (hopeless(view.reason)) this.#lose(link, `failed: pod ${name} cannot run: ${view.reason}`);
      return;
    }
    link.waiting = null;
    if (!link.following && !link.logEnded) {
      const lines = new MessageLines({
        line: (text) => {
          // Its stderr shares its log: kept as its last words.
          if (!isMessageLine(text)) link.lastWords = text.slice(0, 500);
          else if (!link.gone) link.listener.message(text);
        },
        broken: (reason) => this.#lose(link, `failed: pod ${name} ${reason}`),
      });
      const out = new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(chunk);
          done();
        },
        final(done) {
          lines.end();
          link.logEnded = true;
          done();
        },
      });
      try {
        link.following = await client.followLog(run.namespace, name, CONTAINER_NAME, out);
      } catch (e) {
        this.#lose(link, `failed: the log of pod ${name} cannot be followed: ${messageOf(e)}`);
        return;
      }
    }
    if (view.state === 'failed') this.#lose(link, `failed: pod ${name} failed: ${view.reason}`);
    // A pod that ended well has logged its report, unless its log ended short.
    else if (view.state === 'succeeded' && link.logEnded)
      this.#lose(link, `failed: pod ${name} ended without its report`);
  }

  /** The Job (and with it its pods) and the ConfigMap deleted; safe to call more than once. */
  dispose(): Promise<void> {
    this.#cleaned ??= (async () => {
      if (this.#timer) clearInterval(this.#timer);
      for (const pod of this.#pods) {
        pod.gone = true;
        pod.following?.abort();
      }
      const { client, run } = this.#o;
      const problems: string[] = [];
      const attempt = async (what: string, call: () => Promise<void>) => {
        try {
          await call();
        } catch (e) {
          problems.push(`${what}: ${messageOf(e)}`);
        }
      };
      if (this.#created.job)
        await attempt(`Job ${run.name}`, () => client.deleteJob(run.namespace, run.name));
      if (this.#created.configMap)
        await attempt(`ConfigMap ${run.name}`, () => client.deleteConfigMap(run.namespace, run.name));
      if (problems.length > 0) {
        throw new Error(
          `could not delete ${problems.join('; ')} in namespace ${run.namespace}: delete them with kubectl`,
        );
      }
    })();
    return this.#cleaned;
  }
}
