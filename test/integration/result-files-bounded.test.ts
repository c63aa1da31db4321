import { spawn } from 'node:child_process';
import http from 'node:http';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../shared/model/defaults.ts';
import { endAfterAll } from '../helpers/cleanup.ts';
import { CLI_BIN, runCli } from '../helpers/cli.ts';
import { writeBigResult } from '../helpers/big-result.ts';
import { peakRssMb } from '../helpers/process-memory.ts';
import { amendResult } from '../helpers/run-result.ts';
import { latencyValues, shardResultFixture } from '../helpers/shard-results.ts';

/*
 * Result files read with bounded memory (issue 33): `trebuchet report` and History's import
 * read a file a chunk at a time into its tree, never its text or bytes whole; imports arriving
 * together are read one at a time; past the caps a file is refused before it is read. Peak RSS
 * is the child's own high-water mark (VmHWM, /proc). And a result that contradicts itself is
 * refused wherever it is read, naming the field and the two numbers.
 */

const MB = 1_000_000;
const endAll = endAfterAll();
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'trebuchet-bounded-'));
  endAll({ remove: () => rmSync(dir, { recursive: true, force: true }) });
});

/** A CLI command in a child of its own, and the child's peak RSS (MB). */
async function measuredCli(
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string; peakMb: number }> {
  const child = spawn(process.execPath, [CLI_BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const ended = new Promise<number | null>((resolve) => child.once('close', resolve));
  const peakMb = await peakRssMb(child.pid!, ended);
  return { code: await ended, stdout, stderr, peakMb };
}

/** `trebuchet serve` on a data folder; its port, token and pid once it serves. */
async function serve(dataDir: string) {
  const child = spawn(process.execPath, [CLI_BIN, 'serve', '--data-dir', dataDir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /http:\/\/\S+/.exec(out);
      if (m) resolve(m[0]);
    });
    child.once('exit', (code) => reject(new Error(`serve ended (${code}):\n${out}`)));
  });
  const { port, searchParams } = new URL(url);
  return {
    pid: child.pid!,
    ended,
    /** Posts files as the page does (history.import's input, JSON). */
    post: (body: string) =>
      fetch(`http://127.0.0.1:${port}/import?token=${searchParams.get('token')}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: `http://127.0.0.1:${port}` },
        body,
      }).then(async (r) => ({ status: r.status, text: await r.text() })),
    /**
     * Posts a body's first KiB only, the rest when `finish` is called: a host reads such an
     * import until the end that has not come, so it stays the one being read, or waits, until then.
     */
    postHeld(body: Buffer) {
      const req = http.request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: `/import?token=${searchParams.get('token')}`,
        headers: {
          'content-type': 'application/json',
          'content-length': body.length,
          origin: `http://127.0.0.1:${port}`,
        },
      });
      const reply = new Promise<{ status: number; text: string }>((resolve, reject) => {
        req.once('response', (res) => {
          let text = '';
          res.on('data', (d: Buffer) => (text += d.toString()));
          res.once('end', () => resolve({ status: res.statusCode!, text }));
        });
        req.once('error', reject);
      });
      req.write(body.subarray(0, 1024));
      return {
        reply,
        finish: () => void req.end(body.subarray(1024)),
        /** A refused one: its body is not read, so no more is sent. */
        drop: () => req.destroy(),
      };
    },
    async close() {
      child.kill('SIGTERM');
      await ended;
    },
  };
}

/** A result file of about `bytes` written as `name`, and the body that imports it (history.import's input). */
function importOf(name: string, bytes: number): { size: number; body: string } {
  const file = join(dir, name);
  const size = writeBigResult(file, bytes);
  return { size, body: JSON.stringify({ files: [{ name, text: readFileSync(file, 'utf8') }] }) };
}

/** `trebuchet serve` on a fresh data folder, its peak RSS measured until `peak()` is called. */
async function measuredHost(folder: string) {
  const dataDir = join(dir, folder);
  mkdirSync(dataDir);
  const host = await serve(dataDir);
  endAll(host);
  let measuring: () => void = () => undefined;
  const peak = peakRssMb(host.pid, new Promise<void>((resolve) => (measuring = resolve)));
  return {
    host,
    peak: () => {
      measuring();
      return peak;
    },
  };
}

describe('result files are read with bounded memory', () => {
  it('reports a 95 MB result under 300 MB of RSS (2.06 GB before)', async () => {
    const file = join(dir, 'day.json');
    const size = writeBigResult(file, 95 * MB);
    const r = await measuredCli(['report', file]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Complete requests:      36000');
    console.log(`report of ${(size / MB).toFixed(1)} MB: peak RSS ${r.peakMb.toFixed(0)} MB`);
    expect(r.peakMb).toBeLessThan(300);
    expect(r.peakMb).toBeLessThan((2 * size) / MB + 100);
  });

  it('refuses a result past its cap before reading a byte of it', async () => {
    const file = join(dir, 'huge.json');
    writeFileSync(file, '');
    truncateSync(file, LIMITS.runFileBytes.max + 1);
    const r = await measuredCli(['report', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `${file} is ${LIMITS.runFileBytes.max + 1} bytes; a result file is at most ${LIMITS.runFileBytes.max} bytes`,
    );
    expect(r.peakMb).toBeLessThan(150);
  });

  it(
    'imports a 60 MB result through the web host under 250 MB of RSS, and ten of 20 MB at once stay under that',
    { timeout: 600_000 },
    async () => {
      const { size, body } = importOf('import.json', 60 * MB);
      const { host: one, peak: onePeak } = await measuredHost('data-one');
      const reply = await one.post(body);
      expect(reply.status).toBe(200);
      expect(JSON.parse(reply.text)).toMatchObject({
        ok: true,
        value: { imported: [{ files: ['import.json'] }], problems: [] },
      });
      const single = await onePeak();
      console.log(`import of ${(size / MB).toFixed(1)} MB: peak RSS ${single.toFixed(0)} MB`);
      expect(single).toBeLessThan(250);

      // Ten at once, of a file a third that size, to a host and folder of their own: one is
      // read at a time, eight wait, the tenth is turned away. Read one after another, their peak
      // stays under the one 60 MB import's (154 against 240 MB here); bodies buffered while
      // they wait would pass it by the fifth (each 20 MB on top of a 20 MB file's tree).
      const { size: tenSize, body: tenBody } = importOf('ten.json', 20 * MB);
      const { host: many, peak: manyPeak } = await measuredHost('data-many');
      // Ten posted at once, each body held after its first KiB: none can end, so whatever their
      // order of arrival, one is read, eight wait, and the tenth is turned away; then the rest
      // of each body is sent.
      const bytes = Buffer.from(tenBody);
      const posts = Array.from({ length: 10 }, () => many.postHeld(bytes));
      const first = await Promise.race(posts.map((p, i) => p.reply.then((r) => ({ i, r }))));
      expect(first.r).toEqual({
        status: 503,
        text: '8 imports are waiting already; import these once they are done.',
      });
      posts[first.i]!.drop();
      const others = posts.filter((_, i) => i !== first.i);
      for (const p of others) p.finish();
      const replies = await Promise.all(others.map((p) => p.reply));
      const peak = await manyPeak();
      console.log(`ten imports of ${(tenSize / MB).toFixed(1)} MB at once: peak RSS ${peak.toFixed(0)} MB`);
      expect(replies.map((r) => r.status)).toEqual(Array.from({ length: 9 }, () => 200));
      // The first read is imported; each after it finds it there (the same file), named so.
      const already = replies.filter((r) => r.text.includes('already in History as'));
      expect(already).toHaveLength(8);
      const [imported] = replies.filter((r) => !already.includes(r));
      expect(JSON.parse(imported!.text)).toMatchObject({
        ok: true,
        value: { imported: [{ files: ['ten.json'] }], problems: [] },
      });
      expect(peak).toBeLessThan(single);
    },
  );
});

describe('a result that contradicts itself is refused wherever it is read', () => {
  const write = (name: string, value: unknown): string => {
    const file = join(dir, name);
    writeFileSync(file, JSON.stringify(value));
    return file;
  };
  const shards = () => [0, 1].map((i) => shardResultFixture(i, 2, latencyValues(400, i + 1), 1));

  it('report: ok above the total', async () => {
    const [shard] = shards();
    const lying = write('ok-above.json', amendResult(shard!, { requests: { ok: 401 }, shard: undefined }));
    const r = await runCli(['report', lying]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `trebuchet report: ${lying}: not a result Trebuchet reads: requests.ok: is 401 with 0 slower than the SLO, more than the 400 responses (requests.responses)`,
    );
  });

  it('merge: a total of 2,200 over 400 responses, status codes of 100,199, a bucket index of 2^31 with a count of 1e15', async () => {
    const [a, b] = shards();
    const good = write('shard-0.json', a);
    const cases: [string, unknown, string][] = [
      [
        'total.json',
        amendResult(b!, { requests: { total: 2200 } }),
        'requests.total: is 2,200, but responses and transport errors add up to 400 (400 + 0)',
      ],
      [
        'codes.json',
        { ...b!, statusCodes: { '200': 100_199 } },
        'statusCodes: add up to 100,199, not the 400 responses (requests.responses)',
      ],
      [
        'bucket.json',
        {
          ...b!,
          shard: {
            ...b!.shard,
            report: {
              ...b!.shard.report,
              lateness: { indexes: [2 ** 31], counts: [1e15], minNonZero: 1, max: 2 ** 31 },
            },
          },
        },
        'shard.report.lateness.indexes.0: is 2,147,483,648, past the last bucket (23,551)',
      ],
    ];
    for (const [name, value, message] of cases) {
      const lying = write(name, value);
      const r = await runCli(['merge', good, lying]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`trebuchet merge: ${lying}: does not add up: ${message}`);
    }
  });
});
