/**
 * A distributed run through the local backend, for real against nginx: `trebuchet run
 * --shards N --on local` starts N shard processes, follows their streams, merges (issue 23).
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runResultSchema, type RunResult } from '../../shared/model/result.ts';
import { endAfterAll, endAfterEach } from '../helpers/cleanup.ts';
import { runCli, startCli } from '../helpers/cli.ts';
import { nginxStatus, startNginx, type NginxServer } from '../helpers/nginx.ts';

const endAll = endAfterAll();
const endEach = endAfterEach();
let nginx: NginxServer;
/** The local run the distributed one is compared with runs at the same time, on its own server. */
let reference: NginxServer;
let dir: string;

beforeAll(async () => {
  nginx = endAll(await startNginx({ files: { 'test.html': 'hello' } }));
  reference = endAll(await startNginx({ files: { 'test.html': 'hello' } }));
  dir = mkdtempSync(join(tmpdir(), 'trebuchet-distributed-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Room for three CLI processes to start on a loaded 2-core machine before the common start. */
const MARGIN = ['--start-margin', '10'];

/** The child processes of a process (Linux /proc). */
function childrenOf(pid: number): number[] {
  const tasks = readdirSync(`/proc/${pid}/task`);
  return tasks.flatMap((t) =>
    readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter((s) => s !== '')
      .map(Number),
  );
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    // A zombie is no process left running.
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
};

async function shardProcesses(pid: number, count: number): Promise<number[]> {
  for (let i = 0; i < 400; i++) {
    const kids = childrenOf(pid);
    if (kids.length >= count) return kids;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`${count} shard processes did not start`);
}

const readResult = (file: string): RunResult => runResultSchema.parse(JSON.parse(readFileSync(file, 'utf8')));

describe('trebuchet run --shards N --on local', () => {
  it("runs 3 shards live and merges them into the report a local run has: total = the sum of the shards = nginx's count", async () => {
    const url = `${nginx.httpUrl}test.html`;
    const before = (await nginxStatus(nginx)).requests;
    const merged = join(dir, 'merged.json');
    const local = join(dir, 'local.json');
    const [run, one] = await Promise.all([
      runCli(
        ['run', '-c', '3', '-d', '0.5', '--shards', '3', '--on', 'local', ...MARGIN, '--json', merged, url],
        {
          timeoutMs: 60_000,
        },
      ),
      runCli(['run', '-c', '3', '-d', '0.5', '--json', local, `${reference.httpUrl}test.html`], {
        timeoutMs: 60_000,
      }),
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/Shards \(start: after the common --start-at\):/);
    const result = readResult(merged);
    expect(result.status).toBe('completed');
    expect(result.shards!.map((s) => s.index)).toEqual([0, 1, 2]);
    expect(result.requests.total).toBe(result.shards!.reduce((a, s) => a + s.requests, 0));
    expect(result.requests.total).toBeGreaterThan(0);
    // nginx counted every request of the run plus one pre-flight check per shard.
    const after = (await nginxStatus(nginx)).requests;
    expect(after - before - 1).toBe(result.requests.total + result.requests.inFlightAtEnd + 3);

    expect(one.code, one.stderr).toBe(0);
    const keys = (r: object) =>
      Object.keys(r)
        .filter((k) => k !== 'shards')
        .sort();
    expect(keys(result)).toEqual(keys(readResult(local)));
    expect(result.samples.length).toBeGreaterThan(0);
    expect(result.samples.at(-1)!.totalRequests).toBe(result.requests.total);
  });

  it('fails the run naming the shard killed, and leaves no shard process', async () => {
    const cli = endEach(
      startCli(
        [
          'run',
          '-c',
          '3',
          '-d',
          '30',
          '-q',
          '--shards',
          '3',
          '--on',
          'local',
          ...MARGIN,
          `${nginx.httpUrl}test.html`,
        ],
        {
          timeoutMs: 60_000,
        },
      ),
    );
    const kids = await shardProcesses(cli.child.pid!, 3);
    process.kill(kids[1]!, 'SIGKILL');
    const run = await cli.done;
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`shard \\d failed: process ${kids[1]} was killed \\(SIGKILL\\)`));
    expect(kids.filter(alive)).toEqual([]);
  });

  it('Ctrl-C stops every shard, keeps what they measured, and leaves no shard process', async () => {
    const partial = join(dir, 'stopped.json');
    const cli = endEach(
      startCli(
        [
          'run',
          '-c',
          '3',
          '-d',
          '30',
          '--shards',
          '3',
          '--on',
          'local',
          ...MARGIN,
          '--json',
          partial,
          `${nginx.httpUrl}test.html`,
        ],
        {
          timeoutMs: 60_000,
        },
      ),
    );
    const kids = await shardProcesses(cli.child.pid!, 3);
    await cli.waitForStderr(/req\/s/); // the load runs
    cli.child.kill('SIGINT');
    const run = await cli.done;
    expect(run.code, run.stderr).toBe(130);
    expect(kids.filter(alive)).toEqual([]);
    const result = readResult(partial);
    expect(result.status).toBe('cancelled');
    expect(result.shards).toHaveLength(3);
    expect(result.requests.total).toBeGreaterThan(0);
  });
});
