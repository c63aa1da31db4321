import { describe, expect, it } from 'vitest';
import { VERDICT } from '../../shared/model/defaults.ts';
import type { RunResult } from '../../shared/model/result.ts';
import { scenarioSchema } from '../../shared/model/scenario.ts';
import {
  cellVerdict,
  failureParts,
  runVerdict,
  verdictLabel,
  verdictWord,
  worstVerdict,
} from '../../shared/verdict/verdict.ts';
import { amendResult, runResultFixture } from '../helpers/run-result.ts';

/** A closed run where every one of 36,000 requests got a 200 within the SLO. */
function cleanRun(): RunResult {
  return amendResult(runResultFixture(), {
    requests: { ok: 36_000, non2xx: 0 },
    statusCodes: { '200': 36_000 },
    successRatio: 1,
  });
}

/** Seed 000's Apache cell at 10000 req/s over https, as the issue saw it. */
function seed000Apache(): RunResult {
  const s = scenarioSchema.parse({
    targets: [{ url: 'https://127.0.0.1:4431/test.html' }],
    load: { model: 'open', rate: 10_000, durationSeconds: 5, maxInFlight: 10_000 },
  });
  return amendResult(runResultFixture(), {
    target: s.targets[0]!,
    load: s.load,
    requests: {
      total: 25_413,
      responses: 25_413,
      ok: 25_413,
      non2xx: 0,
      errors: 0,
      late: 25_396,
      dropped: 24_587,
      inFlightAtEnd: 0,
    },
    statusCodes: { '200': 25_413 },
    successRatio: 1,
    throughput: { requestsPerSecond: 4530, targetRate: 10_000 },
  });
}

describe('runVerdict', () => {
  it('says a result is clean when nothing is wrong', () => {
    const v = runVerdict(cleanRun());
    expect(v).toEqual({
      state: 'clean',
      clean: true,
      caveats: [],
      headline: 'Measured cleanly: the figures are the server’s.',
    });
    expect(verdictLabel(v)).toBe('clean');
  });

  it('is rate-not-reached when an open run dropped and sent late over 1% of the schedule (seed 000, Apache)', () => {
    const v = runVerdict(seed000Apache());
    expect(v.state).toBe('rate-not-reached');
    expect(v.clean).toBe(false);
    expect(v.caveats).toHaveLength(1);
    expect(v.caveats[0]).toEqual({
      code: 'rate-not-reached',
      severity: 'bad',
      label: 'rate not reached',
      message:
        'The rate was not reached at 10,000 req/s: of 50,000 scheduled requests, 24,587 (49.2%) were never sent and 25,396 (50.8%) went out late.',
      figures: ['throughput', 'latency'],
    });
    expect(v.headline).toBe(v.caveats[0]!.message);
  });

  it('keeps a schedule that slipped by at most 1% clean, with a note', () => {
    const r = seed000Apache();
    const onePercent = amendResult(r, {
      requests: { total: 50_000, responses: 50_000, ok: 50_000, late: 500, dropped: 0 },
      statusCodes: { '200': 50_000 },
    });
    const v = runVerdict(onePercent);
    expect(v.state).toBe('clean');
    expect(v.caveats.map((c) => [c.code, c.severity, c.label])).toEqual([
      ['rate-not-reached', 'warn', 'some late'],
    ]);
    expect(v.headline).toBe(
      'Measured cleanly. Note: The schedule held within 1%: of 50,000 scheduled requests, 500 (1.0%) went out late.',
    );
    const justOver = runVerdict(amendResult(onePercent, { requests: { late: 501 } }));
    expect(justOver.state).toBe('rate-not-reached');
  });

  it('counts requests in flight at the end as scheduled', () => {
    const r = amendResult(seed000Apache(), {
      requests: { total: 900, responses: 900, ok: 900, late: 0, dropped: 100, inFlightAtEnd: 0 },
    });
    expect(runVerdict(r).caveats[0]!.message).toContain(
      'of 1,000 scheduled requests, 100 (10.0%) were never sent',
    );
  });

  it('is all-non-2xx when every response was a 404, whatever the success figure says', () => {
    const r = amendResult(cleanRun(), {
      requests: { ok: 0, non2xx: 36_000 },
      statusCodes: { '404': 36_000 },
      successRatio: 0,
    });
    const v = runVerdict(r);
    expect(v.state).toBe('all-non-2xx');
    expect(v.caveats).toEqual([
      {
        code: 'all-non-2xx',
        severity: 'bad',
        label: 'all 404',
        message: 'Every response was 404 Not Found: check the path.',
      },
    ]);
  });

  it('says a server that redirects every request is not measuring the page', () => {
    const r = amendResult(cleanRun(), { requests: { non2xx: 36_000 }, statusCodes: { '301': 36_000 } });
    const v = runVerdict(r);
    expect(v.state).toBe('all-non-2xx');
    expect(v.headline).toBe(
      'Every response was 301 Moved Permanently: the server redirects: point the URL at the final location.',
    );
  });

  it('names every status when no response was a 2xx', () => {
    const r = amendResult(cleanRun(), {
      requests: { ok: 0, non2xx: 36_000 },
      statusCodes: { '500': 6000, '503': 30_000 },
      successRatio: 0,
    });
    expect(runVerdict(r).caveats).toEqual([
      {
        code: 'all-non-2xx',
        severity: 'bad',
        label: 'all non-2xx',
        message:
          'No response was a 2xx (503 Service Unavailable 30,000, 500 Internal Server Error 6,000): the server failed every request: check its logs.',
      },
    ]);
  });

  it('is client-bound when the generator ran flat out: the client, not the server, was the limit', () => {
    const saturated = amendResult(cleanRun(), {
      generator: { saturated: true, cpuPercentMean: 97.4, cpuPercentMax: 100 },
    });
    const v = runVerdict(saturated);
    expect(v.state).toBe('client-bound');
    expect(v.headline).toBe(
      "The client, not the server, was the limit: the load generator used 97% of a CPU core on average (max 100%), so the throughput is understated and the latency includes the client's own delay. Give it more workers (-t, up to the machine's 2 cores) or run it from another machine.",
    );
    // Over the threshold on average counts even when the engine did not flag saturation.
    const busy = amendResult(cleanRun(), {
      generator: { saturated: false, cpuPercentMean: VERDICT.clientBoundCpuPercent + 1 },
    });
    expect(runVerdict(busy).state).toBe('client-bound');
    const atLimit = amendResult(cleanRun(), {
      generator: { saturated: false, cpuPercentMean: VERDICT.clientBoundCpuPercent },
    });
    expect(runVerdict(atLimit).state).toBe('clean');
  });

  it("judges each engine worker's CPU: two at 60% are not a saturated client, one at 95% is", () => {
    const worker = (cpuPercentMean: number, saturated = false) => ({
      cpuPercentMean,
      cpuPercentMax: cpuPercentMean + 3,
      saturated,
    });
    // The generator's figures are the workers' sum: 120% of a core, no core flat out.
    const spread = amendResult(cleanRun(), {
      generator: {
        saturated: false,
        cpuPercentMean: 120,
        cpuPercentMax: 126,
        workers: [worker(60), worker(60)],
      },
    });
    expect(runVerdict(spread).state).toBe('clean');
    const oneFlatOut = amendResult(cleanRun(), {
      generator: {
        saturated: true,
        cpuPercentMean: 135,
        cpuPercentMax: 141,
        workers: [worker(95, true), worker(40)],
      },
    });
    const v = runVerdict(oneFlatOut);
    expect(v.state).toBe('client-bound');
    expect(v.caveats[0]!.figures).toEqual(['throughput', 'latency']);
    // As many workers as cores: the fix is another machine.
    expect(v.headline).toBe(
      "The client, not the server, was the limit: the busiest of its 2 engine workers used 95% of a CPU core on average (max 98%), so the throughput is understated and the latency includes the client's own delay. Run it from another machine, or more machines.",
    );
  });

  it('puts the client-bound cause before the rate it could not reach', () => {
    const r = amendResult(seed000Apache(), { generator: { saturated: true, cpuPercentMean: 99 } });
    const v = runVerdict(r);
    expect(v.state).toBe('client-bound');
    expect(v.caveats.map((c) => c.code)).toEqual(['client-bound', 'rate-not-reached']);
  });

  it('counts SLO failures as failures (seed 003: 40,344 requests over 300 ms)', () => {
    const r = amendResult(cleanRun(), {
      options: { sloMs: 300 },
      requests: { total: 41_948, responses: 41_948, ok: 1604, sloExceeded: 40_344 },
      statusCodes: { '200': 41_948 },
      successRatio: 1604 / 41_948,
      errors: [{ kind: 'slo', count: 40_344, message: 'response slower than 300 ms' }],
    });
    const v = runVerdict(r);
    expect(v.state).toBe('failures');
    expect(v.caveats).toEqual([
      {
        code: 'slo-failures',
        severity: 'bad',
        label: 'SLO 96.2%',
        message: '40,344 of 41,948 requests (96.2%) were slower than the 300 ms SLO and count as failures.',
        figures: ['success'],
      },
    ]);
    expect(failureParts(r)).toEqual({ failed: 40_344, transport: 0, slo: 40_344, status: 0 });
  });

  it('lists failures by kind, each bad over 1% and a note under it', () => {
    const r = amendResult(cleanRun(), {
      requests: { total: 10_000, responses: 9_700, ok: 9_610, non2xx: 90, errors: 300, sloExceeded: 0 },
      statusCodes: { '200': 9_610, '503': 80, '404': 10 },
      errors: [
        { kind: 'reset', count: 250, message: 'read ECONNRESET' },
        { kind: 'timeout', count: 50, message: 'no complete response within 10000 ms' },
      ],
    });
    const v = runVerdict(r);
    expect(v.state).toBe('failures');
    expect(v.caveats.map((c) => [c.code, c.severity, c.label, c.message])).toEqual([
      [
        'transport-errors',
        'bad',
        'errors 3.0%',
        '300 of 10,000 requests (3.0%) got no response: connection reset 250, timed out 50.',
      ],
      [
        'error-statuses',
        'warn',
        'non-2xx 0.9%',
        '90 of 10,000 requests (0.9%) had an error status: 503 Service Unavailable 80, 404 Not Found 10.',
      ],
    ]);
    expect(failureParts(r)).toEqual({ failed: 390, transport: 300, slo: 0, status: 90 });
  });

  it('keeps a handful of errors a note, with a share that never reads 0.0%', () => {
    const r = amendResult(cleanRun(), {
      requests: { ok: 35_990, non2xx: 10 },
      statusCodes: { '200': 35_990, '503': 10 },
    });
    const v = runVerdict(r);
    expect(v.state).toBe('clean');
    expect(v.clean).toBe(true);
    expect(v.caveats.map((c) => [c.severity, c.label])).toEqual([['warn', 'non-2xx 0.03%']]);
  });

  it('says a run with no response at all measured nothing, and why', () => {
    const r = amendResult(cleanRun(), {
      requests: { total: 1000, responses: 0, ok: 0, non2xx: 0, errors: 1000 },
      statusCodes: {},
      latency: null,
      successRatio: 0,
      errors: [{ kind: 'refused', count: 1000, message: 'connect ECONNREFUSED 127.0.0.1:8080' }],
    });
    const v = runVerdict(r);
    expect(v.state).toBe('not-measured');
    expect(v.caveats.map((c) => c.message)).toEqual([
      'No response arrived: all 1,000 requests failed (connection refused 1,000).',
    ]);
  });

  it('says a failed run failed, with its error', () => {
    const r = amendResult(cleanRun(), {
      status: 'failed',
      error: { kind: 'tls', message: 'certificate is self-signed (DEPTH_ZERO_SELF_SIGNED_CERT)' },
      requests: { total: 0, responses: 0, ok: 0 },
      statusCodes: {},
    });
    const v = runVerdict(r);
    expect(v.state).toBe('not-measured');
    expect(v.headline).toBe('The run failed: certificate is self-signed (DEPTH_ZERO_SELF_SIGNED_CERT).');
  });

  it('says a stopped run is partial', () => {
    const v = runVerdict(amendResult(cleanRun(), { status: 'cancelled', durationSeconds: 1.24 }));
    expect(v.state).toBe('partial');
    expect(v.clean).toBe(false);
    expect(v.headline).toBe('Stopped before its end: the figures cover the 1.2 s measured until then.');
    // A worse caveat still wins over partial.
    const both = runVerdict(amendResult(seed000Apache(), { status: 'cancelled' }));
    expect(both.state).toBe('rate-not-reached');
    expect(both.caveats.map((c) => c.code)).toEqual(['rate-not-reached', 'partial']);
  });
});

describe('worstVerdict', () => {
  it("is the worst of the runs' verdicts: one target's 404s are not hidden by a clean one", () => {
    const missing = amendResult(cleanRun(), {
      requests: { ok: 0, non2xx: 36_000 },
      statusCodes: { '404': 36_000 },
      successRatio: 0,
    });
    expect(worstVerdict([cleanRun(), cleanRun()]).state).toBe('clean');
    const v = worstVerdict([cleanRun(), missing]);
    expect(v.state).toBe('all-non-2xx');
    expect(verdictWord(v)).toBe('all non-2xx');
    expect(v.clean).toBe(false);
  });

  it('is not measured when nothing ran', () => {
    expect(worstVerdict([]).state).toBe('not-measured');
  });
});

describe('cellVerdict', () => {
  it('sums the repetitions: a cell is as clean as its runs together', () => {
    expect(cellVerdict([cleanRun(), cleanRun()]).state).toBe('clean');
    const v = cellVerdict([seed000Apache(), seed000Apache()]);
    expect(v.state).toBe('rate-not-reached');
    expect(v.headline).toBe(
      'The rate was not reached at 10,000 req/s: of 100,000 scheduled requests over 2 runs, 49,174 (49.2%) were never sent and 50,792 (50.8%) went out late.',
    );
  });

  it('says how many repetitions were client-bound', () => {
    const busy = amendResult(cleanRun(), {
      generator: { saturated: true, cpuPercentMean: 95, cpuPercentMax: 99 },
    });
    expect(cellVerdict([cleanRun(), busy, cleanRun()]).headline).toBe(
      "The client, not the server, was the limit in 1 of 3 runs: the load generator used 95% of a CPU core on average (max 99%), so the throughput is understated and the latency includes the client's own delay. Give it more workers (-t, up to the machine's 2 cores) or run it from another machine.",
    );
  });

  it('leaves failed and stopped runs out, and says so', () => {
    const failed = amendResult(cleanRun(), {
      status: 'failed',
      error: { kind: 'refused', message: 'cannot connect to 127.0.0.1:8080: connection refused' },
    });
    const stopped = amendResult(cleanRun(), { status: 'cancelled' });
    const v = cellVerdict([cleanRun(), failed, stopped]);
    expect(v.state).toBe('partial');
    expect(v.caveats.map((c) => [c.code, c.message])).toEqual([
      ['partial', '1 of 3 runs was stopped before the end and is left out of the figures.'],
      [
        'runs-left-out',
        '1 of 3 runs failed (cannot connect to 127.0.0.1:8080: connection refused) and is left out of the figures.',
      ],
    ]);
    expect(cellVerdict([failed, failed]).headline).toBe(
      'All 2 runs failed: cannot connect to 127.0.0.1:8080: connection refused.',
    );
    expect(cellVerdict([stopped]).state).toBe('not-measured');
  });

  it('is not measured before any run', () => {
    expect(cellVerdict([])).toMatchObject({ state: 'not-measured', headline: 'Not measured yet.' });
  });

  it('labels the caveats for a matrix cell', () => {
    const r = amendResult(seed000Apache(), {
      requests: { total: 25_413, responses: 25_000, errors: 413, ok: 25_000 },
      errors: [{ kind: 'timeout', count: 413, message: 'timed out' }],
    });
    expect(verdictLabel(runVerdict(r))).toBe('rate not reached; errors 1.6%');
  });
});
