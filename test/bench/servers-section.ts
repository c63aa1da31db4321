/**
 * The `servers` section (opt-in: `--only servers`): seed 000's experiment on this machine. The
 * native engine's open model at 1000 req/s for 5 s (vegeta attack -rate=1000/s -duration=5s)
 * against each Debian server of the comparison suite, over http and https, keep-alive on, a
 * 5-byte test.html; one table row per server and protocol, as vegeta report's lines. It
 * compares servers, not generators: there is no reference tool (vegeta is not packaged).
 */
import type { ScenarioInput } from '../../shared/model/scenario.ts';
import { makeTestCerts } from '../helpers/certs.ts';
import { WEB_SERVERS, type WebServer } from '../helpers/web-servers.ts';
import { runEngine, type EngineFigures } from './generators.ts';
import { int, median } from './report.ts';
import type { Shape } from './sections.ts';
import { pinServer } from './pinning.ts';

const RATE = 1000;
const PROTOCOLS = ['http', 'https'] as const;
const log = (line: string) => console.error(line);
const pause = (ms = 500) => new Promise((r) => setTimeout(r, ms));

function openScenario(url: string, seconds: number, caFile: string): ScenarioInput {
  return {
    name: 'bench servers',
    targets: [{ url }],
    load: { model: 'open', rate: RATE, durationSeconds: seconds, maxInFlight: 10_000 },
    options: { engine: 'native', keepAlive: true, tls: { caFile } },
  };
}

interface Cell {
  server: string;
  software: string | null;
  protocol: (typeof PROTOCOLS)[number];
  runs: EngineFigures[];
}

const ms = (values: (number | null)[]): string => {
  const known = values.filter((v): v is number => v !== null);
  return known.length === 0 ? 'n/a' : median(known).toFixed(3);
};

function table(cells: readonly Cell[]): string {
  const lines = [
    '| server | Server header | protocol | requests | sent req/s | mean ms | p50 ms | p95 ms | p99 ms | max ms | success | late | dropped |',
    '|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const c of cells) {
    if (c.runs.length === 0) {
      lines.push(`| ${c.server} | | ${c.protocol} | failed | | | | | | | | | |`);
      continue;
    }
    const o = c.runs.map((r) => r.outcome);
    const med = (pick: (x: (typeof o)[number]) => number) => median(o.map(pick));
    const success = med((x) => (x.requests > 0 ? (x.requests - x.errors) / x.requests : 0));
    lines.push(
      `| ${c.server} | ${c.software ?? ''} | ${c.protocol} | ${int(med((x) => x.requests))} | ` +
        `${med((x) => x.sent / x.seconds).toFixed(2)} | ${ms(o.map((x) => x.mean))} | ${ms(o.map((x) => x.p50))} | ` +
        `${ms(o.map((x) => x.p95))} | ${ms(o.map((x) => x.p99))} | ${ms(o.map((x) => x.max))} | ` +
        `${(success * 100).toFixed(2)}% | ${int(med((x) => x.late ?? 0))} | ${int(med((x) => x.dropped ?? 0))} |`,
    );
  }
  return lines.join('\n');
}

export async function serversSection(shape: Shape): Promise<string> {
  const certs = makeTestCerts();
  const kinds = Object.values(WEB_SERVERS);
  const started = await Promise.allSettled(kinds.map((k) => k.start({ certs })));
  const servers: { name: string; server: WebServer }[] = [];
  started.forEach((s, i) => {
    const name = kinds[i]!.name;
    if (s.status === 'fulfilled') {
      servers.push({ name, server: s.value });
      pinServer(s.value.pid);
    } else log(`  ${name}: could not start, left out: ${String(s.reason)}`);
  });
  const cells: Cell[] = PROTOCOLS.flatMap((protocol) =>
    servers.map(({ name }) => ({ server: name, software: null, protocol, runs: [] })),
  );
  try {
    log(
      `servers: open model, ${RATE} req/s, ${shape.rounds} x ${shape.seconds} s, ${servers.map((s) => s.name).join(', ')}, http and https:`,
    );
    // Interleaved: each round runs every server once per protocol, so a slow patch hits all alike.
    for (let round = 0; round < shape.rounds; round++) {
      for (const protocol of PROTOCOLS) {
        for (const { name, server } of servers) {
          const cell = cells.find((c) => c.server === name && c.protocol === protocol)!;
          const url = `${protocol === 'https' ? server.httpsUrl : server.httpUrl}test.html`;
          try {
            const f = await runEngine(openScenario(url, shape.seconds, certs.ca.certFile), shape.seconds);
            cell.runs.push(f);
            cell.software = f.outcome.server;
            log(
              `  ${name} ${protocol}: ${f.requests} requests, p50 ${f.outcome.p50} ms, p99 ${f.outcome.p99} ms, ` +
                `${f.errors} errors, ${f.outcome.late ?? 0} late`,
            );
          } catch (e) {
            log(`  ${name} ${protocol}: FAILED: ${e instanceof Error ? e.message : String(e)}`);
          }
          await pause();
        }
      }
    }
  } finally {
    await Promise.all(servers.map((s) => s.server.stop()));
    certs.remove();
  }
  return [
    `### Servers: vegeta-style ${RATE} req/s for ${shape.seconds} s, http and https (seed 000; median of ${shape.rounds})`,
    '',
    table(cells),
    '',
  ].join('\n');
}
