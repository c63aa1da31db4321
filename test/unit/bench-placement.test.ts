import { describe, expect, it } from 'vitest';
import { PINNED, UNPINNED, pinServer, placed, place, placement } from '../../test/bench/pinning.ts';
import { wrk2Percentile, wrk2Requests } from '../../test/bench/wrk2.ts';
import { spawn, spawnSync } from 'node:child_process';

// wrk2 --latency's distribution, as it prints it.
const WRK2_OUT = `Running 5s test @ http://127.0.0.1:8080/test.html
  1 threads and 100 connections
  Latency Distribution (HdrHistogram - Recorded Latency)
 50.000%  588.29us
 75.000%    1.04ms
 90.000%    1.34ms
 99.000%    3.51ms
 99.900%    1.47s
  49993 requests in 5.00s, 12.34MB read
Requests/sec:   9998.52
`;

describe('the bench: placement and the CO-correct reference', () => {
  it("reads wrk2's percentiles in ms whatever their unit", () => {
    expect(wrk2Percentile(WRK2_OUT, '50.000')).toBeCloseTo(0.58829, 6);
    expect(wrk2Percentile(WRK2_OUT, '99.000')).toBeCloseTo(3.51, 6);
    expect(wrk2Percentile(WRK2_OUT, '99.900')).toBe(1470);
    expect(wrk2Percentile(WRK2_OUT, '99.990')).toBeNull();
    // Its count of responses: the CPU per request is compared, a short run sending under the rate.
    expect(wrk2Requests(WRK2_OUT)).toBe(49993);
    expect(wrk2Requests('Requests/sec:   9998.52\n')).toBeNull();
  });

  it('starts generators under taskset on their CPU when pinned, as they are when not, and moves the server', () => {
    const sleeper = spawn('sleep', ['5'], { stdio: 'ignore' });
    const pid = sleeper.pid!;
    try {
      place(PINNED, pid);
      expect(placement().name).toBe('pinned');
      expect(placed('wrk', ['-t1', 'url'])).toEqual(['taskset', ['-c', '1', 'wrk', '-t1', 'url']]);
      expect(spawnSync('taskset', ['-p', '-c', String(pid)], { encoding: 'utf8' }).stdout).toMatch(/: 0\n$/);
      place(UNPINNED, pid);
      expect(placed('wrk', ['-t1', 'url'])).toEqual(['wrk', ['-t1', 'url']]);
      expect(spawnSync('taskset', ['-p', '-c', String(pid)], { encoding: 'utf8' }).stdout).toMatch(
        /: (0-1|0,1)\n$/,
      );
      pinServer(pid);
    } finally {
      sleeper.kill();
    }
  });
});
