/**
 * `npm test` (docs/testing.md): every check and every tier, in the order that keeps each
 * timing test's bounds true and leaves the fewest cores idle.
 *
 *  1. The CLI bundle, then the UI build: every later step needs them.
 *  2. Side by side:
 *     - the timing pass (tests tagged `timing`, one file at a time) at the normal priority;
 *     - at the idle scheduling class (`chrt --idle 0`: a core is given to any normal process
 *       that wants it, at once, and the idle-class work gets only what is left): `npm run
 *       check` beside every other test, each tier's files in parallel. The timing pass mostly
 *       waits on real time (its cores were 80 % idle when it ran alone); its tests measure
 *       their own processes' time, never the machine's.
 *  3. Alone: the timing files that read the whole machine (every process's CPU) or start CPU
 *     hogs (timing-files.ts's READS_MACHINE): the idle-class work would be what they measure.
 *
 * Every step runs even when one before it failed, so one CI run names every failure; the exit
 * code is non-zero when any failed. Without `chrt` (not Linux), step 2's two sides run one
 * after the other.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readFailures } from './failures.ts';
import { timingArgs, type TimingSet } from './timing-files.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const VITEST = path.join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

interface Step {
  name: string;
  code: number;
  seconds: number;
  /** A vitest step's list of failures (test/scripts/failures-reporter.ts writes it). */
  failures?: string;
}

/** Where each vitest step's failures-reporter writes; removed at the end. */
const FAILURES_DIR = mkdtempSync(path.join(tmpdir(), 'trebuchet-failures-'));
let vitestRuns = 0;
/** The summary lists this many failures a step; CI shows the output's last lines only. */
const LISTED = 8;

/** Runs a command; its output goes to ours as it comes, or is kept and printed whole at its end. */
function run(
  command: string,
  args: readonly string[],
  opts: { idle?: boolean; held?: boolean; env?: NodeJS.ProcessEnv } = {},
) {
  const [file, argv] = opts.idle ? ['chrt', ['--idle', '0', command, ...args]] : [command, args];
  const child = spawn(file, argv, {
    cwd: ROOT,
    env: { ...process.env, ...opts.env },
    stdio: ['ignore', opts.held ? 'pipe' : 'inherit', opts.held ? 'pipe' : 'inherit'],
  });
  const held: Buffer[] = [];
  child.stdout?.on('data', (d: Buffer) => held.push(d));
  child.stderr?.on('data', (d: Buffer) => held.push(d));
  return new Promise<number>((resolve) =>
    child.on('close', (code, signal) => {
      if (held.length > 0) process.stdout.write(Buffer.concat(held));
      resolve(code ?? (signal ? 1 : 0));
    }),
  );
}

async function timed(name: string, work: () => Promise<number>): Promise<Step> {
  const started = performance.now();
  const code = await work();
  return { name, code, seconds: (performance.now() - started) / 1000 };
}

/** A vitest step: its reporters are the default one and failures-reporter.ts, whose list it keeps. */
async function vitestStep(
  name: string,
  args: readonly string[],
  opts: { idle?: boolean; held?: boolean } = {},
): Promise<Step> {
  const list = path.join(FAILURES_DIR, `${++vitestRuns}.json`);
  const reporters = ['--reporter=default', '--reporter=./test/scripts/failures-reporter.ts'];
  const step = await timed(name, () =>
    run(process.execPath, [VITEST, ...args, ...reporters], {
      ...opts,
      env: { TREBUCHET_FAILURES_FILE: list },
    }),
  );
  if (step.code === 0) return step;
  const failures = readFailures(list);
  const lines =
    typeof failures === 'string'
      ? [failures]
      : failures.slice(0, LISTED).map((f) => `${f.file} › ${f.test}\n        ${f.message}`);
  if (typeof failures !== 'string' && failures.length > LISTED) {
    lines.push(`and ${failures.length - LISTED} more (the output above holds them)`);
  }
  return { ...step, failures: lines.map((l) => `      ${l}\n`).join('') };
}

/** One timing pass over a set of the timing files, in a vitest of its own. */
const timingPass = (name: string, set: TimingSet, held = false) =>
  vitestStep(name, timingArgs([], ROOT, set), { held });

/** `npm run check` beside every test not tagged `timing`. */
async function rest(idle: boolean): Promise<Step[]> {
  const check = timed('npm run check', () => run(NPM, ['run', 'check'], { idle, held: true }));
  const tiers = vitestStep('the tiers (vitest --tags-filter=!timing)', ['run', '--tags-filter=!timing'], {
    idle,
  });
  return [await check, await tiers];
}

const idleClass = spawnSync('chrt', ['--idle', '0', 'true']).status === 0;
const steps: Step[] = [];
const started = performance.now();

steps.push(await timed('npm run build:cli', () => run(NPM, ['run', 'build:cli'])));
steps.push(await timed('npm run build:renderer', () => run(NPM, ['run', 'build:renderer'])));
if (idleClass) {
  process.stdout.write(
    'npm test: the timing pass runs beside the rest, which runs at the idle class; its output follows when it ends\n',
  );
  const timing = timingPass('the timing pass', 'others', true);
  const others = rest(true);
  steps.push(await timing, ...(await others));
} else {
  steps.push(...(await rest(false)));
  steps.push(await timingPass('the timing pass', 'others'));
}
steps.push(await timingPass('the timing pass of the machine’s files, alone', 'machine'));
rmSync(FAILURES_DIR, { recursive: true, force: true });

const failed = steps.filter((s) => s.code !== 0);
process.stdout.write(
  `\nnpm test: ${((performance.now() - started) / 1000).toFixed(0)} s\n` +
    steps
      .map(
        (s) =>
          `  ${s.code === 0 ? 'passed' : 'FAILED'}  ${s.seconds.toFixed(0).padStart(4)} s  ${s.name}\n` +
          (s.failures ?? ''),
      )
      .join(''),
);
process.exitCode = failed.length > 0 ? 1 : 0;
