/**
 * `npm run bench` (issue 2 §6): Trebuchet's engines against autocannon's CLI and wrk, on the
 * same local nginx (one worker, 5-byte test.html, keep-alive), interleaved over rounds, then
 * the engines' peak RSS for a short and a long run. Prints markdown tables for
 * docs/benchmarks.md. Load goes to 127.0.0.1 only. Flags:
 *   --quick               1 round of 2 s, RSS runs of 3 s and 6 s (a smoke check)
 *   --rounds N            rounds (default 3)
 *   --seconds S           seconds per run (default 8)
 *   --connections C       connections (default 100)
 *   --rss-seconds A,B     RSS run lengths (default 10,60); --rss-seconds 0 skips them
 *   --only id,id          generators to run (engine-autocannon, engine-native, autocannon-cli, wrk)
 */
import { spawnSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { startNginx } from '../helpers/nginx.ts';
import { AUTOCANNON_BIN } from '../helpers/reference-tools.ts';
import {
  ENGINES,
  GeneratorUnavailable,
  REFERENCES,
  autocannonCli,
  wrk,
  type Generator,
} from './generators.ts';
import { rssTable, throughputTable, type Row, type RssRun } from './report.ts';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean' },
    rounds: { type: 'string' },
    seconds: { type: 'string' },
    connections: { type: 'string' },
    'rss-seconds': { type: 'string' },
    only: { type: 'string' },
  },
});
const quick = values.quick === true;
const rounds = Number(values.rounds ?? (quick ? 1 : 3));
const seconds = Number(values.seconds ?? (quick ? 2 : 8));
const connections = Number(values.connections ?? 100);
const rssSeconds = (values['rss-seconds'] ?? (quick ? '3,6' : '10,60'))
  .split(',')
  .map(Number)
  .filter((n) => n > 0);
const only = values.only?.split(',');
for (const [name, n] of Object.entries({ rounds, seconds, connections })) {
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a whole number >= 1`);
}

const generators: Generator[] = [...ENGINES, ...REFERENCES].filter((g) => !only || only.includes(g.id));
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** First line a tool prints about its version (nginx -v and wrk -v write to stderr; wrk exits 1). */
const version = (cmd: string, args: string[]): string => {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  return `${r.stdout ?? ''}${r.stderr ?? ''}`.trim().split('\n')[0] || `${cmd}: not found`;
};

console.log('# Trebuchet benchmark');
console.log(`machine: ${cpus().length} x ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}`);
console.log(
  `tools: ${version('/usr/sbin/nginx', ['-v'])}; ${version('wrk', ['-v'])}; ${version(AUTOCANNON_BIN, ['--version'])}`,
);
console.log(
  `load average at start: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} (other load skews every figure)`,
);
console.log(
  `plan: ${rounds} round(s) x ${generators.length} generators x ${seconds} s, ${connections} connections, keep-alive, nginx 1 worker, 5-byte test.html\n`,
);

const nginx = await startNginx({ workers: 1 });
const url = `${nginx.httpUrl}test.html`;
const rows = new Map<string, Row>(generators.map((g) => [g.id, { id: g.id, label: g.label, runs: [] }]));
const unavailable = new Set<string>();
const rss: RssRun[] = [];

try {
  for (let round = 1; round <= rounds; round++) {
    for (const g of generators) {
      if (unavailable.has(g.id)) continue;
      try {
        const r = await g.run({ url, connections, seconds });
        rows.get(g.id)!.runs.push(r);
        const extra = r.engine
          ? `, worker ${r.engine.workerCpuSeconds.toFixed(2)} CPU-s, host thread ${r.engine.hostThreadCpuSeconds.toFixed(2)} CPU-s, whole process during the run ${r.engine.runCpuSeconds.toFixed(2)} CPU-s`
          : '';
        console.log(
          `round ${round} ${g.label}: ${Math.round(r.requestsPerSecond)} req/s, ${r.requests} requests in ${r.seconds.toFixed(2)} s, ${r.errors} errors, ${r.cpuSeconds.toFixed(2)} CPU-s${extra}`,
        );
      } catch (e) {
        if (!(e instanceof GeneratorUnavailable)) throw e;
        unavailable.add(g.id);
        console.log(`${g.label}: skipped, ${e.message}`);
      }
      await pause(1000);
    }
  }

  for (const g of generators.filter((x) => x.kind === 'engine' && !unavailable.has(x.id))) {
    for (const s of rssSeconds) {
      const r = await g.run({ url, connections, seconds: s });
      rss.push({ label: g.label, seconds: s, requests: r.requests, maxRssKiB: r.engine!.maxRssKiB });
      console.log(
        `RSS ${g.label} ${s} s: ${(r.engine!.maxRssKiB / 1024).toFixed(1)} MiB peak after ${r.requests} requests`,
      );
      await pause(1000);
    }
  }
} finally {
  await nginx.stop();
}

console.log('\n## Throughput (paste into docs/benchmarks.md)\n');
console.log(throughputTable([...rows.values()], { wrk: wrk.id, autocannon: autocannonCli.id }));
if (rss.length > 0) {
  console.log('\n## Engine memory\n');
  console.log(rssTable(rss));
}
