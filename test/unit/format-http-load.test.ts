import { describe, expect, it } from 'vitest';
import { formatHttpLoadReport } from '../../shared/format/http-load.ts';
import type { RunResult } from '../../shared/model/result.ts';
import { abStyleResult, amendResult, seed000Result } from '../helpers/run-result.ts';

describe('http_load report layout', () => {
  it("prints seed 004's lines with C's %g, failed fetches first, connect and first-response from the phases", () => {
    expect(formatHttpLoadReport(abStyleResult()).split('\n')).toEqual([
      'http://127.0.0.1:8080/: connect ECONNREFUSED 127.0.0.1:8080 (4 times)',
      'http://127.0.0.1:8080/: read ECONNRESET (6 times)',
      // 2550000 body bytes: %g switches to exponent notation from 10^6 on.
      '30000 fetches, 30 max parallel, 2.55e+06 bytes, in 21.949 seconds',
      '85 mean bytes/connection',
      // 30000 / 21.949 = 1366.80487, 2550000 / 21.949 = 116178.41: six significant digits.
      '1366.8 fetches/sec, 116178 bytes/sec',
      'msecs/connect: 1.2 mean, 1004 max, 0.01 min',
      'msecs/first-response: 15.25 mean, 392.5 max, 0.2 min',
      '(keep-alive was on: a fetch on a reused connection counts 0 msecs/connect; http_load opens a connection per fetch)',
      'HTTP response codes:',
      '  code 200 -- 29978',
      '  code 404 -- 7',
      '  code 503 -- 5',
      '',
    ]);
  });

  it('says the times were not measured by an engine without timing phases, and counts timeouts', () => {
    const r = amendResult(seed000Result(), {
      generator: { engine: 'autocannon' },
      errors: [{ kind: 'timeout', count: 2, message: 'timed out after 10000 ms' }],
    });
    expect(formatHttpLoadReport(r).split('\n')).toEqual([
      // Open model: the most requests in flight at a tick (the fixture's samples: 0, then 1).
      '500 fetches, 1 max parallel, 2500 bytes, in 4.99034 seconds',
      '5 mean bytes/connection',
      '100.194 fetches/sec, 500.968 bytes/sec',
      'msecs/connect: not measured by this engine (autocannon)',
      'msecs/first-response: not measured by this engine (autocannon)',
      '2 timeouts',
      'HTTP response codes:',
      '  code 200 -- 500',
      '',
    ]);
  });

  it('prints only the first line and the empty code table when nothing finished, after the reason', () => {
    const r = amendResult(seed000Result(), {
      durationSeconds: 0,
      requests: { total: 0, responses: 0, ok: 0 },
      bytes: { inTotal: 0, inBody: 0, outBody: 0, outTotal: 0 },
      statusCodes: {},
      samples: [],
    });
    expect(formatHttpLoadReport(r)).toBe(
      '0 fetches, 0 max parallel, 0 bytes, in 0 seconds\nHTTP response codes:\n',
    );
    // A run that could not start says why first, as http_load does on stderr.
    const failed: RunResult = {
      ...r,
      status: 'failed',
      error: { kind: 'refused', message: 'connect ECONNREFUSED 127.0.0.1:8082' },
    };
    expect(formatHttpLoadReport(failed).split('\n')[0]).toBe(
      'http://127.0.0.1:8082/test.html: connect ECONNREFUSED 127.0.0.1:8082',
    );
  });
});
