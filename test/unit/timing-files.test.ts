import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { READS_MACHINE, TIMING_TAG, timingArgs, timingFiles } from '../scripts/timing-files.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const testFiles = (tier: string): string[] =>
  readdirSync(path.join(ROOT, tier), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.test\.tsx?$/.test(f))
    .map((f) => path.join(tier, f));
const text = (f: string): string => readFileSync(path.join(ROOT, f), 'utf8');
/** The tag's name, spelled apart so that this file is not one of those it lists. */
const tag = ['tim', 'ing'].join('');

/*
 * The timing pass runs the files timing-files.ts names, and the parallel pass leaves their
 * timing tests out: a file tagging one in a way the list misses would have it run by neither.
 */
describe('the timing pass’s files', () => {
  it('names every unit and integration file that says the tag’s name in quotes, and no other', () => {
    const saying = [...testFiles('test/unit'), ...testFiles('test/integration')]
      .filter((f) => text(f).includes(`'${tag}'`))
      .sort();
    expect(saying.length).toBeGreaterThan(10);
    expect(timingFiles()).toEqual(saying);
  });

  it('finds no timing test in the browser tier, which the timing pass does not run', () => {
    expect(testFiles('test/e2e').filter((f) => TIMING_TAG.test(text(f)))).toEqual([]);
  });

  it('reads a tag among others, and a suite’s tag', () => {
    expect(TIMING_TAG.test(`it('x', { tags: ['slow', '${tag}'] }, () => {})`)).toBe(true);
    expect(TIMING_TAG.test(`describe('x', { tags: [\n '${tag}'] }, () => {})`)).toBe(true);
    expect(TIMING_TAG.test(`it('${tag} of a tick', () => {})`)).toBe(false);
  });

  it('runs them one at a time, each isolated, in the unit and integration tiers unless told a project', () => {
    expect(timingArgs().slice(0, 8)).toEqual([
      'run',
      '--project',
      'unit',
      '--project',
      'integration*',
      '--tags-filter=timing',
      '--max-workers=1',
      '--isolate',
    ]);
    expect(timingArgs(['--project', 'integration*'])).toEqual([
      'run',
      '--tags-filter=timing',
      '--max-workers=1',
      '--isolate',
      ...timingFiles(),
      '--project',
      'integration*',
    ]);
  });

  it('splits them in two: the files that read the whole machine, which run alone, and the others', () => {
    const set = (which: 'machine' | 'others') => timingArgs([], ROOT, which).filter((a) => a.endsWith('.ts'));
    expect(set('machine')).toEqual([
      'test/integration/machine-capacity.test.ts',
      'test/integration/machine.test.ts',
    ]);
    expect([...set('machine'), ...set('others')].sort()).toEqual(timingFiles());
    // A file that starts hogs or reads every process's CPU says so in one of these two names.
    expect(READS_MACHINE.test('const hogs = await startCpuHogs([0, 1], 300);')).toBe(true);
    expect(READS_MACHINE.test('runCli(args, { env: MACHINE_ON })')).toBe(true);
    expect(READS_MACHINE.test('const ON_MACHINE_ONE = 1;')).toBe(false);
  });
});
