import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HistorySaver } from '../../electron/jobs/history-saver.ts';
import { recoverJournals } from '../../electron/jobs/journal/recover.ts';
import { FLUSH_MS, JournalFolder, type JobJournal } from '../../electron/jobs/journal/writer.ts';
import { JobRegistry } from '../../electron/jobs/registry.ts';
import { openStores, type Stores } from '../../electron/stores/index.ts';
import type { CellOutcome } from '../../shared/comparison/cells.ts';
import { scenarioSchema } from '../../shared/model/scenario.ts';
import { readJournal } from '../../shared/records/journal.ts';
import { resultWith, twoServerPlan } from '../helpers/comparison-results.ts';
import { FakeEngine } from '../helpers/fake-engine.ts';
import { passes } from '../helpers/jobs.ts';
import { sampleFixture } from '../helpers/run-result.ts';

/*
 * A job's journal (electron/jobs/journal/): what it writes as a job runs, what a start makes of
 * a dead host's journal, and what it leaves alone (a live job's) or keeps aside (a broken one).
 */

let dataDir: string;
let stores: Stores;
beforeEach(async () => {
  dataDir = fs.mkdtempSync(path.join(tmpdir(), 'trebuchet-journal-'));
  stores = await openStores({ dataDir });
});
afterEach(() => {
  vi.useRealTimers();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const journals = () => path.join(dataDir, 'journals');
const files = () => fs.readdirSync(journals());
const linesOf = (file: string) =>
  fs
    .readFileSync(path.join(journals(), file), 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** A pid no process has: one that just ended. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid;
}

/** The journal as a dead host left it: its writer's pid made one that is gone. */
function orphan(file: string): void {
  const full = path.join(journals(), file);
  const [head, ...rest] = fs.readFileSync(full, 'utf8').split('\n');
  const plan = JSON.parse(head!) as { writer: { pid: number; startTicks: number | null } };
  plan.writer.pid = deadPid();
  fs.writeFileSync(full, [JSON.stringify(plan), ...rest].join('\n'));
}

const plan = twoServerPlan({ levels: [10, 20], repetitions: 1 });
const sample = (seq: number, requests = 100) =>
  sampleFixture({
    seq,
    elapsedSeconds: seq + 1,
    requests,
    requestsPerSecond: requests,
    totalRequests: (seq + 1) * requests,
    statusCodes: { '200': requests },
  });

/** A comparison's journal: cell 0 ended (3 samples, the last one folded), cell 1 measuring (2 samples). */
async function writtenJournal(
  opts: { secret?: string } = {},
): Promise<{ journal: JobJournal; cell: CellOutcome }> {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
  const withSecret = opts.secret
    ? {
        ...plan,
        targets: plan.targets.map((t) => ({
          ...t,
          headers: [{ name: 'Authorization', value: opts.secret! }],
        })),
      }
    : plan;
  const journal = new JournalFolder(dataDir).open({
    jobId: 'cmp-test-1',
    kind: 'comparison',
    plan: withSecret,
    shards: null,
    owner: 'tab-0123456789',
    appVersion: '2.0.0',
  })!;
  const coordinates = { targetIndex: 0, protocol: 'http' as const, level: 10, repetition: 0 };
  journal.event({ type: 'progress', progress: { type: 'part-started', part: 0, coordinates } });
  for (const s of [sample(0), sample(1), sample(2, 80), { ...sample(2, 90), final: true }])
    journal.event({ type: 'sample', part: 0, source: 'engine', sample: s });
  const samples = [sample(0), sample(1), { ...sample(2, 90), final: true }];
  const cell: CellOutcome = {
    cellIndex: 0,
    coordinates,
    result: { ...resultWith({ rps: 12_345.678, total: 290 }), samples },
  };
  journal.event({ type: 'result', part: 0, result: cell });
  journal.event({
    type: 'progress',
    progress: { type: 'part-started', part: 1, coordinates: { ...coordinates, targetIndex: 1 } },
  });
  journal.event({ type: 'sample', part: 1, source: 'engine', sample: sample(0, 50) });
  journal.event({ type: 'sample', part: 1, source: 'engine', sample: sample(1, 60) });
  // The second's flush writes the running cell's samples; nothing later reaches the disk.
  await vi.advanceTimersByTimeAsync(FLUSH_MS);
  await journal.keep();
  vi.useRealTimers();
  return { journal, cell };
}

describe('a job journal', () => {
  it('holds the plan, each part start, the samples as they came and the results without them', async () => {
    await writtenJournal();
    const [file] = files();
    expect(file).toBe('cmp-test-1.journal');
    expect(fs.statSync(path.join(journals(), file!)).mode & 0o777).toBe(0o600);
    const lines = linesOf(file!);
    expect(lines.map((l) => l.type)).toEqual(['plan', 'part', 'samples', 'result', 'part', 'samples']);
    // A result line carries no engine sample: the samples lines before it hold them.
    expect((lines[3]!.result as CellOutcome).result.samples).toEqual([]);
    const read = readJournal(lines);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    const [finished] = read.value.finished as CellOutcome[];
    // The folded last sample replaced the one at its seq, as live.
    expect(finished!.result.samples.map((s) => s.requests)).toEqual([100, 100, 90]);
    expect(finished!.result.throughput.requestsPerSecond).toBe(12_345.678);
    expect(read.value.cut?.samples.map((s) => s.requests)).toEqual([50, 60]);
    expect(read.value.cut?.started).toMatchObject({ part: 1 });
    expect(read.value.end).toBeNull();
  });

  it('never holds a secret header value', async () => {
    await writtenJournal({ secret: 'Bearer s3cr3t-t0ken' });
    expect(fs.readFileSync(path.join(journals(), files()[0]!), 'utf8')).not.toContain('s3cr3t');
  });

  it('of a dead host becomes an interrupted entry: the ended cell whole, the running one a partial run', async () => {
    const { cell } = await writtenJournal();
    orphan('cmp-test-1.journal');
    const recovered = await recoverJournals({ dataDir, history: stores.history, say: () => undefined });
    expect(recovered).toMatchObject([
      { jobId: 'cmp-test-1', kind: 'comparison', owner: 'tab-0123456789', status: 'interrupted' },
    ]);
    expect(files()).toEqual([]);
    const record = await stores.history.get(recovered[0]!.historyId);
    expect(record.status).toBe('interrupted');
    if (record.kind !== 'comparison') throw new Error('not a comparison');
    expect(record.outcomes[0]!.result.throughput.requestsPerSecond).toBe(
      cell.result.throughput.requestsPerSecond,
    );
    expect(record.outcomes[0]!.result.samples).toEqual(cell.result.samples);
    const cut = record.outcomes[1]!;
    expect(cut).toMatchObject({ cellIndex: 1, coordinates: { targetIndex: 1, level: 10 } });
    expect(cut.result.status).toBe('interrupted');
    expect(cut.result.requests.total).toBe(110);
    expect(cut.result.target.url).toBe('http://127.0.0.1:8082/');
    const summary = (await stores.history.list())[0]!;
    expect(summary).toMatchObject({ status: 'interrupted', requests: 290 });
    expect(summary.createdAt).toBe(cut.result.endedAt);
  });

  it('of a live job is left alone', async () => {
    await writtenJournal();
    expect(await recoverJournals({ dataDir, history: stores.history, say: () => undefined })).toEqual([]);
    expect(files()).toEqual(['cmp-test-1.journal']);
  });

  it('whose job ended but was not saved is saved with the status it ended with', async () => {
    const { journal } = await writtenJournal();
    // As a host that wrote the end and died before the save: a new writer for the same file.
    fs.appendFileSync(
      journal.file,
      `${JSON.stringify({ type: 'end', status: 'cancelled', at: new Date().toISOString() })}\n`,
    );
    orphan('cmp-test-1.journal');
    const [job] = await recoverJournals({ dataDir, history: stores.history, say: () => undefined });
    expect(job?.status).toBe('cancelled');
  });

  it('cut short mid-line by the kill still reads; broken elsewhere it is kept aside, nothing saved', async () => {
    const { journal } = await writtenJournal();
    fs.appendFileSync(journal.file, '{"type":"samples","part":1,"sam');
    orphan('cmp-test-1.journal');
    expect(await recoverJournals({ dataDir, history: stores.history, say: () => undefined })).toHaveLength(1);

    const again = await writtenJournal();
    const text = fs.readFileSync(again.journal.file, 'utf8').split('\n');
    text.splice(2, 0, '{"type":"samples","part":0,"samples":[{"seq":-1}]}');
    fs.writeFileSync(again.journal.file, text.join('\n'));
    orphan('cmp-test-1.journal');
    const said: string[] = [];
    expect(await recoverJournals({ dataDir, history: stores.history, say: (m) => said.push(m) })).toEqual([]);
    expect(said[0]).toMatch(/^a job's journal could not be read \(line 3: samples\.0\.seq: /);
    expect(files()).toEqual([expect.stringMatching(/^cmp-test-1\.journal\.broken-/)]);
    expect(await stores.history.list()).toHaveLength(1);
  });

  it('stays when its entry cannot be saved (a full disk), for the next start', async () => {
    await writtenJournal();
    orphan('cmp-test-1.journal');
    const failing = { save: () => Promise.reject(new Error('ENOSPC: no space left on device, write')) };
    const said: string[] = [];
    expect(await recoverJournals({ dataDir, history: failing, say: (m) => said.push(m) })).toEqual([]);
    expect(said).toEqual([expect.stringContaining('could not be saved in History from its journal (ENOSPC')]);
    expect(files()).toEqual(['cmp-test-1.journal']);
    expect(await recoverJournals({ dataDir, history: stores.history, say: () => undefined })).toHaveLength(1);
  });

  it('goes once the registry saved the job, and stays with its end when the save failed', async () => {
    const engine = new FakeEngine({ answer: (s) => resultWith({ rps: 10, url: s.targets[0]?.url }) });
    const registryWith = (history: HistorySaver) =>
      new JobRegistry({
        history,
        journals: new JournalFolder(dataDir),
        context: { appVersion: '2.0.0', startTarget: engine.start, checkTarget: passes },
      });
    const scenario = scenarioSchema.parse({ name: 'one', targets: [{ url: 'http://127.0.0.1:8080/' }] });
    const ended = (registry: JobRegistry) =>
      new Promise<void>((resolve) =>
        registry.attach('a', (e) => {
          if (e.event.type === 'done') resolve();
        }),
      );
    const ok = registryWith(new HistorySaver({ history: stores.history, appVersion: '2.0.0' }));
    const okEnded = ended(ok);
    ok.start({ kind: 'run', plan: scenario }, 'a').begin();
    await okEnded;
    await ok.close();
    expect(files()).toEqual([]);

    const full = { save: () => Promise.reject(new Error('ENOSPC: no space left on device, write')) };
    const failing = registryWith(new HistorySaver({ history: full, appVersion: '2.0.0' }));
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const failingEnded = ended(failing);
    const job = failing.start({ kind: 'run', plan: scenario }, 'a');
    job.begin();
    await failingEnded;
    await failing.close();
    expect(linesOf(`${job.id}.journal`).map((l) => l.type)).toEqual(['plan', 'part', 'result', 'end']);
    orphan(`${job.id}.journal`);
    const [saved] = await recoverJournals({ dataDir, history: stores.history, say: () => undefined });
    expect(saved).toMatchObject({ jobId: job.id, status: 'completed' });
  });
});
