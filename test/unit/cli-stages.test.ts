import { describe, expect, it } from 'vitest';
import { parseRunArgs } from '../../electron/cli/run/args.ts';
import type { FileIo } from '../../electron/cli/files.ts';
import { CliInputError } from '../../electron/cli/values.ts';
import type { Load } from '../../shared/model/scenario.ts';

const files: Record<string, string> = {
  '/w/staged.json': JSON.stringify({
    targets: [{ url: 'http://127.0.0.1:1/' }],
    load: { model: 'open', maxInFlight: 20, stages: [{ durationSeconds: 5, target: 50 }] },
  }),
};
const io: FileIo = {
  cwd: '/w',
  readFile: (p) => files[p] ?? '',
  exists: (p) => p in files,
  isDirectory: (p) => p === '/w',
  readTargets: () => {
    throw new Error('no targets file here');
  },
  inputFileProblem: () => null,
};

function load(...argv: string[]): Load {
  const r = parseRunArgs(argv, io);
  if (r.help || r.kind !== 'run') throw new Error('expected a scenario run');
  return r.scenario.load;
}

function fails(...argv: string[]): string {
  try {
    load(...argv);
  } catch (e) {
    if (e instanceof CliInputError) return e.message;
    throw e;
  }
  throw new Error(`no error for ${argv.join(' ')}`);
}

const URL = 'http://127.0.0.1:8080/';

describe('trebuchet run --stages', () => {
  it('ramps connections (closed model) or, with --open, the rate', () => {
    const closed = load(URL, '--stages', '30s:100,1m:1000,30s:0', '-p', '2');
    expect(closed).toMatchObject({
      model: 'closed',
      pipelining: 2,
      rate: null,
      stages: [
        { durationSeconds: 30, target: 100 },
        { durationSeconds: 60, target: 1000 },
        { durationSeconds: 30, target: 0 },
      ],
    });
    expect(load(URL, '--open', '--stages', '2s:200,2s:200', '--max-in-flight', '50')).toMatchObject({
      model: 'open',
      maxInFlight: 50,
      stages: [
        { durationSeconds: 2, target: 200 },
        { durationSeconds: 2, target: 200 },
      ],
    });
  });

  it("keeps a scenario file's stages, and its model, unless a flag sets the level or the length", () => {
    expect(load('--scenario', 'staged.json')).toMatchObject({ model: 'open', stages: [{ target: 50 }] });
    expect(load('--scenario', 'staged.json', '--max-in-flight', '5')).toMatchObject({
      maxInFlight: 5,
      stages: [{ target: 50 }],
    });
    expect(load('--scenario', 'staged.json', '--stages', '1s:9')).toMatchObject({
      model: 'open',
      stages: [{ durationSeconds: 1, target: 9 }],
    });
    const fixed = load('--scenario', 'staged.json', '--rate', '10');
    expect(fixed).toMatchObject({ model: 'open', rate: 10 });
    expect(fixed.stages).toBeUndefined();
  });

  it('names the flag at fault', () => {
    expect(fails(URL, '--stages', '30s:100,1m')).toBe(
      '--stages: stage 2 "1m" is not duration:target (e.g. 30s:100; durations like 10, 10s, 1m30s)',
    );
    expect(fails(URL, '--stages', '10s:5.5')).toBe(
      '--stages: stage target must be a whole number of connections',
    );
    expect(fails(URL, '--stages', '10s:0')).toBe('--stages: the stages send nothing: raise a target above 0');
    expect(fails(URL, '--stages', '10s:5', '-c', '3')).toBe(
      '--connections: cannot be given with --stages: the stages set the connections and the length of the run',
    );
    expect(fails(URL, '--open', '--stages', '10s:5', '-d', '3')).toBe(
      '--duration: cannot be given with --stages: the stages set the rate (req/s) and the length of the run',
    );
    expect(fails(URL, '--open', '--stages', '10s:5', '-p', '3')).toMatch(/^--pipelining: /);
    expect(fails(URL, '--open', '--closed', '--stages', '10s:5')).toBe(
      '--open: give either --open or --closed, not both',
    );
    expect(fails(URL, '--open')).toBe('--open: goes with --stages (--rate alone runs the open model)');
    expect(fails(URL, '--stages', '10s:5', '--warmup', '2')).toBe(
      '--warmup: a staged load has no separate warm-up: set it to 0 and let the first stage ramp up',
    );
  });
});
