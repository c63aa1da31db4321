/**
 * `trebuchet serve` and Kubernetes (issue 33, item 8): without --allow-kubernetes a page holding
 * the token cannot start a Job, even by sending a made-up confirmation; with it, a job starts
 * only with the confirmation of exactly the context, namespace, image and pod count the host
 * resolves, and then starts those. The host runs in this process (`serve` as the CLI runs it)
 * against the fake API client (test/helpers/fake-kube.ts), whose kubelet runs each pod's real
 * `trebuchet run --shard` against a server on loopback.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCommand } from '../../electron/cli/run/command.ts';
import { serveCommand } from '../../electron/cli/serve-command.ts';
import type { JobEnvelope } from '../../shared/contract/jobs.ts';
import type { KubeConfirmation } from '../../shared/distributed/kube-confirmation.ts';
import { FakeCluster } from '../helpers/fake-kube.ts';
import { handlers, startHttpServer, type TestServer } from '../helpers/servers.ts';
import { connectToHost } from '../helpers/web-host-client.ts';

const cluster: { current: FakeCluster | null } = { current: null };
/** The contexts the host made API clients for. */
const clientContexts: (string | null)[] = [];

// The kubeconfig: contexts "lab" (current, namespace "load") and "prod" (no namespace).
vi.mock('../../electron/distributed/kubernetes-client.ts', () => ({
  kubeClient: (context: string | null) => {
    clientContexts.push(context);
    return cluster.current!;
  },
  kubeNamespace: (context: string | null) => (context === null || context === 'lab' ? 'load' : null),
  kubeContexts: () => ({ contexts: ['lab', 'prod'], current: 'lab' }),
}));

let server: TestServer;
let dir: string;
let staticDir: string;
beforeAll(async () => {
  server = await startHttpServer(handlers.ok('hello'));
  dir = mkdtempSync(join(tmpdir(), 'trebuchet-serve-kube-'));
  // serve needs a built page to serve; this one is never opened (the test speaks the WebSocket).
  staticDir = join(dir, 'renderer');
  mkdirSync(staticDir);
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>t</title>');
});
afterAll(async () => {
  await server?.close();
  cluster.current?.close();
  rmSync(dir, { recursive: true, force: true });
});

const sink = (add: (s: string) => void) =>
  new Writable({
    write(chunk: Buffer, _e, done) {
      add(chunk.toString());
      done();
    },
  });

/** The kubelet: a pod's container is `trebuchet run ...` in this process, its output the pod's log. */
const kubelet = (argv: string[], log: Writable, onTerm: (stop: () => void) => void) =>
  runCommand({
    argv: argv.slice(1),
    cwd: dir,
    appVersion: '0.0.0-test',
    stdout: log,
    stderr: log,
    onInterrupt: (handler) => {
      onTerm(handler);
      return () => undefined;
    },
  });

/** `trebuchet serve ...flags` in this process until stop() (its Ctrl-C); its port and token from what it prints. */
async function serve(flags: string[]) {
  let stdout = '';
  let stderr = '';
  let shutdown!: () => void;
  const exited = serveCommand({
    argv: ['--data-dir', mkdtempSync(join(dir, 'data-')), ...flags],
    cwd: dir,
    appVersion: '0.0.0-test',
    staticDir,
    stdout: sink((s) => (stdout += s)),
    stderr: sink((s) => (stderr += s)),
    untilShutdown: () => new Promise<void>((resolve) => (shutdown = resolve)),
  });
  await vi.waitFor(() => expect(stdout, stderr).toContain('Press Ctrl-C'), { timeout: 30_000 });
  const [, port, token] = /http:\/\/127\.0\.0\.1:(\d+)\/\?token=(\S+)/.exec(stdout)!;
  const conn = await connectToHost(Number(port), token!);
  return {
    stdout,
    api: conn.api,
    async stop() {
      conn.close();
      shutdown();
      expect(await exited).toBe(0);
    },
  };
}

const plan = () => ({
  name: 'on kubernetes',
  targets: [{ url: server.url }],
  load: { model: 'closed' as const, connections: 2, limit: { kind: 'duration' as const, seconds: 1 } },
  options: { workers: 1 },
});
/** Two pods of an image, the context and namespace left to the host's kubeconfig. */
const shards = {
  count: 2,
  readyTimeoutSeconds: null,
  kubernetes: { image: 'registry.test/trebuchet:1', namespace: null, context: null, nodeSelector: {} },
};
const lab: KubeConfirmation = {
  context: 'lab',
  namespace: 'load',
  image: 'registry.test/trebuchet:1',
  pods: 2,
};

describe('trebuchet serve and Kubernetes', () => {
  it('without --allow-kubernetes: the page is told how to allow it, and no job starts, confirmed or not', async () => {
    const fake = new FakeCluster(kubelet);
    cluster.current = fake;
    const host = await serve([]);
    try {
      expect(host.stdout).toContain('Runs on Kubernetes: refused (give --allow-kubernetes to allow them)');
      expect((await host.api.kube.contexts()).allowed).toBe(false);
      await expect(host.api.kube.preview({ shards })).rejects.toThrow(
        'shards.kubernetes: this web host does not start Kubernetes Jobs: restart it with `trebuchet serve --allow-kubernetes` to allow it',
      );
      // A page that skips the question and sends what it would have confirmed: refused the same.
      await expect(
        host.api.jobs.start({ kind: 'run', plan: plan(), shards, kubernetesConfirmed: lab }),
      ).rejects.toThrow('restart it with `trebuchet serve --allow-kubernetes`');
      // Shards on this machine stay allowed: the flag is about a cluster.
      expect(await host.api.jobs.active()).toEqual({ jobs: [] });
      expect(fake.calls).toEqual([]);
      expect(clientContexts).toEqual([]);
    } finally {
      await host.stop();
    }
  });

  it('with --allow-kubernetes: starts only what was confirmed, exactly those four values', async () => {
    const fake = new FakeCluster(kubelet);
    cluster.current = fake;
    const host = await serve(['--allow-kubernetes']);
    try {
      expect(host.stdout).toContain("Runs on Kubernetes: allowed, each after the page's confirmation");
      expect((await host.api.kube.contexts()).allowed).toBe(true);
      // What the host would start, resolved: the current context and its namespace.
      expect(await host.api.kube.preview({ shards })).toEqual(lab);

      await expect(host.api.jobs.start({ kind: 'run', plan: plan(), shards })).rejects.toThrow(
        'shards.kubernetes: a run on Kubernetes starts only once its context, namespace, image and pod count are confirmed',
      );
      const forged: [Partial<KubeConfirmation>, string][] = [
        [{ context: 'prod' }, 'kubernetesConfirmed.context: the context confirmed ("prod")'],
        [{ namespace: 'default' }, 'kubernetesConfirmed.namespace: the namespace confirmed ("default")'],
        [
          { image: 'evil.test/miner:1' },
          'kubernetesConfirmed.image: the image confirmed ("evil.test/miner:1")',
        ],
        [
          { pods: 50 },
          'kubernetesConfirmed.pods: the pod count confirmed (50) is not the one the host would start (2)',
        ],
      ];
      for (const [change, message] of forged)
        await expect(
          host.api.jobs.start({
            kind: 'run',
            plan: plan(),
            shards,
            kubernetesConfirmed: { ...lab, ...change },
          }),
        ).rejects.toThrow(message);
      expect(fake.calls).toEqual([]);

      const events: JobEnvelope[] = [];
      const { jobId } = await host.api.jobs.start({
        kind: 'run',
        plan: plan(),
        shards,
        kubernetesConfirmed: lab,
      });
      host.api.onJobEvent(jobId, (e) => events.push(e));
      await vi.waitFor(() => expect(events.some((e) => e.event.type === 'done')).toBe(true), {
        timeout: 60_000,
        interval: 50,
      });
      const done = events.find((e) => e.event.type === 'done')!.event;
      expect(done).toMatchObject({ type: 'done', status: 'completed' });
      // The Job the host created: the confirmed namespace, image and pods, through the confirmed context.
      const [name] = fake.calls[0]!.match(/trebuchet-\S+/)!;
      expect(fake.calls[0]).toBe(`create ConfigMap load/${name}`);
      expect(fake.calls[1]).toBe(`create Job load/${name} x2`);
      // The host's client is the first; the pods' own (watching their Job's go) are in-cluster ones.
      expect(clientContexts).toEqual(['lab', null, null]);
      const record = await host.api.history.get({ id: (done as { historyId: string }).historyId });
      if (record.kind !== 'run') throw new Error(`saved as a ${record.kind}`);
      const [result] = record.results;
      expect(result!.shards!.map((s) => s.index)).toEqual([0, 1]);
      expect(result!.requests.total).toBe(result!.shards!.reduce((a, s) => a + s.requests, 0));
      expect(result!.requests.total).toBeGreaterThan(0);
    } finally {
      await host.stop();
    }
  }, 90_000);
});
