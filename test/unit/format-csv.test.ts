import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { csvCell, percentilesCsv, summaryCsv, timeSeriesCsv } from '../../shared/format/csv.ts';
import type { RunResult } from '../../shared/model/result.ts';
import { abStyleResult, seed000Result } from '../helpers/run-result.ts';

const rows = (csv: string): string[][] => parse(csv);

/** A result whose server-supplied text tries to run formulas in a spreadsheet. */
function malicious(): RunResult {
  const r = abStyleResult();
  return {
    ...r,
    target: { ...r.target, name: '-2+3' },
    server: { ...r.server!, software: '=HYPERLINK("http://evil.example","click")' },
    errors: [{ kind: 'protocol', count: 3, message: '@SUM(A1:A9)' }],
  };
}

describe('CSV cells', () => {
  it('neutralises formula starters in text and quotes per RFC 4180', () => {
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-1')).toBe("'-1");
    expect(csvCell('@x')).toBe("'@x");
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell('\rx')).toBe('"\'\rx"');
    expect(csvCell('a,"b"\nc')).toBe('"a,""b""\nc"');
    expect(csvCell('plain')).toBe('plain');
  });

  it('writes numbers as numbers, negatives included', () => {
    expect(csvCell(-1.5)).toBe('-1.5');
    expect(csvCell(0.1 + 0.2)).toBe('0.3');
    expect(csvCell(1234567)).toBe('1234567');
    expect(csvCell(Number.NaN)).toBe('');
    expect(csvCell(null)).toBe('');
    expect(csvCell(true)).toBe('true');
  });
});

describe('CSV files', () => {
  it('summary: server and user text is neutralised, figures parse back as the numbers', () => {
    const csv = summaryCsv([{ label: '=cmd|"/c calc"!A1', result: malicious() }]);
    expect(csv.endsWith('\r\n')).toBe(true);
    const [header, row] = rows(csv) as [string[], string[]];
    const get = (name: string): string => row[header.indexOf(name)]!;
    expect(get('label')).toBe('\'=cmd|"/c calc"!A1');
    expect(get('target name')).toBe("'-2+3");
    expect(get('server software')).toBe('\'=HYPERLINK("http://evil.example","click")');
    expect(Number(get('requests'))).toBe(30000);
    expect(Number(get('failed'))).toBe(30);
    expect(Number(get('latency p99 (ms)'))).toBe(0.574479);
    expect(Number(get('success (%)'))).toBe(99.9);
    expect(Number(get('rate (req/s)'))).toBe(1366.79);
    expect(get('document length (B)')).toBe('85');
    // A result saved before Length was counted has an empty cell, not a made-up 0.
    expect(get('length mismatch')).toBe('');
    expect(get('error set')).toBe("'@SUM(A1:A9) (3)");
  });

  it('time series: one row per sample with status and error columns', () => {
    const parsed = rows(timeSeriesCsv([{ label: 'nginx', result: seed000Result() }]));
    const header = parsed[0]!;
    expect(header.slice(0, 4)).toEqual(['target', 'seq', 'elapsed (s)', 'interval (s)']);
    expect(header.slice(-3)).toEqual(['status 200', 'status 404', 'errors reset']);
    expect(parsed).toHaveLength(3);
    const second = parsed[2]!;
    expect(second[header.indexOf('total requests')]).toBe('200');
    expect(second[header.indexOf('latency p99 (ms)')]).toBe('0.5');
    expect(second[header.indexOf('status 404')]).toBe('1');
    expect(second[header.indexOf('errors reset')]).toBe('2');
    expect(second[header.indexOf('generator cpu (%)')]).toBe('');
  });

  it('percentiles: one row per percentile, one column per result', () => {
    const parsed = rows(
      percentilesCsv([
        { label: 'nginx', result: seed000Result() },
        { label: '+apache', result: abStyleResult() },
      ]),
    );
    expect(parsed[0]).toEqual(['percentile (%)', 'nginx latency (ms)', "'+apache latency (ms)"]);
    expect(parsed.map((r) => r[0])).toEqual([
      'percentile (%)',
      '50',
      '66',
      '75',
      '80',
      '90',
      '95',
      '98',
      '99',
      '99.9',
      '99.99',
      '100',
    ]);
    expect(parsed[1]).toEqual(['50', '0.226084', '0.226084']);
  });
});
