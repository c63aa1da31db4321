import { describe, expect, it } from 'vitest';
import { parseAb, parseAutocannonJson, parseH2load, parseWrk } from '../helpers/reference-tools.ts';
import { median, ratioTable, type Row } from '../bench/report.ts';

// Outputs captured from the tools on this machine (trimmed to the lines the parsers read).
const WRK = `Running 2s test @ http://127.0.0.1:41967/test.html
  1 threads and 100 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     3.06ms    4.57ms  42.69ms   93.81%
    Req/Sec    46.08k    22.29k   84.40k    65.00%
  92306 requests in 2.03s, 21.04MB read
  Socket errors: connect 0, read 3, write 0, timeout 2
  Non-2xx or 3xx responses: 10
Requests/sec:  45567.68
Transfer/sec:     10.37MB
`;

const AB = `Complete requests:      2000
Failed requests:        3
Non-2xx responses:      200
Time taken for tests:   0.027 seconds
Requests per second:    74937.24 [#/sec] (mean)
`;

const H2LOAD = `finished in 21.91ms, 91278.35 req/s, 20.80MB/s
requests: 2000 total, 2000 started, 2000 done, 1990 succeeded, 10 failed, 0 errored, 0 timeout
status codes: 1990 2xx, 0 3xx, 10 4xx, 0 5xx
`;

describe('reference tool parsers', () => {
  it('reads wrk', () => {
    expect(parseWrk(WRK)).toEqual({
      requests: 92306,
      seconds: 2.03,
      requestsPerSecond: 45567.68,
      errors: 15,
    });
  });

  it('reads autocannon --json (after any leading text)', () => {
    const json = JSON.stringify({
      duration: 2.04,
      requests: { total: 41444 },
      errors: 1,
      timeouts: 0,
      non2xx: 2,
    });
    expect(parseAutocannonJson(`Running 2s test\n${json}\n`)).toEqual({
      requests: 41444,
      seconds: 2.04,
      requestsPerSecond: 41444 / 2.04,
      errors: 3,
    });
  });

  it('reads ab and h2load', () => {
    expect(parseAb(AB)).toEqual({ requests: 2000, seconds: 0.027, requestsPerSecond: 74937.24, errors: 203 });
    expect(parseH2load(H2LOAD)).toEqual({
      requests: 2000,
      seconds: 0.02191,
      requestsPerSecond: 91278.35,
      errors: 10,
    });
  });

  it('says what it could not read', () => {
    expect(() => parseWrk('unable to connect to 127.0.0.1:1 Connection refused')).toThrow(
      /cannot read wrk requests/,
    );
  });
});

describe('benchmark table', () => {
  const run = (requestsPerSecond: number, requests: number, cpuSeconds: number) => ({
    requests,
    seconds: 8,
    requestsPerSecond,
    errors: 0,
    cpuSeconds,
  });

  it('takes medians and divides by wrk and autocannon CLI', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
    const rows: Row[] = [
      {
        id: 'engine',
        label: 'engine',
        runs: [{ ...run(20000, 160000, 8), workerCpuSeconds: 4 }],
      },
      {
        id: 'ac',
        label: 'autocannon CLI',
        runs: [run(10000, 80000, 4), run(30000, 240000, 8), run(20000, 160000, 8)],
      },
      { id: 'wrk', label: 'wrk', runs: [run(40000, 320000, 2)] },
    ];
    const lines = ratioTable(rows, ['wrk', 'ac']).split('\n');
    expect(lines[2]).toBe(
      '| engine | 20,000 (20,000–20,000) | 8.00 | 20,000 (20,000–20,000) (worker thread alone: 40,000) | 0.50 · 0.13 | 1.00 · 1.00 |',
    );
    expect(lines[3]).toBe(
      '| autocannon CLI | 20,000 (10,000–30,000) | 8.00 | 20,000 (20,000–30,000) | 0.50 · 0.13 | 1.00 · 1.00 |',
    );
    expect(lines[4]).toBe(
      '| wrk | 40,000 (40,000–40,000) | 2.00 | 160,000 (160,000–160,000) | 1.00 · 1.00 | 2.00 · 8.00 |',
    );
  });
});
