/**
 * `npm run bench` (issue 2 §6, issue 3): Trebuchet's engines against the reference tools on
 * one local nginx (one worker, 5-byte test.html, http, https with a test CA, HTTP/2 by ALPN),
 * each generator in a process of its own, interleaved over rounds. Progress goes to stderr;
 * stdout gets markdown tables for docs/benchmarks.md, every ratio against a reference
 * measured in the same run. Load goes to 127.0.0.1 only. About 10 minutes in full.
 *
 *   startup    `trebuchet run -n 1`'s CPU seconds against ab -n 1's and wrk's own start-up
 *   closed     keep-alive, 100 and 1000 connections, http and https: native engine,
 *              autocannon engine, autocannon CLI, wrk -t1 (req/s and requests per CPU-second)
 *   workers    the native engine with -t 1 and -t 2 against wrk -t1 and -t2 (req/s, requests per CPU-second)
 *   open       the open model's highest rate sustained with under 1% late, against wrk's closed loop
 *   h2         HTTP/2 over TLS: native engine against h2load -c100 -m1
 *   keepalive  https with and without keep-alive: native engine against ab -k and ab
 *   rss        each engine's peak RSS for a 10 s and a 60 s run
 *   frames     UI frame times, as the e2e test last measured them
 *   servers    opt-in (--only servers): seed 000's table, the native engine at 1000 req/s for 5 s
 *              against Debian's Apache, nginx, H2O, lighttpd and Caddy over http and https
 *   metrics    opt-in (--only metrics): a run without live metrics, pushing to Prometheus, to a
 *              refused port and to one that never answers (req/s, p99, CPU-s, wall time)
 *
 * Placement (issue 24): every section runs first pinned (nginx on CPU 0, each generator on CPU 1,
 * with taskset: pinning.ts) and then unpinned, the second view; --pin on|off|both (default both).
 *
 * Flags (options.ts, `npm run bench -- --help`): --quick, --only, --rounds, --seconds, --pin.
 */
import { spawnSync } from 'node:child_process';
import { cpus } from 'node:os';
import { startNginx } from '../helpers/nginx.ts';
import { AUTOCANNON_BIN } from '../helpers/reference-tools.ts';
import {
  closedSection,
  framesSection,
  h2Section,
  keepAliveSection,
  rssSection,
  ALL_SECTIONS,
  log,
  type Bench,
  type Section,
  type Shape,
} from './sections.ts';
import { BENCH_HELP, benchOptions } from './options.ts';
import { metricsSection } from './metrics-section.ts';
import { openSection } from './open-section.ts';
import { loadAverage } from './report.ts';
import { serversSection } from './servers-section.ts';
import { CliInputError } from '../../electron/cli/values.ts';
import { startupSection } from './startup-section.ts';
import { PINNED, UNPINNED, pinningUnavailable, place, type Placement } from './pinning.ts';
import { workersSection } from './workers-section.ts';

/** First line a tool prints about its version (nginx -v and wrk -v write to stderr; wrk exits 1). */
const version = (cmd: string, args: string[]): string => {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  return `${r.stdout ?? ''}${r.stderr ?? ''}`.trim().split('\n')[0] || `${cmd}: not found`;
};

const opts = (() => {
  try {
    return benchOptions(process.argv.slice(2));
  } catch (e) {
    if (!(e instanceof CliInputError)) throw e;
    process.stderr.write(`npm run bench: ${e.message}\nRun "npm run bench -- --help" for the flags.\n`);
    process.exit(2);
  }
})();
if (opts === 'help') {
  process.stdout.write(BENCH_HELP);
  process.exit(0);
}
const started = Date.now();
console.log('# Trebuchet benchmark\n');
console.log(`- date: ${new Date().toISOString()}`);
console.log(`- machine: ${cpus().length} x ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}`);
console.log(
  `- tools: ${version('/usr/sbin/nginx', ['-v'])}; ${version('wrk', ['-v'])}; ${version(AUTOCANNON_BIN, ['--version'])}; ${version('h2load', ['--version'])}; ${version('ab', ['-V'])}`,
);
console.log(`- load average at start: ${loadAverage()} (other load skews every figure)`);
console.log(
  `- sections: ${[...opts.sections].join(', ')}${opts.quick ? ' (--quick: indicative only)' : ''}\n`,
);

const nginx = await startNginx({ workers: 1, https: true });
const bench: Bench = {
  nginx,
  quick: opts.quick,
  shape: (d: Shape): Shape => ({
    rounds: opts.rounds ?? (opts.quick ? 1 : d.rounds),
    seconds: opts.seconds ?? (opts.quick ? 2 : d.seconds),
  }),
};
const runners: Record<Section, () => Promise<string> | string> = {
  startup: () => startupSection(bench),
  closed: () => closedSection(bench),
  workers: () => workersSection(bench),
  open: () => openSection(bench),
  h2: () => h2Section(bench),
  keepalive: () => keepAliveSection(bench),
  rss: () => rssSection(bench),
  frames: framesSection,
  servers: () => serversSection(bench.shape({ rounds: 1, seconds: 5 })),
  metrics: () => metricsSection(bench),
};
const cannotPin = opts.pin === 'off' ? null : pinningUnavailable();
if (cannotPin) console.log(`- not pinned: ${cannotPin}\n`);
const placements: Placement[] =
  cannotPin !== null || opts.pin === 'off' ? [UNPINNED] : opts.pin === 'on' ? [PINNED] : [PINNED, UNPINNED];
try {
  for (const p of placements) {
    place(p, nginx.pid);
    console.log(
      p.server === null
        ? `## Unpinned${placements.length > 1 ? ' (the second view)' : ''}: nginx and the generators on every CPU\n`
        : `## Pinned: nginx on CPU ${p.server}, each generator on CPU ${p.generator} (taskset)\n`,
    );
    log(`-- ${p.name}`);
    // Print each section as it completes, so a long run shows its tables early, with the
    // load average around it (other work on the machine skews every figure in it).
    for (const section of ALL_SECTIONS) {
      if (!opts.sections.has(section)) continue;
      const before = loadAverage();
      const t = Date.now();
      const text = await runners[section]();
      console.log(
        `${text}\n_${section}, ${p.name}: ${((Date.now() - t) / 60_000).toFixed(1)} min, load average ${before} → ${loadAverage()}._\n`,
      );
    }
  }
} finally {
  await nginx.stop();
}
console.log(
  `- load average at end: ${loadAverage()}; took ${((Date.now() - started) / 60_000).toFixed(1)} min`,
);
