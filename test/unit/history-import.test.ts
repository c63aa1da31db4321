import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openHistoryStore, type HistoryStore } from '../../electron/stores/history-store.ts';
import { importIntoHistory, readImportTexts } from '../../electron/stores/history-import.ts';
import type { ImportFile } from '../../shared/records/import.ts';
import { capacityJson } from '../../shared/export/capacity.ts';
import { comparisonJson } from '../../shared/export/comparison.ts';
import { jsonItemOf, recordExport } from '../../shared/export/record.ts';
import { runJson } from '../../shared/export/run.ts';
import { capacityReports } from '../../shared/capacity/report.ts';
import { importFilesSchema } from '../../shared/records/import.ts';
import { savedResultName } from '../../shared/records/result-file.ts';
import { targetLabel } from '../../shared/model/scenario.ts';
import { LIMITS } from '../../shared/model/defaults.ts';
import { capacitySearch, comparisonWithCaveats } from '../helpers/one-result.ts';
import { runResultFixture } from '../helpers/run-result.ts';

/** An import of files' texts, as history.import's command takes them. */
const importTexts = (
  history: Parameters<typeof importIntoHistory>[0],
  files: ImportFile[],
  appVersion: string,
) => importIntoHistory(history, readImportTexts(files), appVersion);

let dir: string;
let store: HistoryStore;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'trebuchet-import-'));
  store = await openHistoryStore({ dir, allowPlaintextSecrets: true });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The JSON file of the entry saved under id, as History's "Save as JSON" makes it. */
async function exported(id: string): Promise<string> {
  return jsonItemOf(recordExport(await store.get(id))).render();
}

describe("History's import", () => {
  it('keeps a run, a comparison and a capacity search as entries whose JSON is the file imported, byte for byte', async () => {
    const run = runJson([
      runResultFixture({ scenarioName: 'two servers' }),
      runResultFixture({
        runId: 'run_2',
        scenarioName: 'two servers',
        target: { ...runResultFixture().target, name: 'second', url: 'http://127.0.0.1:8081/' },
        startedAt: '2024-12-31T23:59:00.000Z',
      }),
    ]);
    const comparison = comparisonJson(comparisonWithCaveats());
    const capacity = capacityJson(
      capacitySearch(),
      capacityReports(capacitySearch().plan, capacitySearch().steps, null),
    );
    const outcome = await importTexts(
      store,
      [
        { name: 'run.json', text: run },
        { name: 'comparison.json', text: comparison },
        { name: 'capacity.json', text: capacity },
      ],
      '9.9.9',
    );
    expect(outcome.problems).toEqual([]);
    expect(outcome.imported.map((i) => [i.files, i.summary.kind, i.summary.name])).toEqual([
      [['run.json'], 'run', 'two servers'],
      [['comparison.json'], 'comparison', 'nginx vs apache, open'],
      [['capacity.json'], 'capacity', 'capacity of two'],
    ]);
    const [r, c, k] = outcome.imported.map((i) => i.summary);
    // Listed by when it ran (its earliest result), not when it was imported.
    expect(r!.createdAt).toBe('2024-12-31T23:59:00.000Z');
    expect(r!.targets).toEqual(['127.0.0.1:8080', 'second']);
    expect(r!.results).toBe(2);
    expect(await exported(r!.id)).toBe(run);
    expect(await exported(c!.id)).toBe(comparison);
    expect(await exported(k!.id)).toBe(capacity);
    expect((await store.list()).length).toBe(3);
  });

  it('refuses a bad file naming it and its field, and one of a newer version naming the version, while the others import', async () => {
    const good = runJson([runResultFixture()]);
    const bad = JSON.parse(good) as Record<string, unknown>;
    (bad.throughput as Record<string, unknown>).requestsPerSecond = 'fast';
    const newer = { ...(JSON.parse(good) as Record<string, unknown>), version: 7 };
    const extra = { ...(JSON.parse(good) as Record<string, unknown>), colour: 'blue' };
    const outcome = await importTexts(
      store,
      [
        { name: 'bad.json', text: JSON.stringify(bad) },
        { name: 'good.json', text: good },
        { name: 'newer.json', text: JSON.stringify(newer) },
        { name: 'extra.json', text: JSON.stringify(extra) },
        { name: 'notes.json', text: '{"oops": ' },
      ],
      '9.9.9',
    );
    expect(outcome.imported.map((i) => i.files)).toEqual([['good.json']]);
    expect(outcome.problems.map((p) => p.file)).toEqual([
      'bad.json',
      'newer.json',
      'extra.json',
      'notes.json',
    ]);
    const [b, n, e, j] = outcome.problems.map((p) => p.message);
    expect(b).toMatch(/^bad\.json: not a result Trebuchet reads: throughput\.requestsPerSecond: /);
    expect(n).toMatch(/^newer\.json: .*version: .*version 7/);
    expect(e).toMatch(/^extra\.json: .*colour/);
    expect(j).toMatch(/^notes\.json: /);
    expect((await store.list()).length).toBe(1);
  });

  it("reads a file of History's folder (an older record version is migrated) as the run it holds", async () => {
    const saved = await store.save({
      kind: 'run',
      status: 'completed',
      appVersion: '0.0.1',
      scenario: {
        version: 1,
        name: 'kept',
        targets: [runResultFixture().target],
        load: runResultFixture().load,
        options: runResultFixture().options,
      },
      results: [runResultFixture({ scenarioName: 'kept' })],
    });
    const file = JSON.parse(readFileSync(join(dir, `${saved.id}.run.json`), 'utf8')) as Record<
      string,
      unknown
    >;
    // As version 1 wrote it: a plain run's kind was 'scenario'.
    const v1 = { ...file, version: 1, kind: 'scenario' };
    const outcome = await importTexts(store, [{ name: 'old.run.json', text: JSON.stringify(v1) }], '9.9.9');
    expect(outcome.problems).toEqual([]);
    expect(outcome.imported[0]!.summary.name).toBe('kept');
    expect(await exported(outcome.imported[0]!.summary.id)).toBe(await exported(saved.id));
  });

  it('names a CLI run nobody named by its file, or its target, not "Untitled scenario" (issue 37)', async () => {
    // Each run 3 s long from its start, as the fixture's own (a result that ends before it starts is refused).
    const at = (startedAt: string) => ({
      startedAt,
      endedAt: new Date(Date.parse(startedAt) + 3000).toISOString(),
    });
    const untitled = (startedAt: string) =>
      runResultFixture({ scenarioName: 'Untitled scenario', ...at(startedAt) });
    const outcome = await importTexts(
      store,
      [
        { name: 'nginx-c100.json', text: runJson([untitled('2025-01-01T00:00:00.000Z')]) },
        { name: 'results/apache.run.json', text: runJson([untitled('2025-01-01T00:01:00.000Z')]) },
        {
          name: 'named.json',
          text: runJson([runResultFixture({ scenarioName: 'seed 000', ...at('2025-01-01T00:02:00.000Z') })]),
        },
      ],
      '9.9.9',
    );
    expect(outcome.problems).toEqual([]);
    expect(outcome.imported.map((i) => i.summary.name)).toEqual(['nginx-c100', 'apache', 'seed 000']);
    // The run's scenario keeps its own name: its baseline subject is what ran.
    expect(outcome.imported[0]!.summary.subject).toBe('run · Untitled scenario');
    // Without a file's name (merged shards): by the target.
    expect(savedResultName({ kind: 'run', results: [untitled('2025-01-01T00:00:00.000Z')] })).toBe(
      targetLabel(runResultFixture().target),
    );
  });

  it('imports a file once: the same file again, in the same drop or later, is named as already there', async () => {
    const run = runJson([runResultFixture({ scenarioName: 'once' })]);
    const other = runJson([
      runResultFixture({
        scenarioName: 'once',
        startedAt: '2025-01-02T00:00:00.000Z',
        endedAt: '2025-01-02T00:00:03.000Z',
      }),
    ]);
    const first = await importTexts(
      store,
      [
        { name: 'a.json', text: run },
        { name: 'copy of a.json', text: run },
      ],
      '9.9.9',
    );
    expect(first.imported.map((i) => i.files)).toEqual([['a.json']]);
    expect(first.problems.map((p) => p.file)).toEqual(['copy of a.json']);
    expect(first.problems[0]!.message).toMatch(
      /^copy of a\.json: already in History as “once” \(.+\); not imported again$/,
    );
    const later = await importTexts(
      store,
      [
        { name: 'a.json', text: run },
        { name: 'b.json', text: other },
      ],
      '9.9.9',
    );
    // Another run of the same scenario (another start) is a run of its own.
    expect(later.imported.map((i) => i.files)).toEqual([['b.json']]);
    expect(later.problems.map((p) => p.file)).toEqual(['a.json']);
    expect((await store.list()).length).toBe(2);
  });

  it('caps the files of one import at importBytes together', () => {
    const half = 'x'.repeat(LIMITS.importBytes.max / 2);
    expect(
      importFilesSchema.safeParse([
        { name: 'a', text: half },
        { name: 'b', text: half },
      ]).success,
    ).toBe(true);
    const over = importFilesSchema.safeParse([
      { name: 'a', text: half },
      { name: 'b', text: `${half}x` },
    ]);
    expect(over.success).toBe(false);
    expect(over.error?.issues[0]?.message).toBe('the files of one import are at most 64 MiB together');
  });
});
