/**
 * A Kubernetes API for tests, behind the KubeClient the runs call (no API server can run on the
 * test machines): it keeps ConfigMaps and Jobs, answers watches of a Job's annotations, and,
 * as a kubelet would, runs a created Job's pods: each pod's container command is the real
 * `trebuchet run` of the CLI, run in this process (its stdout and stderr are the pod's log),
 * its plan the ConfigMap's, its `$JOB_COMPLETION_INDEX` its index. Deleting the Job sends the
 * pods SIGTERM (the CLI's interrupt). Without `kubelet`, pods are the test's to set.
 */
import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, type Writable } from 'node:stream';
import type { ConfigMapManifest, JobManifest } from '../../shared/distributed/manifests.ts';
import { PLAN_MOUNT, READY_FILE } from '../../shared/distributed/manifests.ts';
import type { PodLike } from '../../shared/distributed/pod-state.ts';
import type { KubeClient } from '../../electron/distributed/kubernetes-client.ts';

interface FakePod {
  name: string;
  index: number;
  phase: 'Pending' | 'Running' | 'Succeeded' | 'Failed';
  exitCode: number | null;
  log: PassThrough;
  /** Everything logged so far, for a follower that comes late. */
  text: string;
  readyFile: string;
  terminate: (() => void) | null;
}

interface FakeJob {
  manifest: JobManifest;
  uid: string;
  annotations: Record<string, string>;
  watchers: Set<(annotations: Record<string, string>) => void>;
  pods: FakePod[];
}

/** What runs a pod's container: `trebuchet run` with these arguments, its output the pod's log. */
export type PodCommand = (
  argv: string[],
  log: Writable,
  onTerm: (stop: () => void) => void,
) => Promise<number>;

export class FakeCluster implements KubeClient {
  readonly calls: string[] = [];
  readonly configMaps = new Map<string, ConfigMapManifest & { metadata: { ownerReferences?: unknown[] } }>();
  readonly jobs = new Map<string, FakeJob>();
  /** Pods the test sets by hand (no kubelet). */
  pods: PodLike[] = [];
  /** Refuse the Job's creation with this message. */
  refuseJob: string | null = null;
  /** Every Job's pods, kept after the Job is deleted (their logs stay readable). */
  readonly #ran = new Map<string, FakePod[]>();
  /** Every value an annotation was set to, in order. */
  readonly annotations: { job: string; key: string; value: string }[] = [];
  readonly #kubelet: PodCommand | null;
  readonly #dir = mkdtempSync(join(tmpdir(), 'trebuchet-fake-kube-'));
  #uid = 0;

  constructor(kubelet: PodCommand | null = null) {
    this.#kubelet = kubelet;
  }

  createConfigMap(body: ConfigMapManifest): Promise<void> {
    this.calls.push(`create ConfigMap ${body.metadata.namespace}/${body.metadata.name}`);
    this.configMaps.set(body.metadata.name, structuredClone(body));
    return Promise.resolve();
  }

  createJob(body: JobManifest): Promise<{ uid: string }> {
    this.calls.push(`create Job ${body.metadata.namespace}/${body.metadata.name} x${body.spec.completions}`);
    if (this.refuseJob !== null) return Promise.reject(new Error(this.refuseJob));
    const uid = `uid-${++this.#uid}`;
    const job: FakeJob = {
      manifest: structuredClone(body),
      uid,
      annotations: {},
      watchers: new Set(),
      pods: [],
    };
    this.jobs.set(body.metadata.name, job);
    this.#ran.set(body.metadata.name, job.pods);
    if (this.#kubelet) for (let i = 0; i < body.spec.completions; i++) this.#run(job, i);
    return Promise.resolve({ uid });
  }

  ownConfigMap(namespace: string, name: string, job: { name: string; uid: string }): Promise<void> {
    this.calls.push(`own ConfigMap ${namespace}/${name} by Job ${job.name} ${job.uid}`);
    const map = this.configMaps.get(name);
    if (map) map.metadata.ownerReferences = [{ apiVersion: 'batch/v1', kind: 'Job', ...job }];
    return Promise.resolve();
  }

  /** `kubectl annotate job NAME key=value`, and the API's watch events. */
  annotateJob(namespace: string, name: string, key: string, value: string): Promise<void> {
    this.calls.push(`annotate Job ${namespace}/${name} ${key}`);
    const job = this.jobs.get(name);
    if (!job)
      return Promise.reject(Object.assign(new Error(`jobs.batch "${name}" not found`), { code: 404 }));
    job.annotations[key] = value;
    this.annotations.push({ job: name, key, value });
    for (const w of job.watchers) w({ ...job.annotations });
    return Promise.resolve();
  }

  watchJob(_namespace: string, name: string, on: (a: Record<string, string>) => void): () => void {
    const job = this.jobs.get(name);
    if (!job) return () => undefined;
    job.watchers.add(on);
    // A watch's first event is the object as it is.
    queueMicrotask(() => on({ ...job.annotations }));
    return () => job.watchers.delete(on);
  }

  listPods(): Promise<PodLike[]> {
    const run = [...this.jobs.values()].flatMap((j) => j.pods.map((p) => this.#view(p)));
    return Promise.resolve(this.#kubelet ? run : this.pods);
  }

  followLog(_ns: string, pod: string, container: string, out: Writable): Promise<{ abort(): void }> {
    this.calls.push(`follow ${pod}/${container}`);
    const p = [...this.jobs.values()].flatMap((j) => j.pods).find((x) => x.name === pod);
    if (p) {
      out.write(p.text);
      if (p.log.writableEnded) out.end();
      else {
        p.log.on('data', (chunk: Buffer) => out.write(chunk));
        p.log.on('end', () => out.end());
      }
    }
    return Promise.resolve({ abort: () => this.calls.push(`abort ${pod}`) });
  }

  deleteJob(namespace: string, name: string): Promise<void> {
    this.calls.push(`delete Job ${namespace}/${name}`);
    const job = this.jobs.get(name);
    this.jobs.delete(name);
    // Its pods get SIGTERM; the garbage collector takes the ConfigMap it owns.
    for (const p of job?.pods ?? []) p.terminate?.();
    for (const [key, map] of this.configMaps)
      if ((map.metadata.ownerReferences as { uid: string }[] | undefined)?.some((o) => o.uid === job?.uid))
        this.configMaps.delete(key);
    return Promise.resolve();
  }

  deleteConfigMap(namespace: string, name: string): Promise<void> {
    this.calls.push(`delete ConfigMap ${namespace}/${name}`);
    this.configMaps.delete(name);
    return Promise.resolve();
  }

  /** The pods of a Job that have written their ready file (the readiness probe's answer). */
  readyPods(job: string): number {
    return (this.#ran.get(job) ?? []).filter((p) => existsSync(p.readyFile)).length;
  }

  /** What the pods of a Job logged (after their end), one text each. */
  logs(job: string): string[] {
    return (this.#ran.get(job) ?? []).map((p) => p.text);
  }

  /** Every pod of every Job ended. */
  async settled(): Promise<void> {
    const pods = [...this.#ran.values()].flat();
    await Promise.all(
      pods.map((p) => (p.log.writableEnded ? Promise.resolve() : new Promise((r) => p.log.on('end', r)))),
    );
  }

  close(): void {
    rmSync(this.#dir, { recursive: true, force: true });
  }

  #view(p: FakePod): PodLike {
    const terminated =
      p.exitCode === null
        ? undefined
        : { exitCode: p.exitCode, reason: p.exitCode === 0 ? 'Completed' : 'Error' };
    return {
      metadata: { name: p.name, labels: { 'batch.kubernetes.io/job-completion-index': String(p.index) } },
      status: {
        phase: p.phase,
        containerStatuses: [{ name: 'shard', state: terminated ? { terminated } : { running: {} } }],
      },
    };
  }

  /** A pod as the kubelet runs it: the plan mounted, the index in its command, its output logged. */
  #run(job: FakeJob, index: number): void {
    const { manifest } = job;
    const name = `${manifest.metadata.name}-${index}-x${index}`;
    const dir = join(this.#dir, name);
    const plan = this.configMaps.get(manifest.spec.template.spec.volumes[0]!.configMap!.name);
    const container = manifest.spec.template.spec.containers[0]!;
    const readyFile = join(dir, 'ready');
    const argv = podArgv(container.command, index)
      .map((a) => a.replace(`${PLAN_MOUNT}/plan.json`, join(dir, 'plan.json')))
      .map((a) => (a === READY_FILE ? readyFile : a));
    const log = new PassThrough();
    const pod: FakePod = {
      name,
      index,
      phase: 'Running',
      exitCode: null,
      log,
      text: '',
      readyFile,
      terminate: null,
    };
    log.on('data', (chunk: Buffer) => (pod.text += chunk.toString()));
    job.pods.push(pod);
    void (async () => {
      const { mkdirSync } = await import('node:fs');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'plan.json'), plan?.data['plan.json'] ?? '{}');
      let code: number;
      try {
        code = await this.#kubelet!(argv, log, (stop) => (pod.terminate = stop));
      } catch (e) {
        log.write(`Error: ${e instanceof Error ? e.message : String(e)}\n`);
        code = 1;
      }
      pod.exitCode = code;
      pod.phase = code === 0 ? 'Succeeded' : 'Failed';
      log.end();
    })();
  }
}

/** The arguments after `trebuchet` of a shard's `sh -c "exec trebuchet ..."`, as the shell gives them for pod `index`. */
export function podArgv(command: readonly string[], index: number): string[] {
  const script = command[2]!.replace(/^exec trebuchet /, '');
  const words = script.match(/"[^"]*"|\S+/g) ?? [];
  return words
    .map((w) => w.replace(/^"|"$/g, ''))
    .map((w) => w.replace(/\$\(\(JOB_COMPLETION_INDEX \+ 1\)\)/, String(index + 1)));
}
