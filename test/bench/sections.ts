/**
 * The benchmark's sections, each a function that runs its generators against the shared
 * nginx and returns markdown. Every ratio divides by a reference tool measured in the same
 * section of the same run, so a busy machine skews both sides alike.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { ScenarioInput } from '../../shared/model/scenario.ts';
import type { NginxServer } from '../helpers/nginx.ts';
import { runEngine, runEngineRss, tools } from './generators.ts';
import {
  int,
  median,
  perCpuSecond,
  ratio,
  ratioTable,
  rssTable,
  type Figures,
  type RssRun,
  type Row,
} from './report.ts';

/** The sections a plain `npm run bench` runs, in order. */
export const SECTIONS = ['startup', 'closed', 'workers', 'open', 'h2', 'keepalive', 'rss', 'frames'] as const;
/**
 * Sections run only when named in --only: `servers` starts the whole Debian server suite,
 * `metrics` a Prometheus.
 */
export const OPT_IN_SECTIONS = ['servers', 'metrics'] as const;
export const ALL_SECTIONS = [...SECTIONS, ...OPT_IN_SECTIONS] as const;
export type Section = (typeof ALL_SECTIONS)[number];

export interface Shape {
  rounds: number;
  seconds: number;
}

export interface Bench {
  nginx: NginxServer;
  quick: boolean;
  /** A section's rounds and seconds: its defaults, --quick's (1 x 2 s), or --rounds/--seconds. */
  shape(defaults: Shape): Shape;
}

const ENGINES = ['native', 'autocannon'] as const;
/** Issue 38: the native engine's requests per CPU-second, whole process, against wrk -t1's in every closed row. */
const CLOSED_GOAL = 0.95;
export const pause = (ms = 500) => new Promise((r) => setTimeout(r, ms));
export const log = (line: string) => console.error(line);

export function closedScenario(
  url: string,
  connections: number,
  seconds: number,
  options: NonNullable<ScenarioInput['options']> = {},
): ScenarioInput {
  return {
    name: 'bench',
    targets: [{ url }],
    load: { model: 'closed', connections, limit: { kind: 'duration', seconds } },
    options,
  };
}

/** Runs one generator once into its row; a failure is printed and leaves the row short. */
export async function measure(row: Row, run: () => Promise<Figures>): Promise<Figures | null> {
  try {
    const f = await run();
    row.runs.push(f);
    const worker = f.workerCpuSeconds === undefined ? '' : `, worker thread ${f.workerCpuSeconds.toFixed(2)}`;
    log(
      `  ${row.label}: ${int(f.requestsPerSecond)} req/s, ${f.requests} requests in ${f.seconds.toFixed(2)} s, ` +
        `${f.errors} errors, ${f.cpuSeconds.toFixed(2)} CPU-s${worker}, ${int(perCpuSecond(f))} req/CPU-s`,
    );
    return f;
  } catch (e) {
    log(`  ${row.label}: FAILED: ${e instanceof Error ? e.message : String(e)}`);
    return null;
  } finally {
    await pause();
  }
}

export const row = (id: string, label: string): Row => ({ id, label, runs: [] });

/**
 * Closed model, keep-alive: the engines beside autocannon's CLI and wrk, interleaved per round.
 * http x 100 connections is issue 2's table (8 s, 3 rounds); the others are issue 3's.
 */
export async function closedSection(b: Bench): Promise<string> {
  const configs = [
    { scheme: 'http', connections: 100, shape: b.shape({ rounds: 3, seconds: 8 }) },
    { scheme: 'http', connections: 1000, shape: b.shape({ rounds: 2, seconds: 5 }) },
    { scheme: 'https', connections: 100, shape: b.shape({ rounds: 2, seconds: 5 }) },
    { scheme: 'https', connections: 1000, shape: b.shape({ rounds: 2, seconds: 5 }) },
  ] as const;
  const out: string[] = [];
  for (const { scheme, connections, shape } of configs) {
    const https = scheme === 'https';
    const url = `${https ? b.nginx.httpsUrl : b.nginx.httpUrl}test.html`;
    const caFile = https ? b.nginx.caFile : undefined;
    const load = { url, connections, seconds: shape.seconds };
    const rows = {
      native: row('native', 'Trebuchet, native engine'),
      autocannon: row('autocannon', 'Trebuchet, autocannon engine'),
      autocannonCli: row('autocannon-cli', 'autocannon CLI'),
      wrk: row('wrk', 'wrk -t1'),
    };
    log(`closed, keep-alive, ${scheme}, ${connections} connections, ${shape.rounds} x ${shape.seconds} s:`);
    for (let round = 0; round < shape.rounds; round++) {
      for (const engine of ENGINES) {
        const options = { engine, ...(caFile ? { tls: { caFile } } : {}) };
        await measure(rows[engine], () =>
          runEngine(closedScenario(url, connections, shape.seconds, options), shape.seconds),
        );
      }
      await measure(rows.autocannonCli, () => tools.autocannon(load, caFile));
      await measure(rows.wrk, () => tools.wrk(load));
    }
    const perCpu = (r: Row) => median(r.runs.map(perCpuSecond));
    out.push(
      `### Closed model, keep-alive, ${scheme}, ${connections} connections (${shape.seconds} s, median of ${shape.rounds})`,
      '',
      ratioTable(Object.values(rows), ['wrk', 'autocannon-cli']),
      '',
      `Native engine, whole process, against wrk -t1's: ${ratio(perCpu(rows.native), perCpu(rows.wrk))} of its requests per CPU-second (goal: ${CLOSED_GOAL}).`,
      '',
    );
  }
  return out.join('\n');
}

/** HTTP/2 over TLS (ALPN h2), 100 connections x 1 stream: the native engine against h2load -c100 -m1. */
export async function h2Section(b: Bench): Promise<string> {
  const shape = b.shape({ rounds: 2, seconds: 5 });
  const url = `${b.nginx.httpsUrl}test.html`;
  const rows = {
    native: row('native', 'Trebuchet, native engine (h2)'),
    h2load: row('h2load', 'h2load -c100 -m1'),
  };
  log(`HTTP/2 over TLS, 100 connections x 1 stream, ${shape.rounds} x ${shape.seconds} s:`);
  for (let round = 0; round < shape.rounds; round++) {
    await measure(rows.native, async () => {
      const f = await runEngine(
        closedScenario(url, 100, shape.seconds, { protocol: 'h2', tls: { caFile: b.nginx.caFile ?? null } }),
        shape.seconds,
      );
      if (f.outcome.alpn !== 'h2') throw new Error(`expected ALPN h2, got ${f.outcome.alpn}`);
      return f;
    });
    await measure(rows.h2load, () => tools.h2load({ url, connections: 100, seconds: shape.seconds }, 1));
  }
  return [
    `### HTTP/2 over TLS (ALPN h2), 100 connections, 1 stream each (${shape.seconds} s, median of ${shape.rounds})`,
    '',
    ratioTable(Object.values(rows), ['h2load']),
    '',
  ].join('\n');
}

/**
 * https, 10 connections, keep-alive on and off: the native engine against ab -k and ab. Off
 * means a new connection and a TLS handshake per request (seed 000's collapse).
 */
export async function keepAliveSection(b: Bench): Promise<string> {
  const shape = b.shape({ rounds: 2, seconds: 5 });
  const url = `${b.nginx.httpsUrl}test.html`;
  const tls = { caFile: b.nginx.caFile ?? null };
  const tables = [true, false].map((keepAlive) => ({
    keepAlive,
    native: row('native', `Trebuchet, native engine, keep-alive ${keepAlive ? 'on' : 'off'}`),
    ab: row('ab', keepAlive ? 'ab -k' : 'ab (no -k)'),
  }));
  log(`https, 10 connections, keep-alive on and off, ${shape.rounds} x ${shape.seconds} s:`);
  for (let round = 0; round < shape.rounds; round++) {
    for (const t of tables) {
      await measure(t.native, () =>
        runEngine(closedScenario(url, 10, shape.seconds, { keepAlive: t.keepAlive, tls }), shape.seconds),
      );
      await measure(t.ab, () => tools.ab({ url, connections: 10, seconds: shape.seconds }, t.keepAlive));
    }
  }
  const rps = (r: Row) => median(r.runs.map((f) => f.requestsPerSecond));
  const [on, off] = tables as [(typeof tables)[number], (typeof tables)[number]];
  return [
    `### https, 10 connections, keep-alive on and off (${shape.seconds} s, median of ${shape.rounds})`,
    '',
    ratioTable([on.native, on.ab], ['ab']),
    '',
    ratioTable([off.native, off.ab], ['ab']),
    '',
    `Keep-alive on / off: native ${ratio(rps(on.native), rps(off.native))}x, ab ${ratio(rps(on.ab), rps(off.ab))}x.`,
    '',
  ].join('\n');
}

/** Peak RSS of each engine's process for a short and a long run (histograms only: it should stay flat). */
export async function rssSection(b: Bench): Promise<string> {
  const lengths = b.quick ? [3, 6] : [10, 60];
  const url = `${b.nginx.httpUrl}test.html`;
  const runs: RssRun[] = [];
  log(`peak RSS, closed, http, 100 connections, runs of ${lengths.join(' and ')} s:`);
  for (const engine of ENGINES) {
    for (const seconds of lengths) {
      const label = `Trebuchet, ${engine} engine`;
      try {
        const f = await runEngineRss(closedScenario(url, 100, seconds, { engine }), seconds);
        runs.push({ label, seconds, requests: f.requests, maxRssKiB: f.maxRssKiB });
        log(`  ${label}, ${seconds} s: ${(f.maxRssKiB / 1024).toFixed(1)} MiB after ${f.requests} requests`);
      } catch (e) {
        log(`  ${label}, ${seconds} s: FAILED: ${e instanceof Error ? e.message : String(e)}`);
      }
      await pause();
    }
  }
  return [
    '### Engine memory (closed, http, 100 connections)',
    '',
    rssTable(runs),
    '',
    await manyConnectionsRss(url, b.quick ? 3 : 4),
  ].join('\n');
}

/** Issue 9's memory goal: 10,000 connections under 300 MB with -t 1, under 60 MB more per extra worker. */
async function manyConnectionsRss(url: string, seconds: number): Promise<string> {
  const connections = 10_000;
  const runs: RssRun[] = [];
  log(`peak RSS, closed, http, ${connections} connections, -t 1 and -t 2, ${seconds} s:`);
  for (const workers of [1, 2]) {
    const label = `Trebuchet, native engine, -t ${workers}`;
    try {
      const f = await runEngineRss(
        closedScenario(url, connections, seconds, { engine: 'native', workers }),
        seconds,
      );
      runs.push({ label, seconds, requests: f.requests, maxRssKiB: f.maxRssKiB });
      log(`  ${label}: ${(f.maxRssKiB / 1024).toFixed(1)} MiB after ${f.requests} requests`);
    } catch (e) {
      log(`  ${label}: FAILED: ${e instanceof Error ? e.message : String(e)}`);
    }
    await pause();
  }
  const [one, two] = runs;
  const extra =
    one && two && runs.length === 2
      ? `The second worker adds ${((two.maxRssKiB - one.maxRssKiB) / 1024).toFixed(1)} MiB (goal: under 60; -t 1 under 300).`
      : 'A run failed: no per-worker figure.';
  return [
    `### Engine memory, ${connections.toLocaleString('en-US')} connections (closed, http, -t 1 and -t 2)`,
    '',
    rssTable(runs),
    '',
    extra,
    '',
  ].join('\n');
}

const FRAME_TIMES = join(import.meta.dirname, '..', '..', 'test-artifacts', 'frame-times.json');
const frameStatsSchema = z.object({
  count: z.number(),
  p50Ms: z.number(),
  p95Ms: z.number(),
  p99Ms: z.number(),
  maxMs: z.number(),
});
const frameTimesSchema = z.object({
  idle: frameStatsSchema,
  runs: z.array(
    z.object({ sampleIntervalMs: z.number(), requestsPerSecond: z.number(), frames: frameStatsSchema }),
  ),
});

/** Frame times are the e2e test's to measure (it drives a browser); this prints its last figures. */
export function framesSection(): string {
  const how =
    'UI frame times during a run are measured by `test/e2e/responsiveness.test.ts` ' +
    '(`npx vitest run --project e2e test/e2e/responsiveness.test.ts`), which writes `test-artifacts/frame-times.json`.';
  if (!existsSync(FRAME_TIMES)) return ['### UI frame times', '', `${how} No figures yet.`, ''].join('\n');
  const parsed = frameTimesSchema.safeParse(JSON.parse(readFileSync(FRAME_TIMES, 'utf8')));
  if (!parsed.success)
    return ['### UI frame times', '', `${how} Its file does not parse: ${parsed.error.message}`, ''].join(
      '\n',
    );
  const line = (what: string, f: z.infer<typeof frameStatsSchema>) =>
    `| ${what} | ${f.count} | ${f.p50Ms} | ${f.p95Ms} | ${f.p99Ms} | ${f.maxMs} |`;
  return [
    '### UI frame times',
    '',
    `${how} Its last figures (${statSync(FRAME_TIMES).mtime.toISOString()}):`,
    '',
    '| page | frames | p50 ms | p95 ms | p99 ms | max ms |',
    '|---|---:|---:|---:|---:|---:|',
    line('idle', parsed.data.idle),
    ...parsed.data.runs.map((r) =>
      line(`during a run at ${int(r.requestsPerSecond)} req/s, ${r.sampleIntervalMs} ms tick`, r.frames),
    ),
    '',
  ].join('\n');
}
