/**
 * The open model's cold start (issue 24 item 2): no --warmup, so the schedule's first second
 * is measured like the rest. Before its first send the engine opens the connections the rate
 * needs (TLS handshakes done); these rows show whether the first second is as punctual as a
 * warm run's. http at 20,000 req/s (goal: send-lateness p99 under 1 ms, latency p99 within
 * 1.5x of the warm run's) and https at 10,000 req/s (goal: under 1% late, p99 within 1.5x of
 * wrk2 -c100's on the same server, when WRK2 points to it).
 */
import { runEngine, type EngineFigures } from './generators.ts';
import { int, ratio } from './report.ts';
import type { NginxServer } from '../helpers/nginx.ts';
import { NO_WRK2, runWrk2, WRK2 } from './wrk2.ts';

const HTTP_RATE = 20_000;
const HTTPS_RATE = 10_000;
const WARMUP_SECONDS = 1;

const log = (line: string) => console.error(line);
const pause = (ms = 500) => new Promise((r) => setTimeout(r, ms));
const ms = (v: number | null | undefined) => (v === null || v === undefined ? 'n/a' : v.toFixed(3));

/** The rows against the bench's nginx, `seconds` per run (the open section's). */
export async function coldStartRows(nginx: NginxServer, seconds: number): Promise<string> {
  const lines: string[] = [];
  const run = async (
    what: string,
    url: string,
    rate: number,
    warmup: number,
  ): Promise<EngineFigures | null> => {
    try {
      const f = await runEngine(
        {
          name: 'bench',
          targets: [{ url }],
          load: { model: 'open', rate, durationSeconds: seconds, maxInFlight: 1000 },
          options: { warmupSeconds: warmup, tls: { verify: false } },
        },
        warmup + seconds,
      );
      const o = f.outcome;
      lines.push(
        `| ${what} | ${int(rate)} | ${warmup > 0 ? `${warmup} s` : 'none'} | ${o.warmConnections ?? 'n/a'} | ${ms(o.warmSeconds)} | ${o.firstSecondLate} | ${ms(o.firstSecondSendLateP99)} | ${o.late ?? 0} | ${o.dropped ?? 0} | ${ms(o.sendLateP99)} | ${ms(o.p50)} | ${ms(o.p99)} |`,
      );
      log(`  ${lines.at(-1)}`);
      return f;
    } catch (e) {
      log(`  ${what}: FAILED: ${e instanceof Error ? e.message : String(e)}`);
      return null;
    } finally {
      await pause();
    }
  };
  log(`open model cold start, ${seconds} s, no warm-up against a ${WARMUP_SECONDS} s warm-up:`);
  const http = `${nginx.httpUrl}test.html`;
  const https = `${nginx.httpsUrl}test.html`;
  const coldHttp = await run('http, cold', http, HTTP_RATE, 0);
  const warmHttp = await run('http, warm', http, HTTP_RATE, WARMUP_SECONDS);
  const coldHttps = await run('https, cold', https, HTTPS_RATE, 0);
  let wrk2: string;
  if (!WRK2) wrk2 = NO_WRK2;
  else {
    try {
      const w = await runWrk2(https, HTTPS_RATE, seconds);
      wrk2 = `wrk2 -t1 -c100 -R${HTTPS_RATE} over https: p99 ${ms(w.p99)} ms, p99.9 ${ms(w.p999)} ms; Trebuchet cold p99 ${ratio(coldHttps?.outcome.p99 ?? NaN, w.p99 ?? undefined)}x it (goal: within 1.5x).`;
    } catch (e) {
      wrk2 = `wrk2 failed: ${e instanceof Error ? e.message : String(e)}`;
    }
  }
  const httpGoal =
    coldHttp && warmHttp
      ? `http cold: send-lateness p99 ${ms(coldHttp.outcome.sendLateP99)} ms (goal: under 1 ms), latency p99 ${ratio(coldHttp.outcome.p99 ?? NaN, warmHttp.outcome.p99 ?? undefined)}x the warm run's (goal: within 1.5x).`
      : 'http cold or warm run failed.';
  const httpsGoal = coldHttps
    ? `https cold: ${((100 * (coldHttps.outcome.late ?? 0)) / Math.max(1, coldHttps.outcome.sent)).toFixed(2)}% late (goal: under 1%).`
    : 'https cold run failed.';
  return [
    `### Open model, cold start (${seconds} s, maxInFlight 1000, no warm-up against a ${WARMUP_SECONDS} s warm-up)`,
    '',
    '| run | target req/s | warm-up | warm connections | warm phase s | late in 1st s | send late p99 in 1st s ms | late | dropped | send late p99 ms | p50 ms | p99 ms |',
    '|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...lines,
    '',
    httpGoal,
    httpsGoal,
    wrk2,
    '',
  ].join('\n');
}
