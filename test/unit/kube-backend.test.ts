import { PassThrough, type Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { ConfigMapManifest, JobManifest } from '../../shared/distributed/manifests.ts';
import { hopeless, podView, type PodLike } from '../../shared/distributed/pod-state.ts';
import { KubernetesBackend, type KubeClient } from '../../electron/distributed/kubernetes-backend.ts';

/** A client that records the calls and answers with the pods the test sets. */
class FakeClient implements KubeClient {
  calls: string[] = [];
  pods: PodLike[] = [];
  logs = new Map<string, Writable>();
  failJob = false;
  createConfigMap(body: ConfigMapManifest): Promise<void> {
    this.calls.push(`create ConfigMap ${body.metadata.name}`);
    return Promise.resolve();
  }
  createJob(body: JobManifest): Promise<void> {
    this.calls.push(`create Job ${body.metadata.name} x${body.spec.completions}`);
    return this.failJob ? Promise.reject(new Error('jobs.batch is forbidden')) : Promise.resolve();
  }
  listPods(): Promise<PodLike[]> {
    return Promise.resolve(this.pods);
  }
  followLog(_ns: string, pod: string, container: string, out: Writable) {
    this.calls.push(`follow ${pod}/${container}`);
    this.logs.set(pod, out);
    return Promise.resolve({ abort: () => this.calls.push(`abort ${pod}`) });
  }
  deleteJob(ns: string, name: string): Promise<void> {
    this.calls.push(`delete Job ${ns}/${name}`);
    return Promise.resolve();
  }
  deleteConfigMap(ns: string, name: string): Promise<void> {
    this.calls.push(`delete ConfigMap ${ns}/${name}`);
    return Promise.resolve();
  }
}

const pod = (index: number, status: PodLike['status']): PodLike => ({
  metadata: {
    name: `run-a-${index}-x`,
    labels: { 'batch.kubernetes.io/job-completion-index': String(index) },
  },
  status,
});
const UNSCHEDULABLE = pod(1, {
  phase: 'Pending',
  conditions: [
    {
      type: 'PodScheduled',
      status: 'False',
      reason: 'Unschedulable',
      message: '0/3 nodes are available: 3 Insufficient cpu.',
    },
  ],
});

function backend(client: FakeClient, clock: { now: number }) {
  return new KubernetesBackend({
    client,
    name: 'run-a',
    namespace: 'load',
    image: 'img',
    cpu: 2,
    nodeSelector: {},
    pollMs: 5,
    lateMs: 1000,
    now: () => clock.now,
  });
}

const lines = async (it: AsyncIterable<string>): Promise<string[]> => {
  const out: string[] = [];
  for await (const l of it) out.push(l);
  return out;
};

describe('the Kubernetes backend (a fake client)', () => {
  it('creates the ConfigMap then the Job, follows a running pod, ends a finished one, deletes both', async () => {
    const client = new FakeClient();
    const clock = { now: 0 };
    const b = backend(client, clock);
    await b.start({ planText: '{}', count: 2, startAt: 10_000 });
    expect(client.calls).toEqual(['create ConfigMap run-a', 'create Job run-a x2']);
    client.pods = [pod(0, { phase: 'Running' }), pod(1, { phase: 'Pending' })];
    const shard0 = lines(b.lines(0));
    await expect.poll(() => client.logs.has('run-a-0-x')).toBe(true);
    client.logs.get('run-a-0-x')!.end('{"a":1}\n{"b":2}\n');
    client.pods = [pod(0, { phase: 'Succeeded' }), pod(1, { phase: 'Running' })];
    expect(await b.ended(0)).toEqual({ failure: null });
    expect(await shard0).toEqual(['{"a":1}', '{"b":2}']);
    await b.cleanup();
    expect(client.calls.slice(-2)).toEqual(['delete Job load/run-a', 'delete ConfigMap load/run-a']);
  });

  it("fails a pod not running by the start time with the scheduler's reason, and ends its output", async () => {
    const client = new FakeClient();
    const clock = { now: 0 };
    const b = backend(client, clock);
    await b.start({ planText: '{}', count: 2, startAt: 10_000 });
    client.pods = [pod(0, { phase: 'Running' }), UNSCHEDULABLE];
    await new Promise((r) => setTimeout(r, 30));
    clock.now = 11_500; // past the start and its second of grace
    expect((await b.ended(1)).failure).toBe(
      'pod run-a-1-x not running by the start time: Unschedulable: 0/3 nodes are available: 3 Insufficient cpu.',
    );
    expect(await lines(b.lines(1))).toEqual([]);
    await b.cleanup();
    expect(client.calls).toContain('delete Job load/run-a');
  });

  it('fails at once a pod whose image cannot be pulled, and one killed for memory', async () => {
    const client = new FakeClient();
    const b = backend(client, { now: 0 });
    await b.start({ planText: '{}', count: 2, startAt: 10_000 });
    client.pods = [
      pod(0, {
        phase: 'Pending',
        containerStatuses: [
          { name: 'shard', state: { waiting: { reason: 'ErrImagePull', message: 'not found' } } },
        ],
      }),
      pod(1, {
        phase: 'Failed',
        containerStatuses: [{ name: 'shard', state: { terminated: { reason: 'OOMKilled', exitCode: 137 } } }],
      }),
    ];
    expect((await b.ended(0)).failure).toBe(
      'pod run-a-0-x not running by the start time: ErrImagePull: not found',
    );
    expect((await b.ended(1)).failure).toBe('pod run-a-1-x failed: OOMKilled (exit code 137)');
    await b.cleanup();
  });

  it('deletes the ConfigMap when the Job cannot be created', async () => {
    const client = new FakeClient();
    client.failJob = true;
    const b = backend(client, { now: 0 });
    await expect(b.start({ planText: '{}', count: 1, startAt: 10_000 })).rejects.toThrow('forbidden');
    await b.cleanup();
    expect(client.calls).toEqual([
      'create ConfigMap run-a',
      'create Job run-a x1',
      'delete ConfigMap load/run-a',
    ]);
  });
});

describe('podView', () => {
  it("reads a pod's phase and the reason it waits or failed", () => {
    expect(podView(pod(0, { phase: 'Running' }))).toEqual({ state: 'running' });
    expect(podView(UNSCHEDULABLE)).toEqual({
      state: 'waiting',
      reason: 'Unschedulable: 0/3 nodes are available: 3 Insufficient cpu.',
    });
    expect(podView(pod(0, { phase: 'Pending' }))).toEqual({ state: 'waiting', reason: 'pod Pending' });
    expect(hopeless('ImagePullBackOff: Back-off pulling image')).toBe(true);
    expect(hopeless('ContainerCreating')).toBe(false);
  });
});

describe('the Kubernetes backend when a log cannot be followed', () => {
  it('fails that shard only, naming its pod', async () => {
    const client = new FakeClient();
    client.followLog = (_ns, pod) =>
      pod === 'run-a-1-x'
        ? Promise.reject(new Error('pods "run-a-1-x" is forbidden'))
        : FakeClient.prototype.followLog.call(client, _ns, pod, 'shard', new PassThrough());
    const b = backend(client, { now: 0 });
    await b.start({ planText: '{}', count: 2, startAt: 10_000 });
    client.pods = [pod(0, { phase: 'Running' }), pod(1, { phase: 'Running' })];
    expect((await b.ended(1)).failure).toBe(
      'the log of pod run-a-1-x cannot be followed: pods "run-a-1-x" is forbidden',
    );
    await expect.poll(() => client.calls.includes('follow run-a-0-x/shard')).toBe(true);
    await b.cleanup();
    expect((await b.ended(0)).failure).toBe('stopped');
  });
});
