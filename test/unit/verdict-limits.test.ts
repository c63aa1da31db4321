/**
 * Issue 32's words, judged from readings given to the verdict (never this machine's): what
 * limited a run's figures, each with its numbers and what to do, and when a word does not
 * apply. The readings the machine monitor takes are tested apart (machine-readings.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { VERDICT } from '../../shared/model/defaults.ts';
import { runResultSchema, type RunResult } from '../../shared/model/result.ts';
import {
  cellVerdict,
  runVerdict,
  verdictRecord,
  verdictSummary,
  verdictWord,
  withVerdictRecord,
} from '../../shared/verdict/verdict.ts';
import {
  cleanClosedRun,
  closedModelRun,
  LIMITED_RUNS,
  machineFacts,
  serverWith,
} from '../helpers/machine-results.ts';

const messageOf = (r: RunResult, code: string): string =>
  runVerdict(r).caveats.find((c) => c.code === code)?.message ?? '';

describe('the words that name what limited a run', () => {
  it.each(Object.entries(LIMITED_RUNS))('%s: the state, its word, one bad reason', (state, make) => {
    const v = runVerdict(make());
    expect(v.state).toBe(state);
    expect(v.clean).toBe(false);
    expect(v.caveats.filter((c) => c.severity === 'bad').map((c) => c.code)).toEqual([state]);
    expect(verdictWord(v)).toBe(
      state.replace('server-worker-bound', 'server worker-bound').replace('-busy', ' busy'),
    );
  });

  it('machine busy: names the other processes and their shares, and says what to do', () => {
    const m = messageOf(LIMITED_RUNS['machine-busy'](), 'machine-busy');
    expect(m).toBe(
      'The machine was busy: other processes took 95% of its 2 cores (yes (pid 4242) 96.0%, yes (pid 4243) 94.0%), more than 10%: the figures are this machine\u2019s, not the server\u2019s. Close them or wait until they end, then run again, or run the generator on another machine.'.replace(
        /\u2019/g,
        "'",
      ),
    );
  });

  it('machine busy when no idle CPU was left while neither side was flat, not when the server was', () => {
    const full = (serverBusiest: number): RunResult => ({
      ...cleanClosedRun(),
      serverResources: serverWith(serverBusiest),
      machine: machineFacts({ cpuBusyPercent: 98, cpuIdlePercent: 2, otherCpuPercent: 12 }),
    });
    const v = runVerdict(full(70));
    expect(v.state).toBe('machine-busy');
    expect(v.headline).toMatch(/^The machine was busy: no idle CPU was left \(idle 2% of its 2 cores\)/);
    expect(v.headline).toContain('taskset');
    // The server's worker flat on a full machine: the server was the limit, the figures are its.
    expect(runVerdict(full(97)).state).toBe('clean');
  });

  it('a quiet machine is not busy: others under the stated share, idle CPU left', () => {
    const edge = (others: number): RunResult => ({
      ...cleanClosedRun(),
      serverResources: serverWith(45),
      machine: machineFacts({ otherCpuPercent: others }),
    });
    // 10 % of 2 cores is 20 % of one core: just under is quiet, just over is busy.
    expect(runVerdict(edge(19.9)).state).toBe('clean');
    expect(runVerdict(edge(20.1)).state).toBe('machine-busy');
    expect(2 * VERDICT.machineOtherPercent).toBe(20);
  });

  it('judges the machine only over readings that cover a core-second (its counters tick every 10 ms)', () => {
    const short = LIMITED_RUNS['machine-busy']();
    short.machine = { ...short.machine!, coveredSeconds: 0.4 };
    expect(runVerdict(short).caveats.map((c) => c.code)).not.toContain('machine-busy');
    short.machine = { ...short.machine, coveredSeconds: 0.5 };
    expect(runVerdict(short).state).toBe('machine-busy');
  });

  it('server worker-bound: the busiest worker, how many were busy, the idle cores, what to configure', () => {
    expect(messageOf(LIMITED_RUNS['server-worker-bound'](), 'server-worker-bound')).toBe(
      "One server process was the limit: busiest worker 99% (nginx, pid 701), 1 of 1 busy, while the machine had 0.7 of its 2 cores idle: a limit of the server's configuration, not of its software. Give it more workers or threads (nginx worker_processes, Apache's MPM, a cluster of Node processes), then run again.",
    );
    // No room: less than half a core idle.
    const full = LIMITED_RUNS['server-worker-bound']();
    full.machine = { ...full.machine!, cpuIdlePercent: 24 };
    expect(runVerdict(full).state).toBe('clean');
    // A server inside the generator's process (a test's own server) is not judged.
    const inside = LIMITED_RUNS['server-worker-bound']();
    inside.machine = { ...inside.machine!, serverInGenerator: true };
    expect(runVerdict(inside).caveats.map((c) => c.code)).not.toContain('server-worker-bound');
  });

  it('setup-bound: the p99 with and without the handshakes, and what to do; not under 10 ms, nor over few responses', () => {
    expect(messageOf(LIMITED_RUNS['setup-bound'](), 'setup-bound')).toBe(
      'Connection setup was most of the p99: p99 1.52 s, 42.0 ms without it: the slowest requests were those that opened a connection (connect + TLS up to 1.57 s), so the latency measures handshakes, not the page. Warm up (--warmup) so the connections are open before measuring, or open fewer connections.',
    );
    const tiny = LIMITED_RUNS['setup-bound']();
    const p = (p99: number) => ({ ...tiny.phases!.total!, percentiles: { '99': p99 } });
    // A loaded machine's loopback connects: 9 ms of a 9.5 ms p99 is noise, not handshakes.
    tiny.phases = { setup: p(9), processing: p(0.5), total: p(9.5) };
    expect(runVerdict(tiny).caveats.map((c) => c.code)).not.toContain('setup-bound');
    tiny.phases = { setup: p(12), processing: p(0.5), total: p(12.5) };
    expect(runVerdict(tiny).state).toBe('setup-bound');
    // Twenty requests on two connections: their p99 is the slowest, a first one on its connection.
    const few = { ...tiny, requests: { ...tiny.requests, responses: 20, total: 20, ok: 20 } };
    expect(runVerdict(few).caveats.map((c) => c.code)).not.toContain('setup-bound');
  });

  it('link-bound: the device, what it carried of its rate; not at 89 %', () => {
    expect(messageOf(LIMITED_RUNS['link-bound'](), 'link-bound')).toBe(
      "The link was the limit: veth-trb0 received 19.6 Mb/s of the 20.0 Mb/s its traffic shaper allows (98%): the figures are the network's, not the server's. Use a faster link, smaller responses (compression), or run the generator nearer the server.",
    );
    const under = LIMITED_RUNS['link-bound']();
    under.machine = { ...under.machine!, link: { ...under.machine!.link!, inBitsPerSecond: 17.8e6 } };
    expect(runVerdict(under).state).toBe('clean');
  });

  it('client-bound by the whole process or its busiest thread, saying so', () => {
    const m = messageOf(LIMITED_RUNS['client-bound'](), 'client-bound');
    expect(m).toContain('Its whole process used 196% of a core, its busiest thread (engine) 92%.');
  });

  it('the closed model with nothing flat on a machine with room: clean, with req/s = connections / latency', () => {
    const v = runVerdict(closedModelRun());
    expect(v.state).toBe('clean');
    expect(verdictSummary(v)).toBe('clean · closed model');
    expect(v.caveats[0]!.message).toBe(
      'Closed model: nothing was flat and the machine had room (1.2 of its 2 cores idle), so req/s here is connections / latency: 10 in flight / 0.830 ms = 12,048 req/s (measured 12,000). More connections would send more; to find what the server holds, raise the connections or run a capacity search.',
    );
    // Not when the server ran flat on a full machine (the server was the limit), nor without the server's readings.
    const serverFull = {
      ...closedModelRun(),
      serverResources: serverWith(95),
      machine: machineFacts({ cpuBusyPercent: 97, cpuIdlePercent: 3 }),
    };
    expect(runVerdict(serverFull).caveats).toEqual([]);
    const { serverResources: _, ...unread } = closedModelRun();
    expect(runVerdict(unread).caveats).toEqual([]);
  });

  it('a result saved before the readings existed is judged by the rest alone', () => {
    expect(runVerdict(cleanClosedRun())).toEqual({
      state: 'clean',
      clean: true,
      caveats: [],
      headline: 'Measured cleanly: the figures are the server’s.',
    });
  });

  it('a cell says in how many of its runs the machine was busy', () => {
    const v = cellVerdict([LIMITED_RUNS['machine-busy'](), cleanClosedRun(), LIMITED_RUNS['machine-busy']()]);
    expect(v.state).toBe('machine-busy');
    expect(v.headline).toMatch(/^The machine was busy in 2 of 3 runs: /);
  });

  it('writes the verdict into a result as its JSON carries it: { word, reasons[] }, which the schema reads back', () => {
    const r = withVerdictRecord(LIMITED_RUNS['machine-busy']());
    expect(r.verdict).toEqual(verdictRecord(runVerdict(r)));
    expect(r.verdict?.word).toBe('machine busy');
    expect(r.verdict?.reasons.map((x) => [x.code, x.severity, x.label])).toEqual([
      ['machine-busy', 'bad', 'machine busy'],
    ]);
    expect(runResultSchema.parse(JSON.parse(JSON.stringify(r)))).toEqual(r);
  });
});
