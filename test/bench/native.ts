/**
 * `node test/bench/native.ts`: the native engine against the reference tools on one local
 * nginx (1 worker, 5-byte test.html), printed as ratios. Load goes to 127.0.0.1 only.
 *
 *   closed     keep-alive, 100 and 1000 connections, http and https: native engine,
 *              autocannon engine, autocannon CLI, wrk -t1 (req/s and requests per CPU-second)
 *   open       the open model's highest rate sustained with under 1% late and none dropped
 *   h2         HTTP/2 over TLS: native engine against h2load -c100 -m1
 *   keepalive  https with and without keep-alive: native engine against ab -k and ab
 *
 * Flags: --quick (1 round, 2 s runs), --seconds S (default 5), --rounds N (default 2),
 * --only closed,open,h2,keepalive. Engines run through RunManager in a process of their own;
 * their CPU is the engine worker thread's (the generator; process start-up left out), the
 * tools' is their whole process's.
 */
import { resolve } from 'node:path';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import type { ScenarioInput } from '../../shared/scenario.ts';
import { startNginx, type NginxServer } from '../helpers/nginx.ts';
import {
  AUTOCANNON_BIN,
  parseAb,
  parseAutocannonJson,
  parseH2load,
  parseWrk,
  runMeasured,
  type LoadFigures,
} from '../helpers/reference-tools.ts';
import { median } from './report.ts';
import type { ChildOutcome } from './native-child.ts';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean' },
    seconds: { type: 'string' },
    rounds: { type: 'string' },
    only: { type: 'string' },
  },
});
const quick = values.quick === true;
const seconds = Number(values.seconds ?? (quick ? 2 : 5));
const rounds = Number(values.rounds ?? (quick ? 1 : 2));
const sections = new Set((values.only ?? 'closed,open,h2,keepalive').split(','));

const CHILD = resolve(import.meta.dirname, 'native-child.ts');
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Figures {
  rps: number;
  requests: number;
  cpuSeconds: number;
  errors: number;
  extra?: ChildOutcome;
}

async function engine(scenario: ScenarioInput): Promise<Figures> {
  const m = await runMeasured(process.execPath, [CHILD, JSON.stringify(scenario)], (seconds + 90) * 1000);
  const line = m.stdout.trim().split('\n').pop() ?? '';
  if (m.exitCode !== 0 || !line.startsWith('{'))
    throw new Error(`engine run failed: ${m.stderr || m.stdout}`);
  const o = JSON.parse(line) as ChildOutcome;
  if (o.status !== 'completed') throw new Error(`engine run ${o.status}: ${o.error}`);
  return {
    rps: o.requestsPerSecond,
    requests: o.requests,
    cpuSeconds: o.workerCpuSeconds,
    errors: o.errors,
    extra: o,
  };
}

async function tool(cmd: string, args: string[], parse: (out: string) => LoadFigures): Promise<Figures> {
  const m = await runMeasured(cmd, args, (seconds + 90) * 1000);
  if (m.exitCode !== 0) throw new Error(`${cmd} exited ${m.exitCode}: ${m.stderr.trim()}`);
  const f = parse(m.stdout);
  return { rps: f.requestsPerSecond, requests: f.requests, cpuSeconds: m.cpuSeconds, errors: f.errors };
}

const perCpu = (f: Figures): number => (f.cpuSeconds > 0 ? f.requests / f.cpuSeconds : Number.NaN);
const int = (n: number): string => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'n/a');
const ratio = (a: number, b: number): string =>
  Number.isFinite(a) && Number.isFinite(b) && b > 0 ? (a / b).toFixed(2) : 'n/a';

/** Medians over the rounds of each generator, in a markdown table with ratios to `ref`. */
function table(title: string, runs: Map<string, Figures[]>, ref: string): string {
  const med = new Map(
    [...runs].map(([k, fs]) => [k, { rps: median(fs.map((f) => f.rps)), perCpu: median(fs.map(perCpu)) }]),
  );
  const r = med.get(ref);
  const lines = [
    `### ${title}`,
    '',
    `| generator | req/s | req per CPU-s | req/s vs ${ref} | per CPU-s vs ${ref} |`,
    '|---|---:|---:|---:|---:|',
  ];
  for (const [k, m] of med) {
    lines.push(
      `| ${k} | ${int(m.rps)} | ${int(m.perCpu)} | ${ratio(m.rps, r?.rps ?? NaN)} | ${ratio(m.perCpu, r?.perCpu ?? NaN)} |`,
    );
  }
  return lines.join('\n');
}

function push(runs: Map<string, Figures[]>, key: string, f: Figures): void {
  runs.set(key, [...(runs.get(key) ?? []), f]);
  console.error(
    `  ${key}: ${int(f.rps)} req/s, ${f.requests} requests, ${f.cpuSeconds.toFixed(2)} CPU-s, ${int(perCpu(f))} req/CPU-s, ${f.errors} errors`,
  );
}

const closedLoad = (
  connections: number,
  extra: Partial<ScenarioInput> = {},
): Omit<ScenarioInput, 'targets'> => ({
  name: 'bench',
  load: { model: 'closed', connections, limit: { kind: 'duration', seconds } },
  ...extra,
});

async function closedSection(nginx: NginxServer): Promise<string[]> {
  const out: string[] = [];
  for (const scheme of ['http', 'https'] as const) {
    for (const connections of [100, 1000]) {
      const url = `${scheme === 'http' ? nginx.httpUrl : nginx.httpsUrl!}test.html`;
      const tls = { caFile: nginx.caFile ?? null };
      const runs = new Map<string, Figures[]>();
      console.error(`closed, ${scheme}, ${connections} connections:`);
      for (let round = 0; round < rounds; round++) {
        for (const name of ['native', 'autocannon'] as const) {
          push(
            runs,
            `Trebuchet ${name} engine`,
            await engine({ targets: [{ url }], ...closedLoad(connections), options: { engine: name, tls } }),
          );
          await pause(500);
        }
        process.env.NODE_EXTRA_CA_CERTS = nginx.caFile;
        push(
          runs,
          'autocannon CLI',
          await tool(
            AUTOCANNON_BIN,
            ['-c', String(connections), '-d', String(seconds), '-j', url],
            parseAutocannonJson,
          ),
        );
        await pause(500);
        push(runs, 'wrk -t1', await tool('wrk', ['-t1', `-c${connections}`, `-d${seconds}s`, url], parseWrk));
        await pause(500);
      }
      out.push(table(`Closed model, keep-alive, ${scheme}, ${connections} connections`, runs, 'wrk -t1'));
    }
  }
  return out;
}

/** Highest open-model rate with under 1% late, nothing dropped and no errors: doubling, then bisection. */
async function openSection(nginx: NginxServer): Promise<string[]> {
  const url = `${nginx.httpUrl}test.html`;
  const rows: string[] = [];
  const attempt = async (rate: number): Promise<boolean> => {
    const f = await engine({
      targets: [{ url }],
      name: 'bench',
      load: { model: 'open', rate, durationSeconds: seconds, maxInFlight: 1000 },
    });
    const o = f.extra!;
    const lateShare = (o.late ?? 0) / Math.max(1, o.sent);
    const ok = lateShare < 0.01 && (o.dropped ?? 0) === 0 && f.errors === 0;
    rows.push(
      `| ${int(rate)} | ${int(o.requestsPerSecond)} | ${(lateShare * 100).toFixed(2)}% | ${o.dropped ?? 0} | ${f.errors} | ${o.p50?.toFixed(3)} | ${o.p99?.toFixed(3)} | ${f.cpuSeconds.toFixed(2)} | ${ok ? 'yes' : 'no'} |`,
    );
    console.error(`  open ${rate} req/s: ${rows.at(-1)}`);
    await pause(500);
    return ok;
  };
  // Doubling from 2000 while the rate holds (halving when even 2000 does not), then bisection.
  let good = 0;
  let bad = 0;
  if (await attempt(2000)) {
    good = 2000;
    for (let rate = 4000; rate <= 256_000; rate *= 2) {
      if (!(await attempt(rate))) {
        bad = rate;
        break;
      }
      good = rate;
    }
  } else {
    bad = 2000;
    for (let rate = 1000; rate >= 125; rate /= 2) {
      if (await attempt(rate)) {
        good = rate;
        break;
      }
      bad = rate;
    }
  }
  if (bad > 0 && good > 0) {
    for (let i = 0; i < 3; i++) {
      const mid = Math.round((good + bad) / 2 / 100) * 100;
      if (mid <= good || mid >= bad) break;
      if (await attempt(mid)) good = mid;
      else bad = mid;
    }
  }
  return [
    `### Open model, http, keep-alive, maxInFlight 1000, ${seconds} s per rate`,
    '',
    '| target req/s | completed req/s | late | dropped | errors | p50 ms | p99 ms | worker CPU-s | sustained |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...rows,
    '',
    `Highest sustained rate: ${int(good)} req/s (under 1% late, none dropped).`,
  ];
}

async function h2Section(nginx: NginxServer): Promise<string[]> {
  const url = `${nginx.httpsUrl!}test.html`;
  const runs = new Map<string, Figures[]>();
  console.error('h2 over TLS, 100 connections x 1 stream:');
  for (let round = 0; round < rounds; round++) {
    const f = await engine({
      targets: [{ url }],
      ...closedLoad(100),
      options: { protocol: 'h2', tls: { caFile: nginx.caFile ?? null } },
    });
    if (f.extra?.alpn !== 'h2') throw new Error(`expected ALPN h2, got ${f.extra?.alpn}`);
    push(runs, 'Trebuchet native engine (h2)', f);
    await pause(500);
    push(
      runs,
      'h2load -c100 -m1',
      await tool('h2load', ['-c100', '-m1', '-D', String(seconds), url], parseH2load),
    );
    await pause(500);
  }
  return [table('HTTP/2 over TLS (ALPN h2), 100 connections, 1 stream each', runs, 'h2load -c100 -m1')];
}

async function keepAliveSection(nginx: NginxServer): Promise<string[]> {
  const url = `${nginx.httpsUrl!}test.html`;
  const tls = { caFile: nginx.caFile ?? null };
  const runs = new Map<string, Figures[]>();
  console.error('https, 10 connections, with and without keep-alive:');
  for (let round = 0; round < rounds; round++) {
    for (const keepAlive of [true, false]) {
      push(
        runs,
        `Trebuchet native, keep-alive ${keepAlive ? 'on' : 'off'}`,
        await engine({ targets: [{ url }], ...closedLoad(10), options: { keepAlive, tls } }),
      );
      await pause(500);
      const abArgs = [
        '-q',
        '-c',
        '10',
        '-t',
        String(seconds),
        '-n',
        '10000000',
        ...(keepAlive ? ['-k'] : []),
        url,
      ];
      push(runs, `ab ${keepAlive ? '-k' : '(no -k)'}`, await tool('ab', abArgs, parseAb));
      await pause(500);
    }
  }
  return [table('https, 10 connections, keep-alive on and off', runs, 'ab -k')];
}

console.log('# Native engine benchmark');
console.log(
  `load average at start: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} (other load skews every figure)`,
);
console.log(`plan: ${rounds} round(s), ${seconds} s per run, sections ${[...sections].join(', ')}\n`);
const nginx = await startNginx({ workers: 1, https: true });
const report: string[] = [];
try {
  if (sections.has('closed')) report.push(...(await closedSection(nginx)), '');
  if (sections.has('open')) report.push(...(await openSection(nginx)), '');
  if (sections.has('h2')) report.push(...(await h2Section(nginx)), '');
  if (sections.has('keepalive')) report.push(...(await keepAliveSection(nginx)), '');
} finally {
  await nginx.stop();
}
console.log(report.join('\n'));
