import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../electron/cli/run/command.ts';
import { runResultSchema, type RunResult } from '../../shared/model/result.ts';
import { handlers, startHttpServer, type TestServer } from '../helpers/servers.ts';
import { ARTIFACTS, saveDownload, type AppPage } from './app-page.ts';
import { useE2eApp } from './fixture.ts';

/*
 * History's import and export in Chromium through the web host: result files written by the
 * CLI's --json are picked, become History entries, and are saved again as the same bytes; the
 * shard results of one plan (`trebuchet run --shard i/N`) become one merged entry.
 */

const e2e = useE2eApp();
/** The host saves and answers on a machine shared with other test runs: give it time. */
const POLL = { timeout: 20_000 };
let server: TestServer;
let dir: string;

/** Room for the two shard runs (in this process) to set up before their common start. */
const START_MARGIN_MS = 3_000;

/** `trebuchet run ...` in this process (the CLI's own command), its stderr kept for a failure. */
async function run(argv: readonly string[]): Promise<void> {
  let stderr = '';
  const sink = new Writable({ write: (_c, _e, done) => done() });
  const err = new Writable({
    write: (chunk: Buffer, _e, done) => {
      stderr += chunk.toString();
      done();
    },
  });
  const code = await runCommand({
    argv,
    cwd: dir,
    appVersion: '0.1.0',
    stdout: sink,
    stderr: err,
    onInterrupt: () => () => undefined,
  });
  expect(code, stderr).toBe(0);
}

beforeAll(async () => {
  server = await startHttpServer(handlers.ok('hello'));
  dir = mkdtempSync(join(tmpdir(), 'trebuchet-e2e-import-'));
  const load = ['-c', '2', '-d', '0.5', '-q'];
  await run([...load, '--name', 'cli run', '--json', 'run.json', server.url]);
  const startAt = new Date(Date.now() + START_MARGIN_MS).toISOString();
  await Promise.all(
    [0, 1].map((i) =>
      run([
        ...load,
        '--name',
        'sharded',
        '--shard',
        `${i + 1}/2`,
        '--start-at',
        startAt,
        '--json',
        `shard-${i}.json`,
        server.url,
      ]),
    ),
  );
}, 60_000);

afterAll(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function importFiles(app: AppPage, files: readonly string[]): Promise<void> {
  await app.page.getByTestId('tab-history').click();
  await app.page.getByTestId('history-import-input').setInputFiles(files.map((f) => join(dir, f)));
}

const shardOf = (file: string): RunResult =>
  runResultSchema.parse(JSON.parse(readFileSync(join(dir, file), 'utf8')));

describe("History's import and export in the browser", () => {
  it('imports a JSON file written by the CLI beside a bad one, shows the entry, and saves it again as the same bytes', async () => {
    const app = await e2e.open();
    const { page } = app;
    const bad = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as Record<string, unknown>;
    bad.durationSeconds = -1;
    writeFileSync(join(dir, 'broken.json'), JSON.stringify(bad));
    await importFiles(app, ['broken.json', 'run.json']);
    await expect
      .poll(() => page.getByTestId('history-import-done').textContent(), POLL)
      .toBe('Imported one result.');
    expect(await page.getByTestId('history-import-problems').textContent()).toMatch(
      /^broken\.json: not a result Trebuchet reads: durationSeconds: /,
    );
    const row = page.getByTestId('history-row').filter({ hasText: 'cli run' });
    await expect.poll(() => row.count(), POLL).toBe(1);
    // The import opens what it kept.
    await expect.poll(() => page.getByTestId('record-name').textContent(), POLL).toBe('cli run');
    await page.screenshot({ path: join(ARTIFACTS, 'history-import.png') });
    const saved = await saveDownload(page, 'record-save-json', dir);
    expect(saved.name).toBe('cli-run.json');
    expect(readFileSync(saved.path, 'utf8')).toBe(readFileSync(join(dir, 'run.json'), 'utf8'));
  });

  it('merges the shard results of one plan into one entry, and refuses a set with a shard missing or repeated, naming the file', async () => {
    const app = await e2e.open();
    const { page } = app;
    await importFiles(app, ['shard-0.json']);
    await expect
      .poll(() => page.getByTestId('history-import-problems').textContent(), POLL)
      .toMatch(/^shard 2 of 2 is missing \(shard-0\.json is 1\)/);
    copyFileSync(join(dir, 'shard-0.json'), join(dir, 'shard-0-again.json'));
    await importFiles(app, ['shard-0.json', 'shard-1.json', 'shard-0-again.json']);
    await expect
      .poll(() => page.getByTestId('history-import-problems').textContent(), POLL)
      .toBe('shard-0-again.json and shard-0.json are both shard 1/2');
    await importFiles(app, ['shard-1.json', 'shard-0.json']);
    await expect
      .poll(() => page.getByTestId('history-import-done').textContent(), POLL)
      .toBe('Imported one result (2 shards merged).');
    await expect
      .poll(() => page.getByTestId('history-row').filter({ hasText: 'sharded' }).count(), POLL)
      .toBe(1);
    await expect.poll(() => page.getByTestId('record-name').textContent(), POLL).toBe('sharded');
    await page.screenshot({ path: join(ARTIFACTS, 'history-import-shards.png') });
    const saved = await saveDownload(page, 'record-save-json', dir);
    const merged = runResultSchema.parse(JSON.parse(readFileSync(saved.path, 'utf8')));
    const shards = [shardOf('shard-0.json'), shardOf('shard-1.json')];
    expect(merged.shard).toBeUndefined();
    expect(merged.shards?.map((s) => [s.index, s.requests])).toEqual(
      shards.map((s, i) => [i, s.requests.total]),
    );
    expect(merged.requests.total).toBe(shards[0]!.requests.total + shards[1]!.requests.total);
    expect(merged.requests.total).toBeGreaterThan(0);
  });
});
