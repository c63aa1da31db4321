/**
 * A run on Kubernetes, end to end against a fake API client (test/helpers/fake-kube.ts: no API
 * server can run here): `trebuchet run --shards 2 --on kubernetes` creates the ConfigMap and the
 * Job, the fake kubelet runs each pod's own command (the real `trebuchet run --shard i/N
 * --start-on job/NAME`, in this process) against a server on loopback, the coordinator follows
 * their logs, gives the go as the Job's annotation once every pod is ready, and merges. And the
 * dry run: its YAML applied as it is, its pods get ready and wait, and start when the Job is
 * annotated by hand (`kubectl annotate`).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { loadAllYaml } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ConfigMapManifest, JobManifest } from '../../shared/distributed/manifests.ts';
import { GO_ANNOTATION } from '../../shared/distributed/manifests.ts';
import { runResultSchema } from '../../shared/model/result.ts';
import { fromShardSchema, type FromShard } from '../../electron/engine/shards/messages.ts';
import { runCommand } from '../../electron/cli/run/command.ts';
import { FakeCluster } from '../helpers/fake-kube.ts';
import { handlers, startHttpServer, type TestServer } from '../helpers/servers.ts';

const cluster: { current: FakeCluster | null } = { current: null };

// The runs' client, the coordinator's and each pod's: the fake.
vi.mock('../../electron/distributed/kubernetes-client.ts', () => ({
  kubeClient: () => cluster.current!,
  kubeNamespace: () => null,
  kubeContexts: () => ({ contexts: [], current: null }),
}));

let server: TestServer;
let dir: string;
beforeAll(async () => {
  server = await startHttpServer(handlers.ok('hello'));
  dir = mkdtempSync(join(tmpdir(), 'trebuchet-fake-cluster-'));
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
  cluster.current?.close();
});

const sink = (add: (s: string) => void) =>
  new Writable({
    write(chunk: Buffer, _e, done) {
      add(chunk.toString());
      done();
    },
  });

/** `trebuchet ...argv` in this process, its output where it is told. */
function cli(
  argv: string[],
  out: Writable,
  err: Writable,
  onInterrupt: (stop: () => void) => void = () => undefined,
) {
  return runCommand({
    argv: argv.slice(1),
    cwd: dir,
    appVersion: '0.0.0-test',
    stdout: out,
    stderr: err,
    onInterrupt: (handler) => {
      onInterrupt(handler);
      return () => undefined;
    },
  });
}

/** The kubelet: a pod's container is `trebuchet run ...`, its stdout and stderr its log, SIGTERM its interrupt. */
const kubelet = (argv: string[], log: Writable, onTerm: (stop: () => void) => void) =>
  cli(argv, log, log, onTerm);

/** Two shards of one core each, as pods of the namespace "load". */
const ON_KUBERNETES = [
  '-t',
  '1',
  '--shards',
  '2',
  '--on',
  'kubernetes',
  '--image',
  'img',
  '--namespace',
  'load',
];

const messagesOf = (log: string): FromShard[] =>
  log
    .trim()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => fromShardSchema.parse(JSON.parse(l)));

describe('a run on Kubernetes against a fake API client', () => {
  it('creates the plan and the Job, gives the go once every pod is ready, merges their windows and reports, deletes both', async () => {
    const fake = new FakeCluster(kubelet);
    cluster.current = fake;
    let stdout = '';
    let stderr = '';
    const out = join(dir, 'merged.json');
    const code = await cli(
      ['run', '-c', '4', '-d', '1', ...ON_KUBERNETES, '--json', out, '-q', server.url],
      sink((s) => (stdout += s)),
      sink((s) => (stderr += s)),
    );
    expect(code, stderr).toBe(0);
    const result = runResultSchema.parse(JSON.parse(readFileSync(out, 'utf8')));
    expect(result.status).toBe('completed');
    expect(result.shards!.map((s) => s.index)).toEqual([0, 1]);
    expect(result.requests.total).toBe(result.shards!.reduce((a, s) => a + s.requests, 0));
    expect(result.requests.total).toBeGreaterThan(0);
    expect(stdout).toMatch(/^Shards \(start: after the common start\):$/m);

    const [name] = fake.calls[0]!.match(/trebuchet-\S+/)!;
    expect(fake.calls.filter((c) => !c.startsWith('follow') && !c.startsWith('abort'))).toEqual([
      `create ConfigMap load/${name}`,
      `create Job load/${name} x2`,
      `own ConfigMap load/${name} by Job ${name} uid-1`,
      `annotate Job load/${name} ${GO_ANNOTATION}`,
      `delete Job load/${name}`,
      `delete ConfigMap load/${name}`,
    ]);
    // Each pod said ready, then its windows, then its report; it began its load at the go it was given.
    await fake.settled();
    const go = Date.parse(fake.annotations[0]!.value);
    for (const log of fake.logs(name)) {
      const messages = messagesOf(log);
      expect(messages[0]!.type).toBe('ready');
      const report = messages.at(-1)!;
      if (report.type !== 'report') throw new Error(`the log ends with a ${report.type}`);
      expect(report.machine!.startAt).toBe(go);
      expect(report.startedAt).toBeGreaterThanOrEqual(go);
    }
  }, 60_000);

  // Tagged timing: the pods' start within the second the go was given ahead is a wall-clock bound.
  it(
    "applies the dry run's YAML as it is: the pods get ready and wait, then start when the Job is annotated",
    { tags: ['timing'], timeout: 60_000 },
    async () => {
      const fake = new FakeCluster(kubelet);
      cluster.current = fake;
      let yaml = '';
      const code = await cli(
        ['run', '-c', '2', '-d', '0.5', ...ON_KUBERNETES, '--dry-run', server.url],
        sink((s) => (yaml += s)),
        sink(() => undefined),
      );
      expect(code).toBe(0);
      // kubectl apply -f: the documents as they are.
      const [configMap, job] = loadAllYaml(yaml) as [ConfigMapManifest, JobManifest];
      await fake.createConfigMap(configMap);
      await fake.createJob(job);
      const name = job.metadata.name;
      // kubectl wait --for=condition=Ready: each pod's readiness probe finds its ready file.
      await vi.waitFor(() => expect(fake.readyPods(name)).toBe(2), { timeout: 30_000, interval: 50 });
      // Ready and waiting: nothing but `ready` in their logs while the Job has no go.
      await new Promise((r) => setTimeout(r, 1500));
      expect(fake.logs(name).map((l) => messagesOf(l).map((m) => m.type))).toEqual([['ready'], ['ready']]);

      // kubectl annotate job NAME trebuchet.dev/go=<a time a little ahead>
      const go = Date.now() + 1000;
      await fake.annotateJob('load', name, GO_ANNOTATION, new Date(go).toISOString());
      await fake.settled();
      for (const log of fake.logs(name)) {
        const messages = messagesOf(log);
        expect(messages[0]!.type).toBe('ready');
        expect(messages.slice(1, -1).every((m) => m.type === 'window')).toBe(true);
        const report = messages.at(-1)!;
        if (report.type !== 'report') throw new Error(`the log ends with a ${report.type}`);
        expect(report.failure).toBeNull();
        expect(report.machine!.startAt).toBe(go);
        // Began at the go, not before it (and not much after).
        expect(report.startedAt).toBeGreaterThanOrEqual(go);
        expect(report.startedAt - go).toBeLessThan(1000);
        expect(report.report.counts.requests.total).toBeGreaterThan(0);
      }
    },
  );
});
