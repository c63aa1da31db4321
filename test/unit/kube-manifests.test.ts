import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Writable } from 'node:stream';
import { loadAllYaml } from '@kubernetes/client-node';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Role } from 'kubernetes-models/rbac.authorization.k8s.io/v1/Role';
import { RoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1/RoleBinding';
import { describe, expect, it } from 'vitest';
import { scenarioSchema } from '../../shared/model/scenario.ts';
import { runCommand } from '../../electron/cli/run-command.ts';
import { distributedFromFlags } from '../../electron/cli/distributed-flags.ts';

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
  ...['--start-margin', '45', '--dry-run', 'http://10.0.0.5:8080/'],
];

describe('trebuchet run --shards 4 --on kubernetes --dry-run', () => {
  it('prints a ConfigMap and an Indexed Job that pass the Kubernetes schema', async () => {
    const before = Date.now();
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
    const command = container.command!.join(' ');
    expect(command).toContain('--scenario /plan/plan.json --shard "$JOB_COMPLETION_INDEX/4"');
    // The start time is fixed now + the margin.
    const startAt = Date.parse(/--start-at (\S+)/.exec(command)![1]!);
    expect(startAt - before).toBeGreaterThanOrEqual(45_000);
    expect(startAt - Date.now()).toBeLessThanOrEqual(45_000);
    expect(pod.volumes![0]!.configMap!.name).toBe(configMap.metadata!.name);
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

  it('defaults the start margin to 30 s on Kubernetes and 10 s locally', () => {
    expect(distributedFromFlags({ shards: '2', on: 'kubernetes', image: 'i' })!.startMarginSeconds).toBe(30);
    expect(distributedFromFlags({ shards: '2', on: 'local' })!.startMarginSeconds).toBe(10);
    expect(distributedFromFlags({})).toBeNull();
  });
});

describe('resources/kubernetes/rbac.yaml', () => {
  const docs = loadAllYaml(
    readFileSync(resolve(import.meta.dirname, '../../resources/kubernetes/rbac.yaml'), 'utf8'),
  ) as { kind: string }[];

  it('is a Role and a RoleBinding that pass the schema and grant what the coordinator calls', () => {
    expect(docs.map((d) => d.kind)).toEqual(['Role', 'RoleBinding']);
    const role = new Role(docs[0] as ConstructorParameters<typeof Role>[0]);
    const binding = new RoleBinding(docs[1] as ConstructorParameters<typeof RoleBinding>[0]);
    expect(() => role.validate()).not.toThrow();
    expect(() => binding.validate()).not.toThrow();
    const grants = (resource: string) =>
      role.rules!.filter((r) => r.resources!.includes(resource)).flatMap((r) => r.verbs);
    expect(grants('configmaps')).toEqual(expect.arrayContaining(['create', 'delete']));
    expect(grants('jobs')).toEqual(expect.arrayContaining(['create', 'delete']));
    expect(grants('pods')).toEqual(expect.arrayContaining(['list']));
    expect(grants('pods/log')).toEqual(['get']);
    expect(binding.roleRef.name).toBe(role.metadata!.name);
    expect(binding.metadata!.namespace).toBe(role.metadata!.namespace);
  });

  it('a Role with a rule without verbs fails validation', () => {
    const broken = structuredClone(docs[0]) as unknown as { rules: Record<string, unknown>[] };
    delete broken.rules[0]!.verbs;
    expect(() => new Role(broken as unknown as ConstructorParameters<typeof Role>[0]).validate()).toThrow(
      /verbs/,
    );
  });
});
