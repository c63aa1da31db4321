import { describe, expect, it } from 'vitest';
import { formatVegetaReport } from '../../shared/format/vegeta.ts';
import { abStyleResult, seed000Result } from '../helpers/run-result.ts';

describe('vegeta report layout', () => {
  it("prints seed 000's nginx run row by row", () => {
    expect(formatVegetaReport(seed000Result()).split('\n')).toEqual([
      'Requests      [total, rate, throughput]         500, 100.20, 100.19',
      'Duration      [total, attack, wait]             4.990335713s, 4.99005168s, 284.033µs',
      'Latencies     [min, mean, 50, 90, 95, 99, max]  161µs, 238.008µs, 226.084µs, 279µs, 304.047µs, 574.479µs, 1.178932ms',
      'Bytes In      [total, mean]                     2500, 5.00',
      'Bytes Out     [total, mean]                     0, 0.00',
      'Success       [ratio]                           100.00%',
      'Status Codes  [code:count]                      200:500',
      'Error Set:',
      '',
    ]);
  });

  it('lists transport errors by first message, then statuses >= 400, with code 0 for no response', () => {
    const lines = formatVegetaReport(abStyleResult()).split('\n');
    // A closed run has no wait phase: total = attack = the measured time.
    expect(lines[1]).toBe('Duration      [total, attack, wait]             21.949s, 21.949s, 0s');
    expect(lines[5]).toBe('Success       [ratio]                           99.90%');
    expect(lines[6]).toBe('Status Codes  [code:count]                      0:10  200:29978  404:7  503:5');
    expect(lines.slice(7)).toEqual([
      'Error Set:',
      'connect ECONNREFUSED 127.0.0.1:8080',
      'read ECONNRESET',
      'response slower than 300 ms',
      '404 Not Found',
      '503 Service Unavailable',
      '',
    ]);
  });

  it('prints zero latencies when nothing answered', () => {
    const r = { ...seed000Result(), latency: null };
    expect(formatVegetaReport(r).split('\n')[2]).toBe(
      'Latencies     [min, mean, 50, 90, 95, 99, max]  0s, 0s, 0s, 0s, 0s, 0s, 0s',
    );
  });
});
