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
import path from 'node:path';
import { timingArgs, type TimingSet } from './timing-files.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const VITEST = path.join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

interface Step {
  name: string;
  code: number;
  seconds: number;
}

/** Runs a command; its output goes to ours as it comes, or is kept and printed whole at its end. */
function run(command: string, args: readonly string[], opts: { idle?: boolean; held?: boolean } = {}) {
  const [file, argv] = opts.idle ? ['chrt', ['--idle', '0', command, ...args]] : [command, args];
  const child = spawn(file, argv, {
    cwd: ROOT,
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

/** One timing pass over a set of the timing files, in a vitest of its own. */
const timingPass = (set: TimingSet, held = false) =>
  run(process.execPath, [VITEST, ...timingArgs([], ROOT, set)], { held });

async function timed(name: string, work: () => Promise<number>): Promise<Step> {
  const started = performance.now();
  const code = await work();
  return { name, code, seconds: (performance.now() - started) / 1000 };
}

/** `npm run check` beside every test not tagged `timing`. */
async function rest(idle: boolean): Promise<Step[]> {
  const check = timed('npm run check', () => run(NPM, ['run', 'check'], { idle, held: true }));
  const tiers = timed('the tiers (vitest --tags-filter=!timing)', () =>
    run(process.execPath, [VITEST, 'run', '--tags-filter=!timing'], { idle }),
  );
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
  const timing = timed('the timing pass', () => timingPass('others', true));
  const others = rest(true);
  steps.push(await timing, ...(await others));
} else {
  steps.push(...(await rest(false)));
  steps.push(await timed('the timing pass', () => timingPass('others')));
}
steps.push(await timed('the timing pass of the machine’s files, alone', () => timingPass('machine')));

const failed = steps.filter((s) => s.code !== 0);
process.stdout.write(
  `\nnpm test: ${((performance.now() - started) / 1000).toFixed(0)} s\n` +
    steps
      .map(
        (s) => `  ${s.code === 0 ? 'passed' : 'FAILED'}  ${s.seconds.toFixed(0).padStart(4)} s  ${s.name}\n`,
      )
      .join(''),
);
process.exitCode = failed.length > 0 ? 1 : 0;
