/**
 * `npm run test:flaky`: every test tagged `timing` (a test whose pass depends on time or on the
 * machine's load, docs/testing.md), run 5 times over while a CPU hog keeps every core busy:
 * one `yes` per core, each ended by `timeout` even if this script dies, and stopped at the end.
 * A bound on time that only holds on a quiet machine fails here. Exits non-zero unless every
 * run passed.
 *
 *   node test/scripts/flaky.ts [--runs N] [--hogs N] [vitest args...]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { runTimingPass } from './timing-files.ts';

/** The hog's own end, should this script not stop it: longer than any 5 runs take. */
const HOG_SECONDS = 3600;

const { values, positionals } = parseArgs({
  options: { runs: { type: 'string', default: '5' }, hogs: { type: 'string' } },
  allowPositionals: true,
});
const runs = Number(values.runs);
const hogs = Number(values.hogs ?? availableParallelism());

const hog: ChildProcess[] = Array.from({ length: hogs }, () =>
  spawn('timeout', [String(HOG_SECONDS), 'yes'], { stdio: 'ignore' }),
);
const stopHog = () => {
  // SIGTERM, which timeout passes on to its yes before it exits; a SIGKILL ended timeout alone
  // and left its yes running on a core for good (two were found an hour later, under a CI run).
  for (const h of hog) h.kill('SIGTERM');
};
process.on('exit', stopHog);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    stopHog();
    process.exit(130);
  });
}

const results: { run: number; code: number; seconds: number; load: string }[] = [];
for (let run = 1; run <= runs; run++) {
  const started = performance.now();
  // One file at a time, as npm test runs them: the hog is the only load beside each.
  const code = await runTimingPass(positionals);
  const seconds = (performance.now() - started) / 1000;
  const load = loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
  results.push({ run, code, seconds, load });
  process.stderr.write(
    `test:flaky: run ${run}/${runs} ${code === 0 ? 'passed' : 'FAILED'} in ${seconds.toFixed(0)} s ` +
      `beside ${hogs} CPU hogs (load average ${load})\n`,
  );
}
stopHog();
const passed = results.filter((r) => r.code === 0).length;
process.stderr.write(`test:flaky: ${passed}/${runs} runs passed\n`);
process.exitCode = passed === runs ? 0 : 1;
