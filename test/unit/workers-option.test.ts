import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseRunArgs } from '../../electron/cli/run/args.ts';
import type { FileIo } from '../../electron/cli/files.ts';
import { PresetStore } from '../../electron/stores/preset-store.ts';

/*
 * The workers option where a person sets it: the CLI's -t/--threads, and a saved preset
 * (the editor's field is renderer-draft.test.ts's).
 */

const scenarioFile = JSON.stringify({
  targets: [{ url: 'http://127.0.0.1:8080/' }],
  options: { workers: 2 },
});
const io: FileIo = {
  cwd: '/w',
  readFile: () => scenarioFile,
  exists: (p) => p === '/w/s.json',
  isDirectory: (p) => p === '/w' || p === '/',
  readTargets: () => {
    throw new Error('no targets file here');
  },
  inputFileProblem: () => null,
};

function workersOf(...argv: string[]) {
  const r = parseRunArgs(argv, io);
  if (r.help || r.kind !== 'run') throw new Error('expected a scenario run');
  return r.scenario.options.workers;
}

describe('-t/--threads', () => {
  it("sets the worker threads, like wrk -t: auto by default, a file's own kept unless given", () => {
    expect(workersOf('http://127.0.0.1:8080/')).toBe('auto');
    expect(workersOf('-t', '2', 'http://127.0.0.1:8080/')).toBe(2);
    expect(workersOf('--threads', 'auto', 'http://127.0.0.1:8080/')).toBe('auto');
    expect(workersOf('--scenario', 's.json')).toBe(2);
    expect(workersOf('--scenario', 's.json', '-t', '4')).toBe(4);
  });
});

describe('workers in saved presets', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trebuchet-workers-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("keeps a scenario's workers through a restart; one saved before workers existed runs with auto", () => {
    let ids = 0;
    const open = () =>
      new PresetStore({ dir, now: () => new Date(Date.UTC(2025, 0, 1)), newId: () => `id-${++ids}` });
    const store = open();
    const scenario = (workers?: number) => ({
      targets: [{ url: 'http://127.0.0.1:8080/' }],
      ...(workers === undefined ? {} : { options: { workers } }),
    });
    const saved = store.save({ name: 'split', kind: 'run', scenario: scenario(3) });
    const older = store.save({ name: 'older', kind: 'run', scenario: scenario() });
    if (!saved.ok || !older.ok) throw new Error('not saved');
    // What an app without the option wrote: no workers field at all.
    const file = path.join(dir, 'presets', `${older.preset.id}.preset.json`);
    const stored = JSON.parse(fs.readFileSync(file, 'utf8')) as {
      scenario: { options: Record<string, unknown> };
    };
    expect(stored.scenario.options.workers).toBe('auto');
    delete stored.scenario.options.workers;
    fs.writeFileSync(file, JSON.stringify(stored));
    const again = open();
    const workers = (id: string) => {
      const p = again.get(id);
      return p.kind === 'run' ? p.scenario.options.workers : null;
    };
    expect(workers(saved.preset.id)).toBe(3);
    expect(workers(older.preset.id)).toBe('auto');
    expect(again.problems()).toEqual([]);
  });
});
