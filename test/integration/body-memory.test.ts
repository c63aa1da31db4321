import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { endAfterAll } from '../helpers/cleanup.ts';
import { startHttpServer, type TestServer } from '../helpers/servers.ts';

/*
 * A request body file is read once and shared: by the host and the engine's thread, and by
 * every request, connection and pipelined copy of either engine. What a run's peak memory
 * grows by with a 64 MiB body (against the same run with a 1 KiB body) stays under 1.5x the
 * body. Before, the host's copy, the worker's clone, the request template (head and body in
 * one buffer) and a template per pipelined request, or autocannon's copy per connection,
 * took three to six times the body.
 */

const RUN = resolve(import.meta.dirname, '../helpers/body-memory-run.ts');
const BIG = 64 * 1024 * 1024;
const REQUESTS = 4;

interface Run {
  status: string;
  total: number;
  ok: number;
  outBody: number;
  maxRssBytes: number;
}

const keep = endAfterAll();
let server: TestServer;
let small: string;
let big: string;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trebuchet-body-'));
  keep({ remove: () => rmSync(dir, { recursive: true, force: true }) });
  small = join(dir, 'small.bin');
  writeFileSync(small, Buffer.alloc(1024, 7));
  // Sparse: no disk written; read, every page of it is in memory all the same.
  big = join(dir, 'big.bin');
  writeFileSync(big, '');
  truncateSync(big, BIG);
  // Reads each body to its end, then answers.
  server = keep(
    await startHttpServer((req, res) => {
      req.resume();
      req.on('end', () => res.end('ok'));
    }),
  );
});

async function run(file: string, engine: 'native' | 'autocannon'): Promise<Run> {
  const scenario = {
    name: 'body memory',
    targets: [{ url: server.url, method: 'POST', body: { kind: 'file', path: file } }],
    load: { model: 'closed', connections: 2, pipelining: 2, limit: { kind: 'requests', count: REQUESTS } },
    options: { engine, timeoutMs: 60_000 },
  };
  const { stdout } = await promisify(execFile)(process.execPath, [RUN, JSON.stringify(scenario)], {
    timeout: 120_000,
  });
  return JSON.parse(stdout) as Run;
}

describe('a body file is held in memory once', () => {
  it.each(['native', 'autocannon'] as const)(
    '%s engine: 2 connections x 2 pipelined requests of a 64 MiB body grow the peak RSS by under 1.5x the body',
    async (engine) => {
      const base = await run(small, engine);
      const load = await run(big, engine);
      expect(base).toMatchObject({ status: 'completed', total: REQUESTS, ok: REQUESTS });
      expect(load).toMatchObject({ status: 'completed', total: REQUESTS, ok: REQUESTS });
      // Every request carried the whole body (the pre-flight's is not in the totals).
      expect(load.outBody).toBeGreaterThanOrEqual(REQUESTS * BIG);
      const growth = load.maxRssBytes - base.maxRssBytes;
      expect(growth / BIG, `peak RSS ${load.maxRssBytes} against ${base.maxRssBytes}`).toBeLessThan(1.5);
    },
  );
});
