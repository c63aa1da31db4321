import { describe, expect, it } from 'vitest';
import { hopeless, podView, type PodLike } from '../../shared/distributed/pod-state.ts';
import { GO_ANNOTATION, type KubeRunSpec } from '../../shared/distributed/manifests.ts';
import { splitLoad } from '../../shared/shards/plan.ts';
import type { LinkListener, ShardLink } from '../../electron/engine/shards/links.ts';
import { PodLinks } from '../../electron/distributed/pod-links.ts';
import { FakeCluster } from '../helpers/fake-kube.ts';
import { oneTarget, runSpecFixture } from '../helpers/engine.ts';

/*
 * The pods of a run as the coordinator's links (pod-links.ts), against a fake API client: the
 * objects created once every link is open, the ConfigMap given to the Job, the go as the Job's
 * annotation, a stop as the Job's deletion, and a pod that cannot run or failed as a lost
 * shard with the reason the API gives.
 */

const RUN: KubeRunSpec = {
  name: 'run-a',
  namespace: 'load',
  image: 'img',
  count: 2,
  planText: '{}',
  cpu: 2,
  nodeSelector: {},
  deadlineSeconds: 400,
};

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

/** Both links opened as the coordinator opens them, each one's messages and loss recorded. */
function open(client: FakeCluster) {
  const links = new PodLinks({ client, run: RUN, readyTimeoutMs: 60_000, pollMs: 5 });
  const spec = runSpecFixture(oneTarget('http://127.0.0.1:9/'));
  const heard = [0, 1].map(() => ({ messages: [] as unknown[], lost: [] as string[] }));
  const ends: ShardLink[] = splitLoad(spec.load, 2).map((shard, i) => {
    const listener: LinkListener = {
      message: (m) => heard[i]!.messages.push(m),
      lost: (r) => heard[i]!.lost.push(r),
      slot: (n) => heard[i]!.messages.push({ found: n }),
    };
    return links.open({ spec, shard }, listener);
  });
  return { links, ends, heard };
}

describe('the pods of a run as its links (a fake API client)', () => {
  it('creates the ConfigMap then the Job, makes the Job its owner, follows a running pod, passes its lines on', async () => {
    const client = new FakeCluster();
    const { links, ends, heard } = open(client);
    await expect
      .poll(() => client.calls.slice(0, 3))
      .toEqual([
        'create ConfigMap load/run-a',
        'create Job load/run-a x2',
        'own ConfigMap load/run-a by Job run-a uid-1',
      ]);
    expect(client.configMaps.get('run-a')!.metadata.ownerReferences).toEqual([
      { apiVersion: 'batch/v1', kind: 'Job', name: 'run-a', uid: 'uid-1' },
    ]);
    client.pods = [pod(0, { phase: 'Running' }), pod(1, { phase: 'Pending' })];
    await expect.poll(() => client.calls.includes('follow run-a-0-x/shard')).toBe(true);
    expect(ends[1]!.waiting!()).toBe('pod run-a-1-x: pod Pending');
    await links.dispose();
    expect(client.calls.slice(-2)).toEqual(['delete Job load/run-a', 'delete ConfigMap load/run-a']);
    expect(heard.map((h) => h.lost)).toEqual([[], []]);
  });

  it('gives the go once, as the Job annotation, and a stop once, as its deletion', async () => {
    const client = new FakeCluster();
    const { links, ends } = open(client);
    await expect.poll(() => client.jobs.has('run-a')).toBe(true);
    const at = Date.parse('2026-12-02T10:00:02.500Z');
    for (const e of ends) e.send({ type: 'start', at });
    await expect
      .poll(() => client.jobs.get('run-a')!.annotations)
      .toEqual({ [GO_ANNOTATION]: '2026-12-02T10:00:02.500Z' });
    expect(client.calls.filter((c) => c.startsWith('annotate'))).toHaveLength(1);
    for (const e of ends) e.send({ type: 'stop' });
    expect(client.calls.filter((c) => c.startsWith('delete Job'))).toHaveLength(1);
    await links.dispose();
  });

  it('loses a pod whose image cannot be pulled at once, and one killed for memory, with the reason the API gives', async () => {
    const client = new FakeCluster();
    const { links, heard } = open(client);
    await expect.poll(() => client.jobs.has('run-a')).toBe(true);
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
    await expect.poll(() => heard.map((h) => h.lost.length)).toEqual([1, 1]);
    expect(heard[0]!.lost).toEqual(['failed: pod run-a-0-x cannot run: ErrImagePull: not found']);
    expect(heard[1]!.lost).toEqual(['failed: pod run-a-1-x failed: OOMKilled (exit code 137)']);
    await links.dispose();
  });

  it('says why a pod waits (the scheduler), for the coordinator to name when it gives up', async () => {
    const client = new FakeCluster();
    const { links, ends, heard } = open(client);
    await expect.poll(() => client.jobs.has('run-a')).toBe(true);
    client.pods = [pod(0, { phase: 'Running' }), UNSCHEDULABLE];
    await expect
      .poll(() => ends[1]!.waiting!())
      .toBe('pod run-a-1-x: Unschedulable: 0/3 nodes are available: 3 Insufficient cpu.');
    // Waiting is not hopeless: the coordinator's ready timeout decides.
    expect(heard[1]!.lost).toEqual([]);
    await links.dispose();
  });

  it('loses every shard when the Job is refused, and deletes the ConfigMap it made', async () => {
    const client = new FakeCluster();
    client.refuseJob = 'jobs.batch is forbidden: User "x" cannot create resource "jobs"';
    const { links, heard } = open(client);
    await expect.poll(() => heard.map((h) => h.lost.length)).toEqual([1, 1]);
    expect(heard[0]!.lost[0]).toBe(
      'failed: the Kubernetes API refused the run\'s objects in namespace load: jobs.batch is forbidden: User "x" cannot create resource "jobs"',
    );
    await links.dispose();
    expect(client.calls).toEqual([
      'create ConfigMap load/run-a',
      'create Job load/run-a x2',
      'delete ConfigMap load/run-a',
    ]);
  });

  it('loses the shard whose log cannot be followed, naming its pod, and keeps its last words', async () => {
    const client = new FakeCluster();
    client.followLog = (_ns, name, _c, out) => {
      if (name === 'run-a-1-x') return Promise.reject(new Error('pods "run-a-1-x" is forbidden'));
      out.write('(node:7) Warning: something\n{"type":"ready"}\n');
      return Promise.resolve({ abort: () => undefined });
    };
    const { links, heard } = open(client);
    await expect.poll(() => client.jobs.has('run-a')).toBe(true);
    client.pods = [pod(0, { phase: 'Running' }), pod(1, { phase: 'Running' })];
    await expect
      .poll(() => heard[1]!.lost)
      .toEqual(['failed: the log of pod run-a-1-x cannot be followed: pods "run-a-1-x" is forbidden']);
    // A stderr line in a log is not a message: it is kept, and the messages still pass.
    await expect.poll(() => heard[0]!.messages).toEqual(['{"type":"ready"}']);
    client.pods = [
      pod(0, {
        phase: 'Failed',
        containerStatuses: [{ name: 'shard', state: { terminated: { exitCode: 1 } } }],
      }),
      pod(1, { phase: 'Running' }),
    ];
    await expect
      .poll(() => heard[0]!.lost)
      .toEqual([
        'failed: pod run-a-0-x failed: terminated (exit code 1) (its log said: (node:7) Warning: something)',
      ]);
    await links.dispose();
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
