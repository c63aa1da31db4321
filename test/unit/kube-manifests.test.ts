import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { loadAllYaml } from '@kubernetes/client-node';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Role } from 'kubernetes-models/rbac.authorization.k8s.io/v1/Role';
import { RoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1/RoleBinding';
import { ServiceAccount } from 'kubernetes-models/v1/ServiceAccount';
import type { JobManifest } from '../../shared/distributed/manifests.ts';
import { describe, expect, it } from 'vitest';
import { scenarioSchema } from '../../shared/model/scenario.ts';
import { runCommand } from '../../electron/cli/run/command.ts';
import { distributedFromFlags } from '../../electron/cli/run/distributed-flags.ts';

/** `trebuchet run ...args` in this process: its exit code and what it printed. */
async function run(args: string[]) {
  let stdout = '';
  let stderr = '';
  const sink = (add: (s: string) => void) =>
    new Writable({
      write(chunk: Buffer, _e, done) {
        add(chunk.toString());
        done();
      },
    });
  const code = await runCommand({
    argv: args,
    cwd: process.cwd(),
    appVersion: '0.0.0-test',
    stdout: sink((s) => (stdout += s)),
    stderr: sink((s) => (stderr += s)),
    onInterrupt: () => () => undefined,
  });
  return { code, stdout, stderr };
}

const DRY_RUN = [
  ...['-c', '8', '-d', '1', '-t', '2', '--shards', '4', '--on', 'kubernetes'],
  ...['--image', 'registry.example.com/trebuchet:1', '--namespace', 'load', '--node-selector', 'pool=load'],
  ...['--ready-timeout', '120', '--warmup', '2', '--dry-run', 'http://10.0.0.5:8080/'],
];

describe('trebuchet run --shards 4 --on kubernetes --dry-run', () => {
  it('prints a ConfigMap and an Indexed Job that pass the Kubernetes schema', async () => {
    const { code, stdout, stderr } = await run(DRY_RUN);
    expect(code, stderr).toBe(0);
    const docs = loadAllYaml(stdout) as { kind: string }[];
    expect(docs.map((d) => d.kind)).toEqual(['ConfigMap', 'Job']);
    const configMap = new ConfigMap(docs[0] as ConstructorParameters<typeof ConfigMap>[0]);
    const job = new Job(docs[1] as ConstructorParameters<typeof Job>[0]);
    expect(() => configMap.validate()).not.toThrow();
    expect(() => job.validate()).not.toThrow();

    // The plan is a scenario file the shards read as it is.
    const plan = scenarioSchema.parse(JSON.parse(configMap.data!['plan.json']!));
    expect(plan.load).toMatchObject({ model: 'closed', connections: 8 });
    expect(plan.options.workers).toBe(2);

    const spec = job.spec!;
    expect([spec.completionMode, spec.completions, spec.parallelism, spec.backoffLimit]).toEqual([
      'Indexed',
      4,
      4,
      0,
    ]);
    expect(spec.ttlSecondsAfterFinished).toBeGreaterThan(0);
    expect(job.metadata!.namespace).toBe('load');
    const pod = spec.template.spec!;
    expect(pod.nodeSelector).toEqual({ pool: 'load' });
    expect(pod.topologySpreadConstraints![0]!.topologyKey).toBe('kubernetes.io/hostname');
    const container = pod.containers[0]!;
    expect(container.image).toBe('registry.example.com/trebuchet:1');
    expect(container.resources!.requests).toMatchObject({ cpu: '2' });
    // Pod i runs shard i + 1 of 4 (--shard counts from 1), and waits for its Job's go.
    const command = container.command!.join(' ');
    expect(command).toContain(
      `--scenario /plan/plan.json --shard "$((JOB_COMPLETION_INDEX + 1))/4" --start-on job/${job.metadata!.name}`,
    );
    expect(pod.volumes![0]!.configMap!.name).toBe(configMap.metadata!.name);
  });

  it('holds no start time: applied later, it starts the same way', async () => {
    const { stdout } = await run(DRY_RUN);
    expect(stdout).not.toContain('--start-at');
    expect(stdout).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
    // The head comment says how to give the go.
    expect(stdout).toMatch(/^# +kubectl annotate -n load job trebuchet-\S+ trebuchet\.dev\/go=\$\(date -u/m);
  });

  it("is what a cluster admin accepts: the restricted Pod Security Standard's context, a deadline, failures that fail the Job", async () => {
    const job = loadAllYaml((await run(DRY_RUN)).stdout)[1] as JobManifest;
    const pod = job.spec.template.spec;
    expect(pod.securityContext).toEqual({
      runAsNonRoot: true,
      runAsUser: 1000,
      runAsGroup: 1000,
      seccompProfile: { type: 'RuntimeDefault' },
    });
    const container = pod.containers[0]!;
    expect(container.securityContext).toEqual({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      runAsNonRoot: true,
      capabilities: { drop: ['ALL'] },
    });
    // Its scratch space is a volume of its own (the root filesystem is read-only).
    expect(container.volumeMounts).toContainEqual({ name: 'tmp', mountPath: '/tmp' });
    expect(container.readinessProbe).toEqual({
      exec: { command: ['test', '-e', '/tmp/ready'] },
      periodSeconds: 1,
    });
    expect(pod.serviceAccountName).toBe('trebuchet-shard');
    // The deadline from the plan: 120 s to get ready, 2 s of warm-up, 1 s of load, 30 s to stop.
    expect(job.spec.activeDeadlineSeconds).toBe(153);
    expect(job.spec.podFailurePolicy.rules.map((r) => r.action)).toEqual(['FailJob', 'FailJob']);
  });

  it("names the kubeconfig context's namespace, else rbac.yaml's, when --namespace is not given", async () => {
    const without = DRY_RUN.filter((a, i) => a !== '--namespace' && DRY_RUN[i - 1] !== '--namespace');
    const previous = process.env.KUBECONFIG;
    const dir = mkdtempSync(join(tmpdir(), 'trebuchet-kubeconfig-'));
    try {
      process.env.KUBECONFIG = join(dir, 'none');
      const job = loadAllYaml((await run(without)).stdout)[1] as JobManifest;
      expect(job.metadata.namespace).toBe('trebuchet');
      writeFileSync(
        join(dir, 'config'),
        [
          'apiVersion: v1',
          'kind: Config',
          'clusters: [{name: c, cluster: {server: "https://127.0.0.1:6443"}}]',
          'users: [{name: u, user: {token: t}}]',
          'contexts: [{name: x, context: {cluster: c, user: u, namespace: perf}}]',
          'current-context: x',
        ].join('\n'),
      );
      process.env.KUBECONFIG = join(dir, 'config');
      const inContext = loadAllYaml((await run(without)).stdout)[1] as JobManifest;
      expect(inContext.metadata.namespace).toBe('perf');
    } finally {
      if (previous === undefined) delete process.env.KUBECONFIG;
      else process.env.KUBECONFIG = previous;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a broken Job fails the same validation (the check can fail)', async () => {
    const { stdout } = await run(DRY_RUN);
    const job = loadAllYaml(stdout)[1] as { spec: Record<string, unknown> };
    job.spec.completions = 'four';
    expect(() => new Job(job as unknown as ConstructorParameters<typeof Job>[0]).validate()).toThrow(
      /completions/,
    );
    const noContainers = loadAllYaml(stdout)[1] as { spec: { template: { spec: Record<string, unknown> } } };
    delete noContainers.spec.template.spec.containers;
    expect(() => new Job(noContainers as unknown as ConstructorParameters<typeof Job>[0]).validate()).toThrow(
      /containers/,
    );
  });

  it('refuses what cannot be run, naming the flag', async () => {
    const bad = async (args: string[]) => (await run(args)).stderr;
    expect(await bad(['--shards', '4', '--on', 'kubernetes', '--dry-run', 'http://a/'])).toMatch(
      /--image: is needed/,
    );
    expect(await bad(['--shards', '3', '--on', 'moon', 'http://a/'])).toMatch(/--on: "moon" is not a place/);
    expect(await bad(['-c', '2', '--shards', '3', '--on', 'local', 'http://a/'])).toMatch(
      /--shards: this load splits into at most 2 shard/,
    );
    expect(await bad(['--on', 'local', 'http://a/'])).toMatch(/--on: goes with --shards N/);
    expect(await bad(['--shards', '2', '--on', 'local', '--image', 'x', 'http://a/'])).toMatch(
      /--image: goes with --on kubernetes/,
    );
    expect(await bad(['--shards', '101', '--on', 'local', 'http://a/'])).toMatch(/--shards: give 1 to 100/);
  });

  it('checks the time the shards may take to get ready before anything starts', () => {
    expect(
      distributedFromFlags({ shards: '2', on: 'kubernetes', image: 'i' })!.readyTimeoutSeconds,
    ).toBeNull();
    expect(
      distributedFromFlags({ shards: '2', on: 'local', 'ready-timeout': '90s' })!.readyTimeoutSeconds,
    ).toBe(90);
    expect(() => distributedFromFlags({ shards: '2', on: 'local', 'ready-timeout': '99999999' })).toThrow(
      '--ready-timeout: give the shards 1 s to 60 min to get ready, not 99999999',
    );
    expect(distributedFromFlags({})).toBeNull();
  });
});

describe('resources/kubernetes/rbac.yaml', () => {
  const docs = loadAllYaml(
    readFileSync(resolve(import.meta.dirname, '../../resources/kubernetes/rbac.yaml'), 'utf8'),
  ) as { kind: string }[];

  it("passes the schema and grants what the coordinator calls, and the shards' pods only reading their Job", () => {
    expect(docs.map((d) => d.kind)).toEqual(['Role', 'RoleBinding', 'ServiceAccount', 'Role', 'RoleBinding']);
    const [role, shardRole] = [docs[0], docs[3]].map(
      (d) => new Role(d as ConstructorParameters<typeof Role>[0]),
    );
    const [binding, shardBinding] = [docs[1], docs[4]].map(
      (d) => new RoleBinding(d as ConstructorParameters<typeof RoleBinding>[0]),
    );
    const account = new ServiceAccount(docs[2] as ConstructorParameters<typeof ServiceAccount>[0]);
    for (const o of [role!, shardRole!, binding!, shardBinding!, account])
      expect(() => o.validate()).not.toThrow();
    const grants = (r: Role, resource: string) =>
      r.rules!.filter((x) => x.resources!.includes(resource)).flatMap((x) => x.verbs);
    expect(grants(role!, 'configmaps')).toEqual(expect.arrayContaining(['create', 'patch', 'delete']));
    expect(grants(role!, 'jobs')).toEqual(expect.arrayContaining(['create', 'patch', 'delete']));
    expect(grants(role!, 'pods')).toEqual(expect.arrayContaining(['list']));
    expect(grants(role!, 'pods/log')).toEqual(['get']);
    expect(binding!.roleRef.name).toBe(role!.metadata!.name);
    // The pods' account: read jobs, nothing else, bound to the account the Job's pods name.
    expect(shardRole!.rules).toEqual([
      { apiGroups: ['batch'], resources: ['jobs'], verbs: ['get', 'list', 'watch'] },
    ]);
    expect(account.metadata!.name).toBe('trebuchet-shard');
    expect(shardBinding!.subjects).toEqual([
      { kind: 'ServiceAccount', name: 'trebuchet-shard', namespace: 'trebuchet' },
    ]);
    expect(shardBinding!.roleRef.name).toBe(shardRole!.metadata!.name);
    // One namespace everywhere, the one a run uses by default.
    for (const d of docs)
      expect((d as unknown as { metadata: { namespace: string } }).metadata.namespace).toBe('trebuchet');
  });

  it('a Role with a rule without verbs fails validation', () => {
    const broken = structuredClone(docs[0]) as unknown as { rules: Record<string, unknown>[] };
    delete broken.rules[0]!.verbs;
    expect(() => new Role(broken as unknown as ConstructorParameters<typeof Role>[0]).validate()).toThrow(
      /verbs/,
    );
  });
});
