import { describe, expect, it } from 'vitest';
import { runExport } from '../../shared/export/run.ts';
import { formatRunReport, formatTextReport } from '../../shared/format/report.ts';
import { urlFigures, urlsCsv, urlTableNote, urlTableText } from '../../shared/format/urls.ts';
import { formatBytes } from '../../shared/figures/units.ts';
import { runHtmlReport } from '../../shared/format/html-report.ts';
import { runResultFixture } from '../helpers/run-result.ts';
import { listResultFixture } from '../helpers/url-results.ts';

describe('the per-URL rows (urlFigures), computed once for every view', () => {
  it('are the most requested first, the "every other" row last, req/s over the measured duration', () => {
    const figures = urlFigures(listResultFixture(4, 7))!;
    expect(figures.map((f) => f.label)).toEqual([
      'GET /u3',
      'GET /u2',
      'GET /u1',
      'GET /u0',
      'every other (7 URLs)',
    ]);
    expect(figures.map((f) => f.requests)).toEqual([103, 102, 101, 100, 50]);
    expect(figures[0]!.requestsPerSecond).toBe(103 / 2);
    expect(figures[1]).toMatchObject({ errors: 2, errorKinds: { timeout: 2 } });
    expect(urlFigures(runResultFixture())).toBeNull();
  });

  it('sum to the run’s totals (requests, statuses, errors, bytes)', () => {
    const r = listResultFixture(6, 3);
    const figures = urlFigures(r)!;
    expect(figures.reduce((a, f) => a + f.requests, 0)).toBe(r.requests.total);
    expect(figures.reduce((a, f) => a + f.errors, 0)).toBe(r.requests.errors);
    expect(figures.reduce((a, f) => a + f.bytesIn, 0)).toBe(r.bytes.inTotal);
    expect(figures.reduce((a, f) => a + (f.statusCodes['404'] ?? 0), 0)).toBe(r.statusCodes['404']);
  });
});

describe('the per-URL table in every report', () => {
  const r = listResultFixture(3);

  it('is in the text report, aligned, with statuses, errors, bytes and p50/p99/max', () => {
    const text = formatTextReport(r);
    const block = text.slice(text.indexOf('Per URL:')).split('\n').slice(0, 5);
    expect(block).toEqual([
      'Per URL:',
      '  URL      requests  req/s  status codes      errors         received  p50 ms  p99 ms  max ms',
      '  GET /u2       102   51.0  200 ×100          2 timed out  224.12 KiB   1.200   5.200   9.200',
      '  GET /u1       101   50.5  200 ×96 · 404 ×5  0            123.29 KiB   1.100   5.100   9.100',
      '  GET /u0       100   50.0  200 ×100          0             24.41 KiB   1.000   5.000   9.000',
    ]);
  });

  it('follows each tool layout’s own lines (ab, vegeta, http_load, JMeter), which stay as the tool prints them', () => {
    for (const layout of ['ab', 'vegeta', 'http_load', 'jmeter'] as const) {
      const withList = formatRunReport(r, layout);
      const without = formatRunReport({ ...r, urls: undefined }, layout);
      expect(withList.startsWith(without.slice(0, without.lastIndexOf('\n\n') + 1)), layout).toBe(true);
      expect(withList, layout).toContain('  GET /u2       102   51.0');
      expect(without, layout).not.toContain('Per URL:');
    }
  });

  it('is a URLs CSV with every row (plain numbers), in the run’s bundle only when a target has a list', () => {
    const csv = urlsCsv([{ label: 'list', result: r }])
      .trimEnd()
      .split('\r\n');
    expect(csv[0]).toBe(
      'target,method,url,requests,rate (req/s),status codes,errors,bytes in total (B),latency p50 (ms),latency p99 (ms),latency max (ms)',
    );
    expect(csv[2]).toBe('list,GET,http://127.0.0.1:8080/u1,101,50.5,200:96 404:5,0,126250,1.1,5.1,9.1');
    expect(runExport({ name: 'x', results: [r] }).items.map((p) => p.suffix)).toContain('urls.csv');
    expect(runExport({ name: 'x', results: [runResultFixture()] }).items.map((p) => p.suffix)).not.toContain(
      'urls',
    );
  });

  it('is in the HTML report', () => {
    const html = runHtmlReport([r], { title: 'list', layout: 'text' });
    expect(html).toContain('<h4>Per URL</h4>');
    expect(html).toMatch(/<th scope="row">GET \/u1<\/th><td class="num">101<\/td>/);
  });

  it('shows the 20 most requested rows and says how many more the CSV holds; the CSV has them all', () => {
    const long = listResultFixture(45, 12);
    const table = urlTableText(long)!;
    expect(table.rows).toHaveLength(20);
    expect(table.rows[0]![0]).toBe('GET /u44');
    expect(table.more).toBe(26);
    expect(formatTextReport(long)).toContain(
      '  … 26 more URL rows, the least requested: every row is in the URLs CSV and the JSON',
    );
    expect(
      urlsCsv([{ label: 'l', result: long }])
        .trimEnd()
        .split('\r\n'),
    ).toHaveLength(1 + 46);
    expect(urlsCsv([{ label: 'l', result: long }])).toContain('l,,every other (12 URLs),50,');
  });
});

describe('what a list’s tables count (issue 37)', () => {
  const r = listResultFixture(3);

  it('say under the table what "received" holds (head and body, the rows’ sum) and what the server also saw', () => {
    const received = urlFigures(r)!.reduce((a, f) => a + f.bytesIn, 0);
    expect(received).toBe(r.bytes.inTotal);
    const note = urlTableNote(r)!;
    expect(note).toContain(
      `received: each response whole, head and body, ${formatBytes(r.bytes.inTotal)} in all`,
    );
    expect(note).toContain(`count bodies only: ${formatBytes(r.bytes.inBody)}`);
    expect(note).toContain("the pre-flight's one request to each URL before the load");
    expect(note).not.toContain('warm-up');
    expect(urlTableNote({ ...r, options: { ...r.options, warmupSeconds: 2 } })).toContain(
      'and the warm-up’s requests',
    );
    expect(urlTableNote(runResultFixture())).toBeNull();
    // The same words under the table in every report.
    expect(formatTextReport(r)).toContain(`  ${note}\n`);
    for (const layout of ['ab', 'vegeta', 'http_load', 'jmeter'] as const)
      expect(formatRunReport(r, layout), layout).toContain(note);
    expect(runHtmlReport([r], { title: 'list' })).toContain(note.replace(/'/g, '&#39;'));
  });

  it("ab's layout names the list, not its first URL, and says the Length check is each URL's", () => {
    const ab = formatRunReport(r, 'ab');
    expect(ab).toContain(
      `Document Path:          a list of ${r.target.requests!.length} requests (Per URL below)\n`,
    );
    expect(ab).toContain("Document Length:        each URL's own (Length: a body unlike its URL's first)\n");
  });
});
