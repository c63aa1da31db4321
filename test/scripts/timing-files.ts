/**
 * The test files holding a test tagged `timing` (docs/testing.md), in the unit and integration
 * tiers. The timing pass names them to vitest: with only --tags-filter it would load every file
 * of both tiers, one worker at a time, to find the few that hold one (about 80 s of the pass).
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
const TIERS = ['test/unit', 'test/integration'];
/** How a test or a suite is tagged: `{ tags: ['timing'] }`, other tags beside it allowed. */
export const TIMING_TAG = /tags:\s*\[[^\]]*'timing'/;
/**
 * A timing file that reads the whole machine (every process's CPU, test/helpers/cpu-hogs.ts's
 * MACHINE_ON) or starts CPU hogs: any other process's work is what it measures, so it runs
 * when no other test runs, not even at the idle class (test/scripts/suite.ts).
 */
export const READS_MACHINE = /\bMACHINE_ON\b|\bstartCpuHogs\b/;

export function timingFiles(root = ROOT): string[] {
  return TIERS.flatMap((tier) =>
    readdirSync(path.join(root, tier), { recursive: true, encoding: 'utf8' })
      .filter((f) => /\.test\.tsx?$/.test(f))
      .map((f) => path.join(tier, f))
      .filter((f) => TIMING_TAG.test(readFileSync(path.join(root, f), 'utf8'))),
  ).sort();
}

/** Which timing files: all, those that read the whole machine, or the others. */
export type TimingSet = 'all' | 'machine' | 'others';

function filesOf(set: TimingSet, root: string): string[] {
  const files = timingFiles(root);
  if (set === 'all') return files;
  const reads = (f: string) => READS_MACHINE.test(readFileSync(path.join(root, f), 'utf8'));
  return files.filter((f) => reads(f) === (set === 'machine'));
}

/**
 * vitest's arguments for one timing pass: the timing tests of those files, one file at a time,
 * each in a module graph of its own, `extra` after; in the unit and integration tiers unless
 * `extra` names a --project.
 */
export function timingArgs(extra: readonly string[] = [], root = ROOT, set: TimingSet = 'all'): string[] {
  const projects = extra.some((a) => a.startsWith('--project'))
    ? []
    : ['--project', 'unit', '--project', 'integration*'];
  // --isolate: each file in a module graph of its own (the integration tier shares one otherwise).
  return [
    'run',
    ...projects,
    '--tags-filter=timing',
    '--max-workers=1',
    '--isolate',
    ...filesOf(set, root),
    ...extra,
  ];
}

/** Runs one timing pass in a vitest of its own; resolves with its exit code. */
export function runTimingPass(extra: readonly string[] = [], set: TimingSet = 'all'): Promise<number> {
  const vitest = path.join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
  const child = spawn(process.execPath, [vitest, ...timingArgs(extra, ROOT, set)], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  return new Promise((resolve) => child.on('close', (c, signal) => resolve(c ?? (signal ? 1 : 0))));
}
