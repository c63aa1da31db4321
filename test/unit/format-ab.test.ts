import { describe, expect, it } from 'vitest';
import { formatAbReport } from '../../shared/format/ab.ts';
import { formatTextReport } from '../../shared/format/report.ts';
import {
  abFailedRequests,
  failedRequests,
  failureBreakdown,
  keepAliveRequests,
  timePerRequestAcrossMs,
  timePerRequestMs,
} from '../../shared/verdict/run-figures.ts';
import type { RunResult } from '../../shared/model/result.ts';
import { abStyleResult, amendResult, seed000Result } from '../helpers/run-result.ts';

describe('ab report layout', () => {
  it("prints seed 002's figures where ab puts them", () => {
    expect(formatAbReport(abStyleResult()).split('\n')).toEqual([
      'Server Software:        Apache/2.2.15',
      'Server Hostname:        127.0.0.1',
      'Server Port:            8080',
      '',
      'Document Path:          /',
      'Document Length:        85 bytes',
      '',
      'Concurrency Level:      30',
      'Time taken for tests:   21.949 seconds',
      'Complete requests:      30000',
      'Failed requests:        18',
      '   (Connect: 4, Receive: 6, Length: 0, Exceptions: 0, SLO: 8)',
      'Non-2xx responses:      12',
      'Keep-Alive requests:    29990',
      'Total transferred:      10530000 bytes',
      'HTML transferred:       2550000 bytes',
      'Requests per second:    1366.79 [#/sec] (mean)',
      'Time per request:       21.949 [ms] (mean)',
      'Time per request:       0.732 [ms] (mean, across all concurrent requests)',
      'Transfer rate:          468.50 [Kbytes/sec] received',
      '',
      'Connection Times (ms, µs resolution)',
      '                   min      mean   [+/-sd]    median       max',
      'Connect:         0.010     1.200    16.300     0.045  1004.000',
      'Processing:      0.990    20.920    32.300    15.200   419.000',
      'Waiting:         0.200    15.250    12.040    14.100   392.500',
      'Total:           1.001    22.120    36.100    15.300  1021.000',
      '',
      'Connect and transfer phases (ms, µs resolution)',
      '                   min      mean   [+/-sd]    median       max',
      'DNS:             0.000     0.002     0.010     0.000     0.200',
      'TCP:             0.010     1.198    16.290     0.045  1003.800',
      'Transfer:        0.001     0.010     0.002     0.009     0.500',
      '',
      'Percentage of the requests served within a certain time (ms, µs resolution)',
      '    50%     0.226',
      '    66%     0.233',
      '    75%     0.241',
      '    80%     0.247',
      '    90%     0.279',
      '    95%     0.304',
      '    98%     0.410',
      '    99%     0.574',
      '  99.9%     1.001',
      ' 99.99%     1.179',
      '   100%     1.179 (longest request)',
      '',
    ]);
  });

  it('counts Length failures and keep-alive responses as ab does', () => {
    const base = abStyleResult();
    const r = amendResult(base, { requests: { lengthMismatch: 15 }, options: { keepAlive: false } });
    const lines = formatAbReport(r).split('\n');
    expect(lines.slice(10, 14)).toEqual([
      'Failed requests:        33',
      '   (Connect: 4, Receive: 6, Length: 15, Exceptions: 0, SLO: 8)',
      'Non-2xx responses:      12',
      'Keep-Alive requests:    0',
    ]);
    // A different length fails a request for ab only: vegeta's success and the error rate ignore it.
    expect(abFailedRequests(r)).toBe(33);
    expect(failedRequests(r)).toBe(30);
    expect(keepAliveRequests(base)).toBe(29990);
  });

  it('derives the figures once for every view', () => {
    const r = abStyleResult();
    // Not a success: 10 transport errors, 8 slower than the SLO, 12 non-2xx.
    expect(failedRequests(r)).toBe(30);
    expect(failureBreakdown(r)).toEqual({ connect: 4, receive: 6, length: 0, exceptions: 0, slo: 8 });
    expect(timePerRequestMs(r)).toBeCloseTo(21.949, 3);
    expect(timePerRequestAcrossMs(r)).toBeCloseTo(0.732, 3);
    // The open model's concurrency varies: by Little's law the figure is the mean latency.
    expect(timePerRequestMs(seed000Result())).toBe(0.238008);
  });

  it('shows TLS facts, a body sent and the open model', () => {
    const r = amendResult(seed000Result(), {
      target: { url: 'https://localhost:8443/test.html?x=1', method: 'POST' },
      options: { tls: { verify: true, caFile: null, servername: 'localhost', minVersion: 'TLSv1.2' } },
      tls: {
        protocol: 'TLSv1.3',
        cipher: 'TLS_AES_256_GCM_SHA384',
        alpn: 'http/1.1',
        verified: true,
        authorizationError: null,
        ephemeralKey: { name: 'X25519', bits: 253 },
      },
      server: null,
      bytes: { outBody: 10240, outTotal: 55240 },
    });
    const lines = formatAbReport(r).split('\n');
    expect(lines.slice(0, 9)).toEqual([
      'Server Software:',
      'Server Hostname:        localhost',
      'Server Port:            8443',
      'SSL/TLS Protocol:       TLSv1.3,TLS_AES_256_GCM_SHA384',
      'Server Temp Key:        X25519 253 bits',
      'TLS Server Name:        localhost',
      '',
      'Document Path:          /test.html?x=1',
      'Document Length:        unknown (no successful response)',
    ]);
    expect(lines).toContain('Concurrency Level:      open model, 100 req/s (at most 1000 in flight)');
    // ab counts headers in what it sent: 55240 B / 1024 / 4.990 s = 10.81 kb/s.
    expect(lines).toContain('Total body sent:        55240');
    expect(lines).toContain('                        10.81 kb/s sent');
    expect(lines).toContain('                        34.20 kb/s total');
  });

  it("names the key exchange as ab's Server Temp Key does", () => {
    const tempKey = (ephemeralKey: NonNullable<RunResult['tls']>['ephemeralKey']) => {
      const tls = { protocol: 'TLSv1.3', cipher: null, alpn: null, verified: true, authorizationError: null };
      const r = amendResult(seed000Result(), { tls: { ...tls, ephemeralKey } });
      return formatAbReport(r)
        .split('\n')
        .filter((l) => l.startsWith('Server Temp Key:'));
    };
    expect(tempKey({ name: 'prime256v1', bits: 256 })).toEqual([
      'Server Temp Key:        ECDH prime256v1 256 bits',
    ]);
    expect(tempKey({ name: 'X448', bits: 448 })).toEqual(['Server Temp Key:        X448 448 bits']);
    expect(tempKey({ name: 'X25519MLKEM768', bits: null })).toEqual([
      'Server Temp Key:        X25519MLKEM768',
    ]);
    // Results saved before the field existed print no such line.
    expect(tempKey(undefined)).toEqual([]);
  });

  it('says that open-model phases count from the write, not the scheduled time', () => {
    const closed = abStyleResult();
    const open: RunResult = { ...closed, load: seed000Result().load };
    expect(formatAbReport(closed).split('\n')).toContain('Connection Times (ms, µs resolution)');
    expect(formatAbReport(open).split('\n')).toContain(
      'Connection Times (ms, µs resolution, from the moment each request was written)',
    );
  });

  it('puts vegeta, ab, thresholds and warnings in the default text report', () => {
    const r: RunResult = {
      ...seed000Result(),
      thresholds: [
        { threshold: { metric: 'p99', op: '<', value: 50 }, actual: 0.574479, passed: true },
        { threshold: { metric: 'errorRate', op: '<', value: 1 }, actual: 2.5, passed: false },
      ],
      warnings: [{ code: 'generator-saturated', message: 'the client may be the bottleneck' }],
    };
    const text = formatTextReport(r);
    expect(text).toContain('Requests      [total, rate, throughput]         500, 100.20, 100.19\n');
    expect(text).toContain('Requests per second:    100.19 [#/sec] (mean)\n');
    expect(text).toContain('  p99 < 50 ms: passed (actual 0.574 ms)\n');
    expect(text).toContain('  errorRate < 1%: FAILED (actual 2.500%)\n');
    expect(text).toContain('Warnings:\n  the client may be the bottleneck\n');
  });
});
