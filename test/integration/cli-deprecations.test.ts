/**
 * No command prints a DeprecationWarning (issue 35): Node's own warnings on stderr read as the
 * tool's fault, and the punycode one (DEP0040, from @kubernetes/client-node 1.x's node-fetch,
 * bundled into the CLI) came with every Kubernetes run. Each command runs as a user runs it, the
 * bundle through the bin, and its stderr is read.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { handlers, refusedPort, startHttpServer, type TestServer } from '../helpers/servers.ts';

let server: TestServer;
let dir: string;
beforeAll(async () => {
  server = await startHttpServer(handlers.ok('hello'));
  dir = mkdtempSync(join(tmpdir(), 'trebuchet-deprecations-'));
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A kubeconfig whose API server refuses: the client makes its calls, and they fail. */
async function refusingKubeconfig(): Promise<string> {
  const file = join(dir, 'kubeconfig');
  writeFileSync(
    file,
    [
      'apiVersion: v1',
      'kind: Config',
      `clusters: [{name: c, cluster: {server: "https://127.0.0.1:${await refusedPort()}", insecure-skip-tls-verify: true}}]`,
      'users: [{name: u, user: {token: t}}]',
      'contexts: [{name: x, context: {cluster: c, user: u, namespace: load}}]',
      'current-context: x',
    ].join('\n'),
  );
  return file;
}

describe('no command prints a DeprecationWarning', () => {
  it('help, version, run (here, on local shards, on Kubernetes and its dry run, a shard), report, diff, merge', async () => {
    const url = server.url;
    const result = join(dir, 'run.json');
    const shard = join(dir, 'shard.json');
    const kube = ['--shards', '2', '--on', 'kubernetes', '--image', 'img', '-c', '2', '-d', '1'];
    // The shard's start is given as it runs: a few seconds ahead of then.
    const START = '<start>';
    const commands: string[][] = [
      ['--version'],
      ['help'],
      ['run', '--help'],
      ['run', '-n', '5', '-q', '--json', result, url],
      ['report', result],
      ['diff', result, result],
      ['run', '-c', '2', '-d', '0.5', '-q', '--shard', '1/1', '--start-at', START, '--json', shard, url],
      ['merge', shard],
      ['run', '-c', '2', '-d', '0.5', '-q', '--shards', '2', '--on', 'local', url],
      ['run', ...kube, '--dry-run', url],
      ['run', ...kube, '--ready-timeout', '5s', url],
    ];
    const env = { KUBECONFIG: await refusingKubeconfig() };
    for (const given of commands) {
      const args = given.map((a) => (a === START ? new Date(Date.now() + 3000).toISOString() : a));
      const run = await runCli(args, { timeoutMs: 60_000, env });
      expect(run.stderr, `trebuchet ${args.join(' ')}`).not.toMatch(/DeprecationWarning|\[DEP\d+\]/);
      // Each ran: exit 0, but the Kubernetes run, whose API server refuses.
      const refused = args.includes('kubernetes') && !args.includes('--dry-run');
      expect(run.code, `trebuchet ${args.join(' ')}: ${run.stderr}`).toBe(refused ? 1 : 0);
      if (refused) expect(run.stderr).toMatch(/refused the run's objects in namespace load/);
    }
  }, 300_000);
});
