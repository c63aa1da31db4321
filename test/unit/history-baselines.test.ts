import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openHistoryStore, type HistoryStore } from '../../electron/stores/history-store.ts';
import { baselineOf } from '../../shared/records/baselines.ts';
import type { HistoryRecordDraft } from '../../shared/records/history.ts';
import { runResultFixture } from '../helpers/run-result.ts';

let dir: string;
let clock: number;
let store: HistoryStore;
const now = () => new Date(clock);

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'trebuchet-baselines-'));
  clock = Date.parse('2026-01-01T00:00:00Z');
  store = await openHistoryStore({ dir, now, allowPlaintextSecrets: true });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function draft(name: string): HistoryRecordDraft {
  const r = runResultFixture({ scenarioName: name });
  return {
    kind: 'run',
    status: 'completed',
    appVersion: '0.0.1',
    scenario: { version: 1, name, targets: [r.target], load: r.load, options: r.options },
    results: [r],
  };
}

async function save(name: string) {
  clock += 60_000;
  return store.save(draft(name));
}

describe('baselines in History', () => {
  it("are kept per subject (kind and the scenario's name), one each, and show later runs only", async () => {
    const a1 = await save('nginx static');
    const b1 = await save('apache');
    const a2 = await save('nginx static');
    expect(a1.subject).toBe('run · nginx static');
    expect(await store.setBaseline(a1.id, true)).toEqual([{ subject: 'run · nginx static', id: a1.id }]);
    await store.setBaseline(b1.id, true);
    // A second baseline of the same subject takes the first's place.
    const a3 = await save('nginx static');
    expect(await store.setBaseline(a2.id, true)).toEqual([
      { subject: 'run · apache', id: b1.id },
      { subject: 'run · nginx static', id: a2.id },
    ]);
    const runs = await store.list();
    const baselines = await store.baselines();
    expect(baselineOf(a3, baselines, runs)).toBe(a2.id);
    // Not against itself, nor against a baseline saved after it.
    expect(baselineOf(a2, baselines, runs)).toBeNull();
    expect(baselineOf(a1, baselines, runs)).toBeNull();
    // A rename of the entry does not change what it ran.
    await store.rename(a3.id, 'renamed');
    expect(
      baselineOf(
        (await store.list()).find((r) => r.id === a3.id)!,
        baselines,
        runs,
      ),
    ).toBe(a2.id);
    expect(await store.setBaseline(a2.id, false)).toEqual([{ subject: 'run · apache', id: b1.id }]);
  });

  it('survive a restart in baselines.json, drop a deleted run, and a broken file is set aside and said', async () => {
    const a = await save('nginx static');
    await store.setBaseline(a.id, true);
    const again = await openHistoryStore({ dir, now, allowPlaintextSecrets: true });
    expect(await again.baselines()).toEqual([{ subject: 'run · nginx static', id: a.id }]);
    expect(JSON.parse(readFileSync(join(dir, 'baselines.json'), 'utf8'))).toMatchObject({
      format: 'trebuchet-baselines',
      version: 2,
    });
    await again.delete(a.id);
    expect(await again.baselines()).toEqual([]);
    writeFileSync(
      join(dir, 'baselines.json'),
      JSON.stringify({ format: 'trebuchet-baselines', version: 9, baselines: [] }),
    );
    expect(await again.baselines()).toEqual([]);
    const [problem] = again.problems();
    expect(problem?.message).toMatch(
      /^The baselines could not be read \(this baselines file is format version 9, .*\)\. It was kept as .*baselines\.broken-.*\. Mark them again\.$/,
    );
  });

  it('rebuilds an index of version 4, whose entries had no subject, from the run files', async () => {
    const a = await save('nginx static');
    const file = join(dir, 'index.json');
    const doc = JSON.parse(readFileSync(file, 'utf8')) as {
      version: number;
      entries: { summary: Record<string, unknown> }[];
    };
    doc.version = 4;
    for (const e of doc.entries) delete e.summary.subject;
    writeFileSync(file, JSON.stringify(doc));
    const again = await openHistoryStore({ dir, now, allowPlaintextSecrets: true });
    expect((await again.list()).map((s) => [s.id, s.subject])).toEqual([[a.id, 'run · nginx static']]);
    // Rebuilt at the current version (8: a run's kind and subject say 'run').
    expect((JSON.parse(readFileSync(file, 'utf8')) as { version: number }).version).toBe(8);
  });
});
