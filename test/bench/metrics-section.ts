/**
 * The `metrics` section (opt-in, issue 39): what live metrics out cost a run, and what an
 * endpoint that is down or slow costs it. The same `trebuchet run -d S -c 50` against the
 * bench's nginx, interleaved per round: without metrics (the reference), pushing to a live
 * Prometheus (Debian's, started here on loopback), to a refused port, and to a port that accepts
 * and never answers. Per row: req/s and p99 from the run's own report, the process tree's
 * CPU-seconds and the command's wall time; each against the reference of the same round.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runResultSchema } from '../../shared/model/result.ts';
import { startPrometheus } from '../helpers/prometheus.ts';
import { runMeasured } from '../helpers/reference-tools.ts';
import { freePort } from '../helpers/servers.ts';
import { placed } from './pinning.ts';
import { median, ratio } from './report.ts';
import { log, pause, type Bench } from './sections.ts';
import { silentServer } from './startup-section.ts';

const CLI_BIN = resolve(import.meta.dirname, '../../electron/cli/bin.js');

interface MetricsRow {
  label: string;
  out: string[];
  rps: number[];
  p99: number[];
  cpu: number[];
  wall: number[];
}

export async function metricsSection(b: Bench): Promise<string> {
  const { rounds, seconds } = b.shape({ rounds: 3, seconds: 5 });
  const url = `${b.nginx.httpUrl}test.html`;
  const prometheus = await startPrometheus();
  // The slow endpoint: it accepts and never answers.
  const silent = await silentServer();
  const refused = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'trebuchet-bench-metrics-'));
  const rw = (base: string) => ['--out', `prometheus-rw=${base}/api/v1/write`];
  const rows: MetricsRow[] = [
    { label: 'no metrics (reference)', out: [] },
    { label: 'remote write to a live Prometheus', out: rw(prometheus.server.httpUrl.replace(/\/$/, '')) },
    { label: 'remote write to a refused port', out: rw(`http://127.0.0.1:${refused}`) },
    { label: 'remote write to a port that never answers', out: rw(silent.url.replace(/\/$/, '')) },
  ].map((r) => ({ ...r, rps: [], p99: [], cpu: [], wall: [] }));
  log(`metrics, ${rounds} rounds of ${seconds} s:`);
  try {
    for (let round = 0; round < rounds; round++) {
      for (const r of rows) {
        const json = join(dir, 'result.json');
        const args = [CLI_BIN, 'run', '-d', `${seconds}s`, '-c', '50', '-q', '--json', json, ...r.out, url];
        const m = await runMeasured(...placed(process.execPath, args), (seconds + 60) * 1000);
        if (m.exitCode !== 0) {
          log(`  ${r.label}: exited ${m.exitCode}: ${m.stderr.trim().slice(0, 200)}`);
          continue;
        }
        const result = runResultSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
        r.rps.push(result.throughput.requestsPerSecond);
        r.p99.push(result.latency?.percentiles['99'] ?? NaN);
        r.cpu.push(m.cpuSeconds);
        r.wall.push(m.wallSeconds);
        const warned = result.warnings.some((w) => w.code === 'metrics-not-delivered');
        log(
          `  ${r.label}: ${result.throughput.requestsPerSecond.toFixed(0)} req/s, p99 ${result.latency?.percentiles['99']} ms, ${m.cpuSeconds.toFixed(2)} CPU-s, ${m.wallSeconds.toFixed(2)} s${warned ? ', warned' : ''}`,
        );
        await pause(200);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await silent.close();
    await prometheus.stop();
  }
  const ref = rows[0]!;
  return [
    `### Metrics out: a ${seconds} s run at -c 50, median of ${rounds} (ratios to the run without metrics)`,
    '',
    '| metrics | req/s | vs ref | p99 ms | vs ref | CPU-s | vs ref | wall s | + s vs ref |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows
      .map((r) =>
        [
          r.label,
          median(r.rps).toFixed(0),
          ratio(median(r.rps), median(ref.rps)),
          median(r.p99).toFixed(2),
          ratio(median(r.p99), median(ref.p99)),
          median(r.cpu).toFixed(2),
          ratio(median(r.cpu), median(ref.cpu)),
          median(r.wall).toFixed(2),
          (median(r.wall) - median(ref.wall)).toFixed(2),
        ].join(' | '),
      )
      .map((line) => `| ${line} |`),
    '',
  ].join('\n');
}
