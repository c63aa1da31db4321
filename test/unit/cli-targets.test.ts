import { describe, expect, it } from 'vitest';
import { applyPreset, parseRunArgs } from '../../electron/cli/run/args.ts';
import { builtInPresets } from '../../electron/stores/built-in-presets.ts';
import { findPreset } from '../../electron/cli/presets/lookup.ts';
import { summarizePreset } from '../../shared/records/preset-summary.ts';
import type { FileIo } from '../../electron/cli/files.ts';
import { CliInputError } from '../../electron/cli/values.ts';
import { FileProblemError } from '../../electron/files/bounded-file.ts';

const files: Record<string, string> = {
  '/w/t/mix.http': 'GET http://127.0.0.1:8080/a\nX-A: 1\n\nPOST http://127.0.0.1:8080/b\n@body.json\n',
  '/w/urls.txt': 'http://127.0.0.1:8080/\nhttp://127.0.0.1:8080/big\n',
  '/w/bad.txt': 'http://127.0.0.1:8080/\nftp://x/\n',
};
let stdin = '';
const io: FileIo = {
  cwd: '/w',
  readFile: (p) => files[p] ?? '',
  exists: (p) => p in files,
  isDirectory: () => false,
  inputFileProblem: (p) => (p === '/w/t/body.json' || p === '/w/body.json' ? null : 'does not exist'),
  readTargets: (p) => {
    if (p === null) return stdin;
    const text = files[p];
    if (text === undefined) throw new FileProblemError(p, 'does not exist');
    return text;
  },
};

function scenario(...argv: string[]) {
  const r = parseRunArgs(argv, io);
  if (r.help || r.kind !== 'run') throw new Error('expected a scenario run');
  return r.scenario;
}

function fails(...argv: string[]): string {
  try {
    parseRunArgs(argv, io);
  } catch (e) {
    if (e instanceof CliInputError) return e.message;
    throw e;
  }
  throw new Error(`no error for ${argv.join(' ')}`);
}

describe('trebuchet run --targets', () => {
  it("a vegeta http file becomes one target with its list; body paths are the file folder's; -H goes with every request", () => {
    const s = scenario('--targets', 't/mix.http', '-H', 'X-Run: 7', '-n', '10');
    expect(s.targets).toHaveLength(1);
    const t = s.targets[0]!;
    expect(t.url).toBe('http://127.0.0.1:8080/');
    expect(t.headers).toEqual([{ name: 'X-Run', value: '7' }]);
    expect(t.order).toBeUndefined();
    expect(t.requests).toEqual([
      {
        method: 'GET',
        url: 'http://127.0.0.1:8080/a',
        headers: [{ name: 'X-A', value: '1' }],
        body: { kind: 'none' },
      },
      {
        method: 'POST',
        url: 'http://127.0.0.1:8080/b',
        headers: [],
        body: { kind: 'file', path: '/w/t/body.json' },
      },
    ]);
  });

  it('reads stdin for -, in the format named; a random order keeps its seed', () => {
    stdin = '{"method":"GET","url":"http://127.0.0.1:8080/x"}\n';
    const s = scenario(
      '--targets',
      '-',
      '--targets-format',
      'json',
      '--targets-order',
      'random',
      '--seed',
      '42',
    );
    expect(s.targets[0]!.requests?.map((r) => r.url)).toEqual(['http://127.0.0.1:8080/x']);
    expect(s.targets[0]!.order).toEqual({ kind: 'random', seed: 42 });
    const drawn = scenario('--targets', 'urls.txt', '--targets-order', 'random').targets[0]!.order;
    expect(drawn?.kind === 'random' && Number.isInteger(drawn.seed)).toBe(true);
  });

  it.each([
    [['--targets', 'bad.txt'], '--targets: /w/bad.txt (urls format) line 2, url:'],
    [['--targets', 'none.txt'], '--targets: /w/none.txt does not exist'],
    [
      ['--targets', 'urls.txt', '--targets-format', 'yaml'],
      '--targets-format: targets format must be one of http, json, urls',
    ],
    [
      ['--targets', 'urls.txt', '--targets-order', 'shuffle'],
      '--targets-order: "shuffle" is not round-robin or random',
    ],
    [['--targets', 'urls.txt', '--seed', '3'], '--seed: seeds the random order: add --targets-order random'],
    [['--seed', '3', 'http://127.0.0.1/'], '--seed: belongs to a list of requests'],
    [['--targets', 'urls.txt', 'http://127.0.0.1/'], '--targets: give URLs or --targets, not both'],
    [['--targets', 'urls.txt', '-m', 'POST'], '--method: a list of requests takes each method'],
    [
      ['--targets', 'urls.txt', '--body', 'x'],
      '--body: a target with a list of requests takes each body from its request',
    ],
    [
      ['--targets', 'urls.txt', '--engine', 'autocannon'],
      '--targets: a list of requests runs on the native engine',
    ],
  ])('%j → %s', (argv, words) => {
    expect(fails(...argv)).toContain(words);
  });
});

it('--targets with a comparison preset is refused: a list goes in a scenario', () => {
  const r = parseRunArgs(['--preset', 'seed-004', '--targets', 'urls.txt'], io);
  if (r.help || r.kind !== 'preset') throw new Error('expected a preset request');
  const builtIns = builtInPresets();
  const preset = findPreset('--preset', r.ref, {
    list: () => builtIns.map((p) => summarizePreset(p, 'built-in')),
    get: (id) => builtIns.find((p) => p.id === id)!,
  });
  expect(() => applyPreset(r, preset, io)).toThrow('--targets: "');
  expect(() => applyPreset(r, preset, io)).toThrow('is a comparison: a list of requests goes in a scenario');
});
