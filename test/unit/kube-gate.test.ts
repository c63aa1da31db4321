import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCommandHandlers, dispatchCommand } from '../../electron/host/commands.ts';
import { gatedPlacement, previewKubernetes, type KubeGate } from '../../electron/host/kube-gate.ts';
import { JOURNAL_SUFFIX } from '../../electron/jobs/journal/writer.ts';
import { createHostServices, type HostServices } from '../../electron/host/services.ts';
import { openStores } from '../../electron/stores/index.ts';
import type { KubeConfirmation } from '../../shared/distributed/kube-confirmation.ts';
import type { ShardPlacement } from '../../shared/distributed/placement.ts';
import { ValidationError } from '../../shared/model/validation.ts';
import { FakeEngine } from '../helpers/fake-engine.ts';

/** Three pods of an image, the context and namespace left to the kubeconfig. */
const placement: ShardPlacement = {
  count: 3,
  readyTimeoutSeconds: null,
  kubernetes: { image: 'registry.test/trebuchet:1', namespace: null, context: null, nodeSelector: {} },
};
/** What the host resolves it to: the kubeconfig's current context and that context's namespace. */
const resolved: KubeConfirmation = {
  context: 'lab',
  namespace: 'load',
  image: 'registry.test/trebuchet:1',
  pods: 3,
};
const gate = (allowed: boolean): KubeGate => ({ allowed, resolve: () => Promise.resolve(resolved) });

async function refusal(p: Promise<unknown>): Promise<ValidationError> {
  const e: unknown = await p.then(
    () => null,
    (error: unknown) => error,
  );
  if (!(e instanceof ValidationError)) throw new Error(`expected a ValidationError, got ${String(e)}`);
  return e;
}

describe('the host-side Kubernetes check', () => {
  it('previews the four values as the host resolves them, and refuses without the flag, saying how to allow it', async () => {
    expect(await previewKubernetes(gate(true), placement)).toEqual(resolved);
    const e = await refusal(previewKubernetes(gate(false), placement));
    expect(e.issues.map((i) => i.path)).toEqual(['shards.kubernetes']);
    expect(e.issues[0]!.message).toContain('restart it with `trebuchet serve --allow-kubernetes`');
  });

  it('starts the confirmed values only, with the context and namespace pinned to the confirmed ones', async () => {
    expect(await gatedPlacement(gate(true), placement, resolved)).toEqual({
      ...placement,
      kubernetes: { ...placement.kubernetes!, context: 'lab', namespace: 'load' },
    });
  });

  it('refuses a job with no confirmation, and one whose confirmation differs in any of the four values, naming it', async () => {
    const none = await refusal(gatedPlacement(gate(true), placement, undefined));
    expect(none.issues.map((i) => i.path)).toEqual(['shards.kubernetes']);
    expect(none.message).toContain('confirmed');
    const changes: [keyof KubeConfirmation, string | number][] = [
      ['context', 'prod'],
      ['namespace', 'default'],
      ['image', 'evil.test/miner:latest'],
      ['pods', 100],
    ];
    for (const [key, value] of changes) {
      const e = await refusal(gatedPlacement(gate(true), placement, { ...resolved, [key]: value }));
      expect(e.issues).toHaveLength(1);
      expect(e.issues[0]!.path).toBe(`kubernetesConfirmed.${key}`);
      expect(e.issues[0]!.message).toContain(JSON.stringify(value));
      expect(e.issues[0]!.message).toContain(JSON.stringify(resolved[key]));
    }
  });

  it('refuses without the flag even with a confirmation; a kubeconfig problem is said at the context', async () => {
    const off = await refusal(gatedPlacement(gate(false), placement, resolved));
    expect(off.message).toContain('--allow-kubernetes');
    const broken: KubeGate = {
      allowed: true,
      resolve: () => Promise.reject(new Error("the host's kubeconfig has no current context: choose one")),
    };
    const e = await refusal(gatedPlacement(broken, placement, resolved));
    expect(e.issues).toEqual([
      {
        path: 'shards.kubernetes.context',
        message: "the host's kubeconfig has no current context: choose one",
      },
    ]);
  });

  it('lets shards on this machine pass as they are, allowed or not', async () => {
    const local = { ...placement, kubernetes: null };
    expect(await gatedPlacement(gate(false), local, undefined)).toBe(local);
  });
});

describe('jobs.start through the dispatch table', () => {
  let dataDir: string;
  let services: HostServices;
  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'trebuchet-kube-gate-'));
    services = createHostServices({
      startTarget: new FakeEngine().start,
      stores: await openStores({ dataDir }),
      appVersion: '1.0.0',
    });
  });
  afterEach(async () => {
    await services.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const start = (allowed: boolean, confirmed?: KubeConfirmation) =>
    dispatchCommand(
      createCommandHandlers({
        services,
        info: { appVersion: '1.0.0', host: 'web', platform: 'linux' },
        allowKubernetes: allowed,
        kubeStart: () => Promise.resolve(resolved),
      }),
      'jobs.start',
      {
        kind: 'run',
        plan: { name: 'k', targets: [{ url: 'http://127.0.0.1:9/' }] },
        shards: placement,
        ...(confirmed ? { kubernetesConfirmed: confirmed } : {}),
      },
      'page-a',
    );

  it('refuses before any job is registered or journalled: no flag, no confirmation, another image', async () => {
    for (const [allowed, confirmed, field] of [
      [false, resolved, 'shards.kubernetes'],
      [true, undefined, 'shards.kubernetes'],
      [true, { ...resolved, image: 'evil.test/miner:latest' }, 'kubernetesConfirmed.image'],
    ] as const) {
      const { reply } = await start(allowed, confirmed);
      expect(reply.ok).toBe(false);
      expect(!reply.ok && reply.issues?.map((i) => i.path)).toEqual([field]);
      expect(services.jobs.activeOf('page-a')).toEqual([]);
    }
    // A started job writes its journal at once: none was.
    expect((await readdir(dataDir, { recursive: true })).filter((f) => f.endsWith(JOURNAL_SUFFIX))).toEqual(
      [],
    );
  });
});
