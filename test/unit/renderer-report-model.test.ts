import { describe, expect, it } from 'vitest';
import { runResultSchema } from '../../shared/model/result.ts';
import {
  errorRows,
  failureSummary,
  percentileRows,
  phaseRows,
  reportWarnings,
  statusRows,
} from '../../renderer/report/reportModel.ts';
import { thresholdActualText, thresholdText } from '../../shared/format/report.ts';
import { statusBadge } from '../../renderer/views/Run/targetStatus.ts';
import { summaryCards } from '../../shared/format/cards.ts';
import { AB_PERCENTILE_LABELS, amendResult, runResultFixture } from '../helpers/run-result.ts';

describe('report model', () => {
  it('uses a fixture the result schema accepts', () => {
    expect(runResultSchema.safeParse(runResultFixture()).success).toBe(true);
  });

  it('puts the result figures on the summary cards', () => {
    const cards = Object.fromEntries(summaryCards(runResultFixture()).map((c) => [c.id, c]));
    expect(cards.rps).toMatchObject({
      value: '12,000.46',
      raw: 12_000.456,
      detail: 'min 11,800 · max 12,200',
    });
    expect(cards.requests).toMatchObject({ value: '36,000', detail: '35,990 ok · 10 not ok' });
    expect(cards.success).toMatchObject({ value: '99.97%', tone: 'good' });
    expect(cards.p50).toMatchObject({ value: '3.90 ms', raw: 3.9 });
    expect(cards.p99).toMatchObject({ value: '9.90 ms', detail: 'max 48.7 ms' });
    expect(cards.transfer).toMatchObject({ value: '1.46 MiB/s' });
    expect(cards.duration).toMatchObject({ value: '3.00 s' });
  });

  it('counts SLO failures on the Success card, and marks the figures a caveat makes not the server’s', () => {
    // Seed 003's 300 ms rule: 3.82% success while 40,344 responses came too late.
    const slow = amendResult(runResultFixture(), {
      options: { sloMs: 300 },
      requests: { total: 41_946, responses: 41_946, ok: 1_602, non2xx: 0, errors: 0, sloExceeded: 40_344 },
      successRatio: 1_602 / 41_946,
      statusCodes: { '200': 41_946 },
    });
    const cards = Object.fromEntries(summaryCards(slow).map((c) => [c.id, c]));
    expect(cards.success).toMatchObject({ value: '3.82%', tone: 'bad' });
    expect(cards.success!.detail).toBe('40,344 over the 300 ms SLO · 0 non-2xx · 0 errors');
    expect(cards.success!.caveat).toContain(
      '40,344 of 41,946 requests (96.2%) were slower than the 300 ms SLO',
    );
    expect(cards.rps!.caveat).toBeUndefined();
    // Every response a 404: no figure on the cards is the page's.
    const missing = amendResult(runResultFixture(), {
      requests: { ok: 0, non2xx: 36_000 },
      successRatio: 0,
      statusCodes: { '404': 36_000 },
    });
    const marked = summaryCards(missing)
      .filter((c) => c.caveat !== undefined)
      .map((c) => c.id);
    expect(marked).toEqual(['rps', 'success', 'p50', 'p99', 'mean', 'transfer']);
  });

  it('shows the schedule on the open model’s Requests card', () => {
    const open = amendResult(runResultFixture(), {
      load: { model: 'open', rate: 10_000, durationSeconds: 5, maxInFlight: 10_000 },
      requests: { late: 25_396, dropped: 24_587 },
    });
    const cards = Object.fromEntries(summaryCards(open).map((c) => [c.id, c]));
    expect(cards.requests).toMatchObject({ detail: '24,587 dropped · 25,396 late', tone: 'warn' });
  });

  it('never gives a completed run that measured something else a green badge', () => {
    const missing = amendResult(runResultFixture(), {
      requests: { ok: 0, non2xx: 36_000 },
      successRatio: 0,
      statusCodes: { '404': 36_000 },
    });
    expect(statusBadge('completed', missing)).toEqual({ look: 'caveat', text: 'completed · all non-2xx' });
    expect(statusBadge('completed', runResultFixture({ statusCodes: { '200': 36_000 } }))).toEqual({
      look: 'completed',
      text: 'completed',
    });
    expect(statusBadge('cancelled', missing)).toEqual({
      look: 'cancelled',
      text: 'cancelled · partial results',
    });
  });

  it('orders the percentile table like ab and scales its bars to the longest', () => {
    const rows = percentileRows(runResultFixture().latency!.percentiles);
    expect(rows.map((r) => r.label)).toEqual(AB_PERCENTILE_LABELS);
    expect(rows.at(-1)!.share).toBe(1);
    expect(rows[0]!.share).toBeCloseTo(3.9 / 48.7, 10);
  });

  it('lists status codes and errors with their shares', () => {
    expect(statusRows({ '503': 10, '200': 30, '404': 10 })).toEqual([
      { code: '200', count: 30, share: 0.6, tone: 'good' },
      { code: '404', count: 10, share: 0.2, tone: 'warn' },
      { code: '503', count: 10, share: 0.2, tone: 'bad' },
    ]);
    const r = runResultFixture({
      requests: { ...runResultFixture().requests, total: 100 },
      errors: [
        { kind: 'timeout', count: 5, message: 'timed out after 10000 ms' },
        { kind: 'reset', count: 20, message: 'ECONNRESET' },
      ],
    });
    expect(errorRows(r).map((e) => [e.label, e.count, e.share])).toEqual([
      ['connection reset', 20, 0.2],
      ['timed out', 5, 0.05],
    ]);
  });

  it('adds the warnings the report always states, once each', () => {
    const base = runResultFixture();
    expect(reportWarnings(base).map((w) => w.code)).toEqual(['closed-loop-latency']);
    const r = runResultFixture({
      generator: { ...base.generator, saturated: true, cpuPercentMax: 99 },
      tls: {
        protocol: 'TLSv1.3',
        cipher: 'TLS_AES_256_GCM_SHA384',
        alpn: 'http/1.1',
        verified: false,
        authorizationError: 'DEPTH_ZERO_SELF_SIGNED_CERT',
      },
      warnings: [{ code: 'closed-loop-latency', message: 'engine wording' }],
    });
    const w = reportWarnings(r);
    expect(w.map((x) => x.code)).toEqual(['closed-loop-latency', 'generator-saturated', 'tls-not-verified']);
    expect(w[0]!.message).toBe('engine wording');
    expect(w[1]!.message).toContain('99%');
    expect(w[2]!.message).toContain('DEPTH_ZERO_SELF_SIGNED_CERT');
    const open = runResultFixture({
      load: { model: 'open', rate: 100, durationSeconds: 5, maxInFlight: 10 },
    });
    expect(reportWarnings(open)).toEqual([]);
  });

  it('says plainly why a target could not be measured', () => {
    expect(failureSummary(runResultFixture())).toBeNull();
    const down = runResultFixture({
      requests: { ...runResultFixture().requests, total: 40, responses: 0, ok: 0, non2xx: 0, errors: 40 },
      errors: [{ kind: 'refused', count: 40, message: 'connect ECONNREFUSED 127.0.0.1:9' }],
      latency: null,
    });
    expect(failureSummary(down)).toBe(
      'No response from the target: connection refused on 40 of 40 requests (connect ECONNREFUSED 127.0.0.1:9).',
    );
    const failed = runResultFixture({
      status: 'failed',
      error: { kind: 'dns', message: 'getaddrinfo ENOTFOUND nope' },
    });
    expect(failureSummary(failed)).toBe('DNS lookup failed: getaddrinfo ENOTFOUND nope');
  });

  it('orders connection times like a request goes and words thresholds', () => {
    const stats = { min: 0.1, mean: 0.2, stdev: 0.05, median: 0.2, max: 1, percentiles: {} };
    expect(phaseRows({ total: stats, connect: stats, waiting: stats }).map((r) => r.label)).toEqual([
      'Connect',
      'Waiting',
      'Total',
    ]);
    const outcome = {
      threshold: { metric: 'p99' as const, op: '<' as const, value: 50 },
      actual: 9.9,
      passed: true,
    };
    expect(thresholdText(outcome)).toBe('p99 < 50 ms');
    expect(thresholdActualText(outcome)).toBe('9.900 ms');
  });
});
