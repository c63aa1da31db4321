import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebHost, type WebHost } from '../../electron/host/server.ts';
import { JOURNAL_FOLDER, JOURNAL_SUFFIX } from '../../electron/jobs/journal/writer.ts';
import type { ShardPlacement } from '../../shared/distributed/placement.ts';
import { fillScenario, waitForStatus, type AppPage } from './app-page.ts';
import { STATIC_DIR, useE2eApp } from './fixture.ts';

/*
 * A run on Kubernetes from the Run tab (issue 33, item 8). On a host started with
 * --allow-kubernetes the page first shows what the host would start, resolved from its
 * kubeconfig (the context, its namespace, the image, the pod count); Cancel starts nothing. On
 * a host without the flag the page says at "Run on" how to allow it, and the host refuses.
 *
 * The host's kubeconfig is a file of this test: context "lab" (current, namespace "load") and
 * "prod" (no namespace), both on a cluster at 127.0.0.1:1, where nothing listens: a confirmed run
 * reaches no cluster and fails saying so.
 */

const KUBECONFIG = `apiVersion: v1
kind: Config
current-context: lab
clusters:
- name: nowhere
  cluster: { server: 'https://127.0.0.1:1' }
users:
- name: me
  user: { token: not-a-secret }
contexts:
- name: lab
  context: { cluster: nowhere, user: me, namespace: load }
- name: prod
  context: { cluster: nowhere, user: me }
`;

const e2e = useE2eApp({ allowKubernetes: true });
let dir: string;
const kubeconfigBefore = process.env.KUBECONFIG;

/** A second host, as `trebuchet serve` starts it without --allow-kubernetes. */
let refusing: WebHost;
let refusingData: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'trebuchet-e2e-kube-'));
  refusingData = join(dir, 'data');
  refusing = await startWebHost({ staticDir: STATIC_DIR, appVersion: '0.1.0', dataDir: refusingData });
  writeFileSync(join(dir, 'config'), KUBECONFIG);
  // The web host runs in this process: it reads this kubeconfig, as kubectl would.
  process.env.KUBECONFIG = join(dir, 'config');
});

afterAll(async () => {
  await refusing?.close();
  if (kubeconfigBefore === undefined) delete process.env.KUBECONFIG;
  else process.env.KUBECONFIG = kubeconfigBefore;
  rmSync(dir, { recursive: true, force: true });
});

/** The jobs a host has begun: each writes its journal the moment it is registered. */
const journals = (dataDir: string): string[] => {
  const folder = join(dataDir, JOURNAL_FOLDER);
  return existsSync(folder) ? readdirSync(folder).filter((n) => n.endsWith(JOURNAL_SUFFIX)) : [];
};

/** The Run tab set to run the scenario as `pods` pods of `image` on Kubernetes. */
async function onKubernetes(app: AppPage, pods: number, image: string): Promise<void> {
  const { page } = app;
  await fillScenario(app, { url: 'http://127.0.0.1:9/', connections: 2, seconds: 1 });
  await page.getByTestId('shards-choice').getByRole('button').first().click();
  await page.getByTestId('shards-where-kubernetes').click();
  await page.getByTestId('shards-count').fill(String(pods));
  await page.getByTestId('shards-image').fill(image);
}

describe('a run on Kubernetes from the Run tab', () => {
  it('asks first, naming the context, namespace, image and pod count the host resolved; Cancel starts nothing', async () => {
    const app = await e2e.open();
    const { page } = app;
    await onKubernetes(app, 3, 'registry.test/trebuchet:1');
    // The host's contexts are listed (its current one named): it allows runs on Kubernetes.
    await page
      .locator('[data-testid="shards-context"] option', { hasText: 'Current (lab)' })
      .waitFor({ state: 'attached' });
    expect(await page.getByTestId('shards-kubernetes-refused').count()).toBe(0);
    await page.getByTestId('run-button').click();

    const dialog = page.getByTestId('kube-confirm');
    await dialog.waitFor();
    // Current context, resolved by the host: "lab", and its namespace from the kubeconfig.
    expect(await dialog.getByTestId('kube-confirm-context').textContent()).toBe('lab');
    expect(await dialog.getByTestId('kube-confirm-namespace').textContent()).toBe('load');
    expect(await dialog.getByTestId('kube-confirm-image').textContent()).toBe('registry.test/trebuchet:1');
    expect(await dialog.getByTestId('kube-confirm-pods').textContent()).toBe('3');
    expect(await dialog.getByTestId('kube-confirm-start').textContent()).toBe('Start 3 pods');
    await app.screenshot('kube-confirm.png');

    await dialog.getByTestId('kube-confirm-cancel').click();
    await dialog.waitFor({ state: 'detached' });
    // Nothing began: no job journal on the host, the Run view still idle.
    expect(journals(e2e.dataDir)).toEqual([]);
    expect(await page.getByTestId('run-status').count()).toBe(0);
    expect(app.results()).toEqual([]);

    // The other context, confirmed: its namespace is the default, and the job the host begins
    // carries those values, pinned (its journal's head is what it runs). The cluster at
    // 127.0.0.1:1 is not there; Stop ends the job.
    await page.getByTestId('shards-context').selectOption('prod');
    await page.getByTestId('run-button').click();
    await dialog.waitFor();
    expect(await dialog.getByTestId('kube-confirm-context').textContent()).toBe('prod');
    expect(await dialog.getByTestId('kube-confirm-namespace').textContent()).toBe('trebuchet');
    await dialog.getByTestId('kube-confirm-start').click();
    await expect.poll(() => journals(e2e.dataDir).length, { timeout: 20_000 }).toBe(1);
    const head = JSON.parse(
      readFileSync(join(e2e.dataDir, JOURNAL_FOLDER, journals(e2e.dataDir)[0]!), 'utf8').split('\n')[0]!,
    ) as { shards: ShardPlacement };
    expect(head.shards).toEqual({
      count: 3,
      readyTimeoutSeconds: null,
      kubernetes: {
        image: 'registry.test/trebuchet:1',
        context: 'prod',
        namespace: 'trebuchet',
        nodeSelector: {},
      },
    });
    await page.getByTestId('stop-button').click();
    expect(await waitForStatus(app, ['completed', 'cancelled', 'failed'], 60_000)).not.toBe('completed');
  });

  it('on a host without --allow-kubernetes, says at "Run on" how to allow it, and the host refuses the run', async () => {
    const app = await e2e.open(refusing.url);
    const { page } = app;
    await onKubernetes(app, 2, 'registry.test/trebuchet:1');
    const refused = page.getByTestId('shards-kubernetes-refused');
    await refused.waitFor();
    expect(await refused.textContent()).toBe(
      'This web host does not start Kubernetes Jobs: restart it with `trebuchet serve --allow-kubernetes` to allow it.',
    );
    await page.getByTestId('run-button').click();
    // The host's own refusal, beside the Run button, names the field; no question is asked.
    await page
      .getByRole('status')
      .filter({ hasText: 'shards.kubernetes: this web host does not start' })
      .waitFor();
    expect(await page.getByTestId('kube-confirm').count()).toBe(0);
    expect(journals(refusingData)).toEqual([]);
    await app.screenshot('kube-refused.png');
  });
});
