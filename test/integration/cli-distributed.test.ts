/**
 * A run on local shards, for real against nginx: `trebuchet run --shards N --on local` starts N
 * shard processes (`--shard i/N --start-on stdin`), starts them together once all are ready,
 * merges their windows live and their reports exactly with the engine's one coordinator
 * (issues 23, 35), and always ends: a killed or silent shard is named, the others' result kept
 * (issue 33).
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runResultSchema, type RunResult } from '../../shared/model/result.ts';
import { streamLineSchema } from '../../shared/shards/stream.ts';
import { WATCH_EVERY_MS } from '../../electron/engine/shards/link-watch.ts';
import { PROCESS_SILENCE_MS } from '../../electron/distributed/process-links.ts';
import { endAfterAll, endAfterEach } from '../helpers/cleanup.ts';
import { runCli, startCli } from '../helpers/cli.ts';
import { nginxStatus, startNginx, type NginxServer } from '../helpers/nginx.ts';
import { refusedPort, startRawServer } from '../helpers/servers.ts';

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

/** `--json -`'s lines: the live samples as the run emitted them, and the result. */
function streamed(stdout: string) {
  const lines = stdout
    .trim()
    .split('\n')
    .map((l) => streamLineSchema.parse(JSON.parse(l)));
  const ticks = lines.flatMap((l) => (l.type === 'tick' ? [l] : []));
  const result = lines.at(-1);
  if (result?.type !== 'result') throw new Error('the stream does not end with its result');
  return { ticks, result: result.result };
}

describe('trebuchet run --shards N --on local', () => {
  it("runs 3 shards live and merges them into the report a local run has: total = the sum of the shards = nginx's count", async () => {
    const url = `${nginx.httpUrl}test.html`;
    const before = (await nginxStatus(nginx)).requests;
    const merged = join(dir, 'merged.json');
    const local = join(dir, 'local.json');
    const [run, one] = await Promise.all([
      runCli(['run', '-c', '3', '-d', '0.5', '--shards', '3', '--on', 'local', '--json', merged, url], {
        timeoutMs: 60_000,
      }),
      runCli(['run', '-c', '3', '-d', '0.5', '--json', local, `${reference.httpUrl}test.html`], {
        timeoutMs: 60_000,
      }),
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Shards \(start: after the common start\):$/m);
    // Numbered from 1, as --shard i/N is.
    expect(run.stdout).toMatch(/^ {2}3 +\S+ \(\d+ cores\) /m);
    const result = readResult(merged);
    expect(result.status).toBe('completed');
    expect(result.shards!.map((s) => s.index)).toEqual([0, 1, 2]);
    expect(result.requests.total).toBe(result.shards!.reduce((a, s) => a + s.requests, 0));
    expect(result.requests.total).toBeGreaterThan(0);
    // nginx counted every request of the run plus one pre-flight check per shard.
    const after = (await nginxStatus(nginx)).requests;
    expect(after - before - 1).toBe(result.requests.total + result.requests.inFlightAtEnd + 3);
    // Each shard's load began after the one common start it was given.
    for (const s of result.shards!) expect(s.startOffsetMs).toBeGreaterThanOrEqual(0);

    expect(one.code, one.stderr).toBe(0);
    const keys = (r: object) =>
      Object.keys(r)
        .filter((k) => k !== 'shards')
        .sort();
    expect(keys(result)).toEqual(keys(readResult(local)));
    expect(result.samples.length).toBeGreaterThan(0);
    expect(result.samples.at(-1)!.totalRequests).toBe(result.requests.total);
  });

  it("merges the shards' windows exactly: the live p99 at the last tick is the merged result's p99", async () => {
    // One window for the whole run (a 10 s tick, a 1.5 s load): its live percentiles are the run's.
    const run = await runCli(
      [
        'run',
        '-c',
        '3',
        '-d',
        '1.5',
        '--interval',
        '10s',
        '--shards',
        '3',
        '--on',
        'local',
        '--json',
        '-',
      ].concat(`${nginx.httpUrl}test.html`),
      { timeoutMs: 60_000 },
    );
    expect(run.code, run.stderr).toBe(0);
    const { ticks, result } = streamed(run.stdout);
    const last = ticks.at(-1)!.sample;
    expect(last.final).toBe(true);
    expect(last.requests).toBe(result.requests.total);
    expect(result.latency!.percentiles['99']).toBeGreaterThan(0);
    expect(last.latency!.p99).toBe(result.latency!.percentiles['99']);
    expect(last.latency!.p50).toBe(result.latency!.percentiles['50']);
  });

  it('fails the run naming the shard killed, keeps what the others measured, and leaves no shard process', async () => {
    const cli = endEach(
      startCli(
        ['run', '-c', '3', '-d', '30', '--shards', '3', '--on', 'local', `${nginx.httpUrl}test.html`],
        {
          timeoutMs: 60_000,
        },
      ),
    );
    const kids = await shardProcesses(cli.child.pid!, 3);
    await cli.waitForStderr(/req\/s/); // the load runs
    process.kill(kids[1]!, 'SIGKILL');
    const run = await cli.done;
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      new RegExp(
        `shard [123]/3 failed: process ${kids[1]} was killed \\(SIGKILL\\); the result holds the other 2 of 3`,
      ),
    );
    // The other two shards' rows, and their requests.
    expect(run.stdout.match(/^ {2}[123] +\S+ \(\d+ cores\) +[\d,]+ /gm)).toHaveLength(2);
    expect(kids.filter(alive)).toEqual([]);
  });

  // Tagged timing: the end within the load, the silence limit and a tick is a wall-clock bound.
  it(
    'ends a silent shard (SIGSTOP) within the load and its grace, names it, keeps the others, leaves no process',
    { tags: ['timing'] },
    async () => {
      const seconds = 4;
      const partial = join(dir, 'silent.json');
      const cli = endEach(
        startCli(
          [
            'run',
            '-c',
            '3',
            '-d',
            String(seconds),
            '--shards',
            '3',
            '--on',
            'local',
            '--json',
            partial,
          ].concat(`${nginx.httpUrl}test.html`),
          { timeoutMs: 90_000 },
        ),
      );
      const kids = await shardProcesses(cli.child.pid!, 3);
      await cli.waitForStderr(/req\/s/); // the load runs: its first tick, a second after the go
      const loadBegan = Date.now() - 1000;
      process.kill(kids[2]!, 'SIGSTOP');
      const run = await cli.done;
      expect(run.code).toBe(1);
      const result = readResult(partial);
      expect(result.status).toBe('failed');
      expect(result.error!.message).toMatch(
        /^shard [123]\/3 sent nothing for \d+(\.\d)? s, past its 10 s limit: ended; the result holds the other 2 of 3$/,
      );
      expect(result.shards).toHaveLength(2);
      expect(result.requests.total).toBe(result.shards!.reduce((a, s) => a + s.requests, 0));
      // Ended within the load and the grace: its silence limit, the coordinator's look at the links, a tick.
      const bound = seconds * 1000 + PROCESS_SILENCE_MS + WATCH_EVERY_MS + 1000;
      expect(Date.parse(result.endedAt) - loadBegan).toBeLessThan(bound);
      expect(kids.filter(alive)).toEqual([]);
    },
  );

  it('Ctrl-C stops every shard, keeps what they measured, and leaves no shard process', async () => {
    const partial = join(dir, 'stopped.json');
    const cli = endEach(
      startCli(
        ['run', '-c', '3', '-d', '30', '--shards', '3', '--on', 'local', '--json', partial].concat(
          `${nginx.httpUrl}test.html`,
        ),
        { timeoutMs: 60_000 },
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

  it("says a refused target in the shards' own words", async () => {
    const port = await refusedPort();
    const run = await runCli(
      ['run', '-c', '3', '-d', '1', '--shards', '3', '--on', 'local', `http://127.0.0.1:${port}/`],
      {
        timeoutMs: 60_000,
      },
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /shard [123]\/3: cannot connect to 127\.0\.0\.1:\d+: connection refused: connect ECONNREFUSED/,
    );
    expect(run.stderr).not.toMatch(/is not a shard's result/);
  });

  it('Ctrl-C while the shards get ready cancels the run, says nothing of a failure, and leaves no shard process', async () => {
    // A target that accepts and never answers: every shard's pre-flight waits.
    const silent = endEach(await startRawServer(() => undefined));
    const cli = endEach(
      startCli(
        ['run', '-c', '3', '-d', '1', '--timeout', '30s', '--shards', '3', '--on', 'local', silent.url],
        {
          timeoutMs: 60_000,
        },
      ),
    );
    const kids = await shardProcesses(cli.child.pid!, 3);
    cli.child.kill('SIGINT');
    const run = await cli.done;
    expect(run.code).toBe(130);
    expect(run.stdout).toMatch(/^Status: cancelled/m);
    expect(run.stderr).not.toMatch(/failed|is not a shard's result/);
    expect(kids.filter(alive)).toEqual([]);
  });

  it('checks its flags before any shard starts', async () => {
    const before = (await nginxStatus(nginx)).requests;
    const run = await runCli(
      [
        'run',
        '-c',
        '3',
        '--shards',
        '3',
        '--on',
        'local',
        '--ready-timeout',
        '99999999',
        `${nginx.httpUrl}test.html`,
      ],
      { timeoutMs: 60_000 },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--ready-timeout: give the shards 1 s to 60 min to get ready, not 99999999/);
    // No shard started: none checked the target.
    expect((await nginxStatus(nginx)).requests - before - 1).toBe(0);
  });
});
