/**
 * Shards across machines, on this machine: `trebuchet run --shard i/N --start-at T` processes
 * (i counted from 1) started together against nginx, then `trebuchet merge` of their files
 * (issue 23).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_PERCENTILES } from '../../shared/model/defaults.ts';
import { fileSlug } from '../../shared/model/file-name.ts';
import { runResultSchema } from '../../shared/model/result.ts';
import { streamLineSchema } from '../../shared/shards/stream.ts';
import { decodeHistogram, latencyStats, newHistogram } from '../../electron/engine/recording/histogram.ts';
import { endAfterAll } from '../helpers/cleanup.ts';
import { runCli } from '../helpers/cli.ts';
import { nginxStatus, startNginx, type NginxServer } from '../helpers/nginx.ts';

const endAll = endAfterAll();
let nginx: NginxServer;
let dir: string;

beforeAll(async () => {
  nginx = endAll(await startNginx({ files: { 'test.html': 'hello' } }));
  dir = mkdtempSync(join(tmpdir(), 'trebuchet-shards-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * How long one CLI process takes here, now, from its start to its first request answered and
 * its end (`run -n 1`: it loads the engine and checks the target as a shard does before its
 * start). Measured under the same load as the shards that follow, so their margin scales with it.
 */
async function oneProcessMs(): Promise<number> {
  const t0 = performance.now();
  const r = await runCli(['run', '-n', '1', '-q', `${nginx.httpUrl}test.html`], { timeoutMs: 60_000 });
  expect(r.code, r.stderr).toBe(0);
  return performance.now() - t0;
}

/**
 * The common start, ahead of now by what N processes started at once need to be ready: each
 * takes about one process's time, N of them share the cores (at worst one), so N times it,
 * tripled for a machine whose load changes between the measure and the start, plus a second.
 * A start passed before a process is ready is refused or begins late, which the offsets show.
 */
async function startMarginMs(n: number): Promise<number> {
  return Math.ceil(3 * n * (await oneProcessMs())) + 1000;
}

/**
 * Starts N shard processes with one --start-at, marginMs ahead (startMarginMs, measured before
 * nginx's count is read); each writes its result to name-i.json and streams to stdout.
 */
async function runShards(n: number, name: string, load: readonly string[], marginMs: number) {
  const startAt = Date.now() + marginMs;
  const runs = await Promise.all(
    Array.from({ length: n }, (_, i) =>
      runCli(
        [
          ...[
            'run',
            ...load,
            '-q',
            '--shard',
            `${i + 1}/${n}`,
            '--start-at',
            new Date(startAt).toISOString(),
          ],
          ...['--json', '-', '--export', join(dir, `${name}-${i}`)],
          `${nginx.httpUrl}test.html`,
        ],
        { timeoutMs: 60_000 },
      ),
    ),
  );
  for (const r of runs) expect(r.code, r.stderr).toBe(0);
  // The stream: a tick line per sample, then the result's line, each one JSON object.
  const shards = runs.map(({ stdout }) => {
    const lines = stdout
      .trim()
      .split('\n')
      .map((l) => streamLineSchema.parse(JSON.parse(l)));
    const last = lines.at(-1)!;
    if (last.type !== 'result') throw new Error(`last line is a ${last.type}`);
    expect(lines.slice(0, -1).every((l) => l.type === 'tick')).toBe(true);
    expect(lines.length - 1).toBeGreaterThanOrEqual(1);
    return last.result;
  });
  const jsonFiles = shards.map((s, i) =>
    join(dir, `${name}-${i}`, `${fileSlug(s.scenarioName, 'run')}.json`),
  );
  return { startAt, shards, jsonFiles, stdouts: runs.map((r) => r.stdout) };
}

async function merge(files: readonly string[], out: string) {
  const r = await runCli(['merge', ...files, '--json', out], { timeoutMs: 60_000 });
  return { ...r, merged: r.code === 0 ? runResultSchema.parse(JSON.parse(readFileSync(out, 'utf8'))) : null };
}

/**
 * nginx's count of requests served since `before`, less its own status request. Each shard
 * process also sends its one pre-flight request (the target checked before any load).
 */
async function servedSince(before: number): Promise<number> {
  const after = await nginxStatus(nginx);
  return after.requests - before - 1;
}

describe('trebuchet run --shard and trebuchet merge against nginx', () => {
  let two: Awaited<ReturnType<typeof runShards>>;
  let three: Awaited<ReturnType<typeof runShards>>;

  it(
    '--shard 1/2 and 2/2 of -n 4000 -c 4 started together make one plan: the merge adds up to the sum and to nginx’s own count',
    { tags: ['timing'], timeout: 120_000 },
    async () => {
      const margin = await startMarginMs(2);
      const before = (await nginxStatus(nginx)).requests;
      two = await runShards(2, 'closed', ['-n', '4000', '-c', '4'], margin);
      const served = await servedSince(before);
      // -n split exactly: 2000 each.
      expect(two.shards.map((s) => s.requests.total)).toEqual([2000, 2000]);
      expect(two.shards.map((s) => s.load)).toMatchObject([
        { model: 'closed', connections: 2, limit: { kind: 'requests', count: 2000 } },
        { model: 'closed', connections: 2, limit: { kind: 'requests', count: 2000 } },
      ]);
      expect(two.shards.map((s) => [s.shard!.index, s.shard!.count])).toEqual([
        [0, 2],
        [1, 2],
      ]);
      expect(two.shards[0]!.shard!.planId).toBe(two.shards[1]!.shard!.planId);

      // Told the same start: neither began before it, and within 20 ms of each other.
      const offsets = two.shards.map((s) => s.shard!.clock.startOffsetMs);
      for (const o of offsets) expect(o).toBeGreaterThanOrEqual(0);
      for (const o of offsets) expect(o).toBeLessThan(250);
      // Processes ready seconds apart begin together; a timer on a loaded two-core machine may
      // still wake tens of ms late (58 ms seen with four other jobs running).
      expect(Math.abs(offsets[0]! - offsets[1]!)).toBeLessThan(100);
      for (const s of two.shards) expect(s.shard!.gridStartAt).toBeGreaterThanOrEqual(two.startAt);

      const { code, stdout, stderr, merged } = await merge(two.jsonFiles, join(dir, 'closed-merged.json'));
      expect(code, stderr).toBe(0);
      const m = merged!;
      expect(m.requests.total).toBe(4000);
      expect(m.requests.total).toBe(two.shards[0]!.requests.total + two.shards[1]!.requests.total);
      // Every request the shards counted, nginx counted (none left in flight with -n), beside a pre-flight request each.
      expect(m.requests.inFlightAtEnd).toBe(0);
      expect(served).toBe(m.requests.total + 2);
      expect(m.statusCodes).toEqual({ '200': 4000 });
      expect(m.load).toMatchObject({
        model: 'closed',
        connections: 4,
        limit: { kind: 'requests', count: 4000 },
      });
      expect(m.shard).toBeUndefined();
      expect(m.shards!.map((r) => [r.index, r.requests])).toEqual([
        [0, 2000],
        [1, 2000],
      ]);
      expect(m.generator.workers!.length).toBe(
        two.shards.reduce((n, s) => n + (s.generator.workers?.length ?? 1), 0),
      );
      // The merged samples count every request once.
      expect(m.samples.reduce((n, s) => n + (s.warmup ? 0 : s.requests), 0)).toBe(4000);
      expect(m.samples.at(-1)!.totalRequests).toBe(4000);

      // The merged percentiles are those of one histogram of every request's latency.
      const all = newHistogram();
      for (const s of two.shards) all.add(decodeHistogram(s.histogram!));
      expect(all.totalCount).toBe(4000);
      const one = latencyStats(all, REPORT_PERCENTILES)!;
      const max = Math.max(...two.shards.map((s) => s.latency!.max));
      for (const p of REPORT_PERCENTILES) {
        expect(m.latency!.percentiles[String(p)]).toBe(Math.min(one.percentiles[String(p)]!, max));
      }
      expect(m.latency!.max).toBe(max);
      expect(m.latency!.min).toBe(Math.min(...two.shards.map((s) => s.latency!.min)));
      expect(m.latency!.mean).toBeCloseTo(one.mean, 9);

      // The text report: the Shards table, one row per shard.
      expect(stdout).toMatch(/^Shards \(start: after the common start\):$/m);
      expect(stdout).toMatch(/^ {2}1 +\S+ \(\d+ cores\) +2,000 /m);
      expect(stdout).toMatch(/^ {2}2 +\S+ \(\d+ cores\) +2,000 /m);
    },
  );

  it(
    'an open-model rate split over three shards keeps its rate within 1% and sends every planned request',
    { tags: ['timing'], timeout: 120_000 },
    async () => {
      const margin = await startMarginMs(3);
      const before = (await nginxStatus(nginx)).requests;
      three = await runShards(3, 'open', ['--rate', '600', '-d', '2'], margin);
      const served = await servedSince(before);
      expect(three.shards.map((s) => s.load)).toMatchObject([
        { model: 'open', rate: 200 },
        { model: 'open', rate: 200 },
        { model: 'open', rate: 200 },
      ]);
      const { code, stderr, merged } = await merge(three.jsonFiles, join(dir, 'open-merged.json'));
      expect(code, stderr).toBe(0);
      const m = merged!;
      // 600/s for 2 s: 1200 scheduled, 400 a shard; all sent, all answered, all counted by nginx (and 3 pre-flights).
      expect(three.shards.map((s) => s.requests.total)).toEqual([400, 400, 400]);
      expect(m.requests.total).toBe(1200);
      expect(m.requests.dropped).toBe(0);
      expect(served).toBe(1200 + 3);
      expect(m.throughput.targetRate).toBe(600);
      expect(Math.abs(m.throughput.sentRate - 600) / 600).toBeLessThan(0.01);
      // The rate held is the sent rate (vegeta's "rate"); the throughput also counts the wait for the last answers.
      expect(m.throughput.requestsPerSecond).toBeCloseTo(1200 / (m.attackSeconds! + m.waitSeconds!), 6);
      const offsets = three.shards.map((s) => s.shard!.clock.startOffsetMs);
      for (const o of offsets) expect(o).toBeGreaterThanOrEqual(0);
      for (const o of offsets) expect(o).toBeLessThan(250);
      expect(Math.max(...offsets) - Math.min(...offsets)).toBeLessThan(100);
    },
  );

  it(
    'merging shards of two different plans is refused, naming the file',
    { tags: ['timing'], timeout: 60_000 },
    async () => {
      const r = await merge([two.jsonFiles[0]!, three.jsonFiles[1]!], join(dir, 'no.json'));
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(
        `${three.jsonFiles[1]!} is shard 2/3 of plan ${three.shards[1]!.shard!.planId}`,
      );
      expect(r.stderr).toContain('different plans');
    },
  );

  it(
    'merging with shard 3/3 missing, or one twice, is refused, naming the files',
    { tags: ['timing'], timeout: 60_000 },
    async () => {
      const missing = await merge(three.jsonFiles.slice(0, 2), join(dir, 'no.json'));
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain(
        `shard 3 of 3 is missing (${three.jsonFiles[0]!} is 1, ${three.jsonFiles[1]!} is 2)`,
      );
      const twice = await merge([...three.jsonFiles, three.jsonFiles[2]!], join(dir, 'no.json'));
      expect(twice.code).toBe(2);
      expect(twice.stderr).toContain(`${three.jsonFiles[2]!} and ${three.jsonFiles[2]!} are both shard 3/3`);
    },
  );

  it('a --json - log merges as its --json file does', { tags: ['timing'], timeout: 60_000 }, async () => {
    const logs = three.stdouts.map((text, i) => ({ file: join(dir, `open-${i}.log`), text }));
    for (const l of logs) writeFileSync(l.file, l.text);
    const fromLogs = await merge(
      logs.map((l) => l.file),
      join(dir, 'open-from-logs.json'),
    );
    expect(fromLogs.code, fromLogs.stderr).toBe(0);
    const fromFiles = runResultSchema.parse(JSON.parse(readFileSync(join(dir, 'open-merged.json'), 'utf8')));
    expect(fromLogs.merged!.requests).toEqual(fromFiles.requests);
    expect(fromLogs.merged!.latency).toEqual(fromFiles.latency);
  });

  it('a --start-at more than a second past is refused before any load', async () => {
    const before = (await nginxStatus(nginx)).requests;
    const past = new Date(Date.now() - 5000).toISOString();
    const r = await runCli(
      ['run', '-n', '10', '--shard', '1/2', '--start-at', past, `${nginx.httpUrl}test.html`],
      {
        timeoutMs: 60_000,
      },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--start-at: \S+ is \d+\.\d s past/);
    expect(await servedSince(before)).toBe(0);
  }, 60_000);
});
