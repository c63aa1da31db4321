import http from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebHost, type WebHost } from '../../electron/host/server.ts';
import { postCommand } from '../../renderer/api/web-socket-client.ts';
import type { CommandOutput } from '../../shared/contract/api.ts';
import { IMPORT_BODY_BYTES, IMPORT_PATH } from '../../shared/contract/web-protocol.ts';
import { runJson } from '../../shared/export/run.ts';
import { runResultFixture, sampleFixture } from '../helpers/run-result.ts';

/*
 * History's import through the web host: its own HTTP path (POST /import), which takes result
 * files larger than a WebSocket message, guarded by the token and refusing a body over its cap
 * before reading it.
 */

let dir: string;
let host: WebHost;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'trebuchet-import-host-'));
  await writeFile(path.join(dir, 'index.html'), '<!doctype html><title>t</title>');
  host = await startWebHost({ staticDir: dir, appVersion: '0.0.0', dataDir: path.join(dir, 'data') });
});

afterAll(async () => {
  await host.close();
  await rm(dir, { recursive: true, force: true });
});

const importUrl = (token: string) => `http://127.0.0.1:${host.port}${IMPORT_PATH}?token=${token}`;

describe("the web host's import path", () => {
  it('keeps a result file larger than a socket message (4 MiB) in History', async () => {
    const samples = Array.from({ length: 12_000 }, (_, seq) =>
      sampleFixture({ seq, elapsedSeconds: seq + 1 }),
    );
    const text = runJson([runResultFixture({ scenarioName: 'long one', samples })]);
    expect(text.length).toBeGreaterThan(4 * 1024 * 1024);
    const reply = await postCommand(importUrl(host.token), { files: [{ name: 'long.json', text }] });
    expect(reply.ok).toBe(true);
    const outcome = (reply as { value: CommandOutput<'history.import'> }).value;
    expect(outcome.problems).toEqual([]);
    expect(outcome.imported.map((i) => [i.files, i.summary.name])).toEqual([[['long.json'], 'long one']]);
  });

  it('refuses a wrong token, a GET, and a body over its cap (by its length, before reading it)', async () => {
    const wrong = await postCommand(importUrl('x'.repeat(32)), { files: [] });
    expect(wrong).toEqual({ ok: false, error: 'Missing or wrong token.' });
    const get = await fetch(importUrl(host.token));
    expect(get.status).toBe(405);
    const tooLarge = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = http.request(importUrl(host.token), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': IMPORT_BODY_BYTES + 1 },
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
      req.write('{"files":');
    });
    expect(tooLarge).toEqual({
      status: 413,
      text: 'The files of one import are at most 64 MiB together; read a larger result with `trebuchet report`.',
    });
  });
});
