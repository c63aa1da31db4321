import { describe, expect, it } from 'vitest';
import { scenarioSchema } from '../../shared/model/scenario.ts';
import { readSavedResult } from '../../shared/records/result-file.ts';
import { runResultFixture } from '../helpers/run-result.ts';

const result = runResultFixture();
const record = (version: number, over: Record<string, unknown> = {}) => ({
  format: 'trebuchet-run',
  version,
  id: 'run_1',
  name: 'nginx',
  createdAt: '2026-01-01T00:00:00.000Z',
  appVersion: '0.0.9',
  status: 'completed',
  generator: null,
  // Versions 1 and 2 called a plain run's record 'scenario'.
  kind: version < 3 ? 'scenario' : 'run',
  scenario: scenarioSchema.parse({ targets: [{ url: 'http://127.0.0.1:8080/' }] }),
  results: [result],
  ...over,
});

describe('readSavedResult', () => {
  it('reads a run, a list of runs and a history record of version 1 (migrated) as runs, keeping the fields in file order', () => {
    const one = readSavedResult(JSON.parse(JSON.stringify(result)));
    expect(one.ok && one.value.kind === 'run' && one.value.results.length).toBe(1);
    const two = readSavedResult([result, result]);
    expect(two.ok && two.value.kind === 'run' && two.value.results.length).toBe(2);
    const old = readSavedResult(record(1));
    expect(old.ok).toBe(true);
    if (!old.ok || old.value.kind !== 'run') throw new Error('not a run');
    expect(Object.keys(old.value.results[0]!)).toEqual(Object.keys(result));
    // Fields in another order than the schema's come back in the file's order.
    const reversed = Object.fromEntries(Object.entries(result).reverse());
    const back = readSavedResult(reversed);
    expect(back.ok && back.value.kind === 'run' && Object.keys(back.value.results[0]!)[0]).toBe(
      Object.keys(reversed)[0],
    );
  });

  it('refuses newer formats naming the version, and anything else naming the field', () => {
    const newer = readSavedResult({ ...result, version: 2 });
    expect(newer).toEqual({
      ok: false,
      issues: [
        {
          path: 'version',
          message:
            'this result is format version 2, written by a newer version of Trebuchet; this version of Trebuchet reads format version 1',
        },
      ],
    });
    const nested = readSavedResult(record(2, { results: [{ ...result, version: 4 }] }));
    expect(!nested.ok && nested.issues[0]!.path).toBe('results.0.version');
    const newerRecord = readSavedResult(record(4));
    expect(!newerRecord.ok && newerRecord.issues[0]!.message).toBe(
      'this saved run is format version 4, written by Trebuchet 0.0.9; this version of Trebuchet reads format versions 1 to 3',
    );
    const older = readSavedResult({ ...result, version: 0 });
    expect(!older.ok && older.issues[0]!.message).toBe(
      'this result is format version 0, older than any this version of Trebuchet reads (1)',
    );
    expect(readSavedResult([])).toEqual({ ok: false, issues: [{ path: '', message: 'holds no result' }] });
    const text = readSavedResult('hello');
    expect(!text.ok && text.issues[0]!.message).toBe(
      'is not a saved result (a run, a comparison, a capacity search or a history file)',
    );
    const cmp = readSavedResult({ kind: 'comparison', outcomes: [] });
    expect(!cmp.ok && cmp.issues.map((i) => i.path)).toEqual([
      'plan',
      'status',
      'table',
      'preflightFailures',
    ]);
  });
});
