/**
 * The `workers` section: the native engine with 1 and 2 worker threads (-t) against wrk with
 * as many threads, closed model, keep-alive, http, 100 connections, on the bench's nginx,
 * interleaved per round. On a 2-core machine that also runs the server, a second worker
 * mostly takes CPU from nginx: requests per CPU-second (efficiency) is the figure that
 * counts there, not the speed-up; every ratio is against wrk measured in the same rounds.
 */
import { runEngine, tools } from './generators.ts';
import { median, perCpuSecond, ratio, ratioTable, type Row } from './report.ts';
import { closedScenario, log, measure, row, type Bench } from './sections.ts';

const THREADS = [1, 2] as const;
const CONNECTIONS = 100;

export async function workersSection(b: Bench): Promise<string> {
  const shape = b.shape({ rounds: 2, seconds: 5 });
  const url = `${b.nginx.httpUrl}test.html`;
  const rows = THREADS.map((t) => ({
    threads: t,
    native: row(`native-t${t}`, `Trebuchet, native engine, -t ${t}`),
    wrk: row(`wrk-t${t}`, `wrk -t${t}`),
  }));
  log(`workers, closed, keep-alive, http, ${CONNECTIONS} connections, ${shape.rounds} x ${shape.seconds} s:`);
  for (let round = 0; round < shape.rounds; round++) {
    for (const r of rows) {
      await measure(r.native, () =>
        runEngine(
          closedScenario(url, CONNECTIONS, shape.seconds, { engine: 'native', workers: r.threads }),
          shape.seconds,
        ),
      );
      await measure(r.wrk, () =>
        tools.wrk({ url, connections: CONNECTIONS, seconds: shape.seconds }, r.threads),
      );
    }
  }
  const rps = (x: Row) => median(x.runs.map((f) => f.requestsPerSecond));
  const eff = (x: Row) => median(x.runs.map(perCpuSecond));
  const [one, two] = rows as [(typeof rows)[number], (typeof rows)[number]];
  return [
    `### Workers: -t 1 and -t 2 against wrk with the same threads (closed, http, ${CONNECTIONS} connections, ${shape.seconds} s, median of ${shape.rounds})`,
    '',
    ratioTable([one.native, one.wrk, two.native, two.wrk], [one.wrk.id, two.wrk.id]),
    '',
    `Trebuchet against wrk with as many threads, req/s · req per CPU-s: -t 1 ${ratio(rps(one.native), rps(one.wrk))} · ${ratio(eff(one.native), eff(one.wrk))}, ` +
      `-t 2 ${ratio(rps(two.native), rps(two.wrk))} · ${ratio(eff(two.native), eff(two.wrk))}. ` +
      `-t 2 over -t 1, req/s · req per CPU-s: Trebuchet ${ratio(rps(two.native), rps(one.native))} · ${ratio(eff(two.native), eff(one.native))}, ` +
      `wrk ${ratio(rps(two.wrk), rps(one.wrk))} · ${ratio(eff(two.wrk), eff(one.wrk))}.`,
    '',
  ].join('\n');
}
