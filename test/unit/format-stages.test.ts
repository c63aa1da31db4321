import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { runHtmlReport } from '../../shared/format/html-report.ts';
import { formatTextReport } from '../../shared/format/report.ts';
import { stagesCsv } from '../../shared/format/stages.ts';
import type { RunResult, StageResult } from '../../shared/model/result.ts';
import { runResultFixture, sampleFixture } from '../helpers/run-result.ts';

const row = (over: Partial<StageResult>): StageResult => ({
  index: 0,
  startSeconds: 0,
  endSeconds: 2,
  from: 0,
  to: 200,
  planned: 200,
  requests: 199,
  errors: 1,
  non2xx: 0,
  requestsPerSecond: 99.5,
  latency: { p50: 1.25, p99: 4.5, mean: 1.5, max: 6 },
  ...over,
});

function staged(): RunResult {
  return runResultFixture({
    load: {
      model: 'open',
      rate: 100,
      durationSeconds: 5,
      maxInFlight: 100,
      stages: [
        { durationSeconds: 2, target: 200 },
        { durationSeconds: 2, target: 200 },
      ],
    },
    samples: [1, 2, 3, 4].map((t, seq) =>
      sampleFixture({ seq, elapsedSeconds: t, intervalSeconds: 1, requestsPerSecond: 50 * t }),
    ),
    stages: [
      row({}),
      row({
        index: 1,
        startSeconds: 2,
        endSeconds: 4,
        from: 200,
        planned: 400,
        requests: 401,
        errors: 0,
        requestsPerSecond: 200.5,
      }),
    ],
  });
}

describe('a staged run in the reports', () => {
  it('the text report has a row per stage', () => {
    const text = formatTextReport(staged());
    const block = text.slice(text.indexOf('Stages:')).split('\n').slice(0, 4);
    expect(block).toEqual([
      'Stages:',
      '  stage  time (s)         target  planned  requests  req/s  p50 ms  p99 ms  errors  non-2xx',
      '  1       0.0-2.0  0 → 200 req/s      200       199   99.5   1.250   4.500       1        0',
      '  2       2.0-4.0      200 req/s      400       401  200.5   1.250   4.500       0        0',
    ]);
    expect(formatTextReport(runResultFixture())).not.toContain('Stages:');
  });

  it('the CSV parses back to the rows', () => {
    const rows = parse<Record<string, string>>(stagesCsv([{ label: 'nginx', result: staged() }]), {
      columns: true,
    });
    expect(rows).toHaveLength(2);
    expect(rows[1]).toEqual({
      target: 'nginx',
      stage: '2',
      'start (s)': '2',
      'end (s)': '4',
      'target from': '200',
      'target to': '200',
      planned: '400',
      requests: '401',
      'rate (req/s)': '200.5',
      'latency p50 (ms)': '1.25',
      'latency p99 (ms)': '4.5',
      errors: '0',
      'non-2xx': '0',
    });
  });

  it('the HTML report has the stage table and the target beside the throughput', () => {
    const html = runHtmlReport([staged()]);
    const table = html.slice(html.indexOf('-stages"'), html.indexOf('</table>', html.indexOf('-stages"')));
    expect(table.match(/<tr>/g)).toHaveLength(3);
    expect(table).toContain('0 → 200 req/s');
    expect(html).toContain('target (stages)');
    expect(html).toContain('stages 2s:200,2s:200 (req/s)');
    expect(runHtmlReport([runResultFixture()])).not.toContain('target (stages)');
  });

  it('the HTML report of a closed staged run charts the target beside the connections carrying load', () => {
    const closed = runResultFixture({
      load: {
        model: 'closed',
        connections: 10,
        pipelining: 1,
        limit: { kind: 'duration', seconds: 10 },
        rate: null,
        stages: [{ durationSeconds: 4, target: 8 }],
      },
      samples: [1, 2, 3, 4].map((t, seq) =>
        sampleFixture({ seq, elapsedSeconds: t, intervalSeconds: 1, connections: 2 * t }),
      ),
      stages: [row({ endSeconds: 4, to: 8, planned: null })],
    });
    const html = runHtmlReport([closed]);
    const chart = html.slice(html.indexOf('chart-connections'));
    expect(chart).toContain('target (stages)');
    expect(chart).toContain('carrying load');
    expect(html).toContain('stages 4s:8 (connections) x 1 in flight');
    expect(html).toContain('0 → 8 conn.');
  });
});
