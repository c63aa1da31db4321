import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { WebSocketApi } from '../../renderer/api/web-socket-client.ts';
import type { CellOutcome } from '../../shared/comparison/cells.ts';
import { comparisonPlanSchema } from '../../shared/comparison/plan.ts';
import type { JobEnvelope } from '../../shared/contract/jobs.ts';
import { formatRate } from '../../shared/figures/units.ts';
import type { HistoryRecord } from '../../shared/records/history.ts';
import { endAfterEach } from '../helpers/cleanup.ts';
import { CLI_BIN, runCli } from '../helpers/cli.ts';
import { startDesktopHost } from '../helpers/desktop-host-process.ts';
import { handlers, startHttpServer } from '../helpers/servers.ts';
import { connectToHost } from '../helpers/web-host-client.ts';

/*
 * Nothing measured is lost (issue 33): a host killed (SIGKILL, as a crash) in the middle of a
 * comparison leaves its journal, and the next start of a host on that data folder makes it a
 * History entry with status "interrupted": every finished cell whole (its req/s exactly what was
 * shown when it ended), the cell that was running a partial run of the samples written before
 * the kill. One test per host: the web host, the desktop's main process (under a mocked
 * electron), the CLI (`run --preset … --save`).
 */

const ends = endAfterEach();

/** Each cell's load: long enough that the third is killed mid-load, once it has samples on disk. */
const CELL_SECONDS = 4;
/** The most any wait here takes: the cells before the kill, each with a start's slack. */
const WAIT_MS = 3 * (CELL_SECONDS + 10) * 1000;

async function twoServers() {
  const a = ends(await startHttpServer(handlers.ok('nginx')));
  const b = ends(await startHttpServer(handlers.ok('apache')));
  return comparisonPlanSchema.parse({
    name: 'nginx vs apache',
    targets: [
      { name: 'nginx', urls: { http: a.url } },
      { name: 'apache', urls: { http: b.url } },
    ],
    // Capped: the journal is the subject, not the rate (uncapped, the three tests cost 55 CPU-s).
    load: { model: 'closed', connections: 2, limit: { kind: 'duration', seconds: CELL_SECONDS }, rate: 200 },
    levels: [2, 4],
    repetitions: 1,
    pauseSeconds: 0,
  });
}

function tempDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `trebuchet-${name}-`));
  ends({ remove: () => rmSync(dir, { recursive: true, force: true }) });
  return dir;
}

async function until<T>(what: string, check: () => T | null | undefined | false): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The journal's lines of samples of a part, as written so far. */
function journaledSamples(dataDir: string, part: number): number {
  const dir = join(dataDir, 'journals');
  const files = readdirSync(dir, { withFileTypes: true }).filter((f) => f.name.endsWith('.journal'));
  let n = 0;
  for (const f of files) {
    for (const line of readFileSync(join(dir, f.name), 'utf8').split('\n')) {
      if (line.startsWith(`{"type":"samples","part":${part},`)) n++;
    }
  }
  return n;
}

/** What a page was shown of the comparison as it ran: each finished cell's result, and the running cell's samples. */
function shown(events: readonly JobEnvelope[]) {
  const results = events.flatMap((e) =>
    e.kind === 'comparison' && e.event.type === 'result' ? [e.event.result] : [],
  );
  const samples = (part: number) =>
    events.filter((e) => e.event.type === 'sample' && e.event.part === part && e.event.source === 'engine')
      .length;
  return { results, samples };
}

/** The interrupted record: the two finished cells exactly as shown, the third a partial run. */
function expectInterrupted(record: HistoryRecord, finished: readonly CellOutcome[]): void {
  expect(record.kind).toBe('comparison');
  expect(record.status).toBe('interrupted');
  if (record.kind !== 'comparison') return;
  expect(record.outcomes).toHaveLength(3);
  for (const [i, cell] of finished.entries()) {
    const kept = record.outcomes[i]!;
    expect(kept.cellIndex).toBe(cell.cellIndex);
    expect(kept.result.status).toBe('completed');
    expect(kept.result.throughput.requestsPerSecond).toBe(cell.result.throughput.requestsPerSecond);
    expect(kept.result.requests).toEqual(cell.result.requests);
    expect(kept.result.latency).toEqual(cell.result.latency);
    // Whole: its samples are the run's (they travel live, the journal wrote them as they came).
    expect(kept.result.samples.length).toBeGreaterThan(CELL_SECONDS - 2);
  }
  const cut = record.outcomes[2]!;
  expect(cut.cellIndex).toBe(2);
  expect(cut.result.status).toBe('interrupted');
  expect(cut.result.samples.length).toBeGreaterThan(0);
  expect(cut.result.requests.total).toBeGreaterThan(0);
  // The record is listed at the moment its journal last spoke: the partial run's end.
  expect(record.createdAt).toBe(cut.result.endedAt);
}

/** `trebuchet history list --json` of the folder: the entry, interrupted, with its finished cells' requests. */
async function expectListed(dataDir: string, id: string, finished: readonly CellOutcome[]): Promise<void> {
  const listed = await runCli(['history', 'list', '--data-dir', dataDir, '--json']);
  expect(listed.code).toBe(0);
  const rows = JSON.parse(listed.stdout) as {
    id: string;
    status: string;
    requests: number;
    statusText: string;
  }[];
  const row = rows.find((r) => r.id === id);
  expect(row?.status).toBe('interrupted');
  expect(row?.statusText).toMatch(/^interrupted at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ \(the host stopped\)$/);
  expect(row?.requests).toBe(finished.reduce((n, c) => n + c.result.requests.total, 0));
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** `trebuchet serve --port P --data-dir D`, as a user starts it; its URL's token once it serves. */
async function serve(port: number, dataDir: string): Promise<{ child: ChildProcess; token: string }> {
  const child = spawn(process.execPath, [CLI_BIN, 'serve', '--port', String(port), '--data-dir', dataDir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  ends({
    close: async () => {
      child.kill('SIGKILL');
      await ended;
    },
  });
  let out = '';
  const token = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /\?token=([A-Za-z0-9_-]+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`serve ended (${code}) before it served:\n${out}`)));
  });
  return { child, token };
}

async function kill(child: ChildProcess): Promise<void> {
  const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGKILL');
  await ended;
}

describe('a host killed mid-comparison: the next start shows it interrupted, every finished cell whole', () => {
  it('the web host: restarted on its port and folder, its page takes it back and is told where the job went', async () => {
    const plan = await twoServers();
    const dataDir = tempDir('journal-web');
    const port = await freePort();
    const first = await serve(port, dataDir);
    // As a page does, with its tab's id, which owns its jobs across reconnects.
    const page: WebSocketApi = await connectToHost(port, first.token, 'tab-0123456789abcdef');
    ends({ close: () => page.close() });
    const events: JobEnvelope[] = [];
    const { jobId } = await page.api.jobs.start({ kind: 'comparison', plan });
    page.api.onJobEvent(jobId, (e) => events.push(e));
    await until('two cells and the third one measuring', () => {
      const s = shown(events);
      return s.results.length === 2 && s.samples(2) >= 2 && journaledSamples(dataDir, 2) >= 1;
    });
    const finished = shown(events).results;
    await kill(first.child);

    const second = await serve(port, dataDir);
    // The token is the port's, kept in the folder: the page's URL is still good.
    expect(second.token).toBe(first.token);
    const done = await until('the page to hear how the job ended', () =>
      events.find((e) => e.event.type === 'done'),
    );
    expect(done.event).toMatchObject({ type: 'done', status: 'interrupted' });
    const historyId = (done.event as { historyId?: string }).historyId!;
    const record = await page.api.history.get({ id: historyId });
    expectInterrupted(record, finished);
    expect(readdirSync(join(dataDir, 'journals'))).toEqual([]);
    await expectListed(dataDir, historyId, finished);
  });

  it('the desktop host (its main process under a mocked electron): the next start lists it', async () => {
    const plan = await twoServers();
    const userData = tempDir('journal-desktop');
    const first = await startDesktopHost(userData);
    ends({ close: () => first.kill() });
    await first.command('jobs.start', { kind: 'comparison', plan });
    await until('two cells and the third one measuring', () => {
      const s = shown(first.events);
      return s.results.length === 2 && s.samples(2) >= 2 && journaledSamples(userData, 2) >= 1;
    });
    const finished = shown(first.events).results;
    await first.kill();

    const second = await startDesktopHost(userData);
    ends({ close: () => second.close() });
    const list = (await second.command('history.list')) as { runs: { id: string; status: string }[] };
    expect(list.runs.map((r) => r.status)).toEqual(['interrupted']);
    const record = (await second.command('history.get', { id: list.runs[0]!.id })) as HistoryRecord;
    expectInterrupted(record, finished);
    await expectListed(userData, record.id, finished);
  });

  it('the CLI (run --preset … --save): the next use of the folder saves it', async () => {
    const plan = await twoServers();
    const dataDir = tempDir('journal-cli');
    const planFile = join(dataDir, 'plan.json');
    writeFileSync(planFile, JSON.stringify(plan));
    const child = spawn(
      process.execPath,
      [CLI_BIN, 'run', '--preset', planFile, '--save', '--data-dir', dataDir],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    ends({
      close: async () => {
        child.kill('SIGKILL');
        await exited;
      },
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    // What the CLI showed of each finished cell, then the third one measuring (on disk).
    const lines = await until('two cells and the third one measuring', () => {
      const done = stderr.split('\n').filter((l) => l.startsWith('  completed:'));
      return done.length === 2 && stderr.includes('[3/4]') && journaledSamples(dataDir, 2) >= 1 && done;
    });
    await kill(child);

    const listed = await runCli(['history', 'list', '--data-dir', dataDir, '--json']);
    const rows = JSON.parse(listed.stdout) as { id: string; status: string; requests: number }[];
    expect(rows.map((r) => r.status)).toEqual(['interrupted']);
    expect(listed.stderr).toContain('was interrupted: the host stopped before its record was saved');
    const out = join(dataDir, 'out.json');
    const exported = await runCli(['history', 'export', rows[0]!.id, '--data-dir', dataDir, '--json', out]);
    expect(exported.code).toBe(0);
    const comparison = JSON.parse(readFileSync(out, 'utf8')) as { status: string; outcomes: CellOutcome[] };
    expect(comparison.status).toBe('interrupted');
    // Each finished cell's req/s is the one the CLI printed when it ended.
    expect(
      comparison.outcomes
        .slice(0, 2)
        .map((o) => `  completed:  ${formatRate(o.result.throughput.requestsPerSecond)}`),
    ).toEqual(lines.map((l) => l.slice(0, l.indexOf(' req/s') + ' req/s'.length)));
    expect(comparison.outcomes[2]?.result.status).toBe('interrupted');
    expect(rows[0]!.requests).toBe(
      comparison.outcomes.slice(0, 2).reduce((n, o) => n + o.result.requests.total, 0),
    );
  });
});
