import { describe, expect, it } from 'vitest';
import type { CellOutcome } from '../../shared/comparison/cells.ts';
import { esc, jsonForScript } from '../../shared/format/html/escape.ts';
import { REPORT_CSP } from '../../shared/format/html/document.ts';
import { niceTicks } from '../../shared/format/html/svg.ts';
import { comparisonHtmlReport, runHtmlReport } from '../../shared/format/html-report.ts';
import { resultWith, twoServerPlan } from '../helpers/comparison-results.ts';
import { abStyleResult, amendResult, seed000Result } from '../helpers/run-result.ts';
import { withVerdictRecord } from '../../shared/verdict/verdict.ts';

const HOSTILE = '<img src=x onerror=alert(1)>"\'&</script>';

/**
 * Every element that could load or run something, every URL-bearing attribute of a real tag
 * (quoted values blanked first: escaped text inside a title is no attribute), and CSS fetches.
 */
function externalRefs(html: string): string[] {
  const tags = (html.match(/<[a-zA-Z][^>]*>/g) ?? []).map((t) => t.replace(/"[^"]*"/g, '""'));
  const loaders = tags.filter(
    (t) =>
      /^<(script|link|img|iframe|object|embed|audio|video|source|base|form)\b/i.test(t) &&
      t !== '<script type="" id="">',
  );
  const attrs = tags.filter((t) =>
    /\s(src|href|srcset|action|formaction|poster|data|xlink:href)\s*=/i.test(t),
  );
  const css = html.match(/@import|url\((?!#)[^)]*\)/gi) ?? [];
  return [...loaders, ...attrs, ...css];
}

describe('HTML report', () => {
  it('is one self-contained page: a CSP that loads nothing, no script, no external reference', () => {
    const html = runHtmlReport([seed000Result(), abStyleResult()], {
      generatedAt: '2026-12-01T10:00:00.000Z',
    });
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${esc(REPORT_CSP)}">`);
    expect(REPORT_CSP).toContain("default-src 'none'");
    expect(externalRefs(html)).toEqual([]);
    expect(html).toContain('Made by Trebuchet 0.1.0 on 2026-12-01T10:00:00.000Z · 2 target(s)');
  });

  it('escapes everything a server or a user wrote: Server header, names, URLs, headers, error messages', () => {
    const base = abStyleResult();
    const r = amendResult(base, {
      scenarioName: HOSTILE,
      target: { name: HOSTILE, headers: [{ name: 'X-Test', value: HOSTILE }] },
      server: { ...base.server!, software: HOSTILE, documentPath: `/${HOSTILE}` },
      errors: [{ kind: 'protocol', count: 3, message: HOSTILE }],
      warnings: [{ code: 'other', message: HOSTILE }],
    });
    const html = runHtmlReport([r]);
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain(HOSTILE);
    expect(html).toContain(esc(HOSTILE));
    expect(externalRefs(html)).toEqual([]);
    // The embedded data cannot close its script block, and reads back unchanged, with the verdict the JSON carries.
    const data = /<script type="application\/json" id="trebuchet-report-data">(.*)<\/script>/s.exec(
      html,
    )![1]!;
    expect(data).not.toContain('<');
    expect((JSON.parse(data) as { results: unknown[] }).results[0]).toEqual(withVerdictRecord(r));
    expect(JSON.parse(jsonForScript({ s: '\u2028</script>&' }))).toEqual({ s: '\u2028</script>&' });
  });

  it("carries a run's figures, verdict, tables, charts and facts", () => {
    const all404 = amendResult(seed000Result(), {
      requests: { ok: 0, non2xx: 500 },
      statusCodes: { '404': 500 },
      successRatio: 0,
    });
    const html = runHtmlReport([all404]);
    expect(html).toContain('data-testid="run-1-verdict" data-state="all-non-2xx"');
    expect(html).toContain('Every response was 404 Not Found: check the path.');
    // The cards the app shows, to the digit and word (shared/format/cards.ts).
    expect(html).toContain('<div class="value">100.19</div>');
    expect(html).toContain('<td class="num">0.574</td>');
    expect(html).toContain('<th scope="row">100% (longest request)</th><td class="num">1.179</td>');
    expect(html).toContain('404 Not Found');
    expect(html).toContain('open model: 100 req/s for 5 s, at most 1,000 in flight');
    expect(html).toContain('nginx/1.22.1');
    expect(html).toContain('native 0.1.0');
    expect(html.match(/data-testid="run-1-chart-(throughput|latency|percentiles)"/g)).toHaveLength(3);
    // The text layout the run was printed in, escaped inside a <pre>.
    expect(html).toContain('Requests      [total, rate, throughput]');
  });

  it('counts SLO failures in the Success figure', () => {
    const slow = amendResult(abStyleResult(), {
      requests: { sloExceeded: 40_344, total: 41_948, responses: 41_948, ok: 1604, errors: 0 },
      successRatio: 1604 / 41_948,
    });
    expect(runHtmlReport([slow])).toContain('40,344 over the 300 ms SLO · 12 non-2xx · 0 errors');
  });
});

describe('HTML report of a comparison', () => {
  const plan = twoServerPlan({
    name: `cmp ${HOSTILE}`,
    load: { model: 'open', durationSeconds: 5 },
    levels: [1000, 10_000],
    repetitions: 1,
    report: { format: 'vegeta', columns: ['rps', 'late', 'dropped', 'p99', 'verdict'] },
  });
  const at = (targetIndex: number, level: number, result: ReturnType<typeof resultWith>): CellOutcome => ({
    cellIndex: 0,
    coordinates: { targetIndex, protocol: 'http', level, repetition: 0 },
    result,
  });
  const open = (rate: number, rps: number) =>
    amendResult(resultWith({ rps, total: Math.round(rps * 5) }), {
      load: { model: 'open', rate, durationSeconds: 5, maxInFlight: 10_000 },
      requests: { late: 0, dropped: 0 },
      statusCodes: { '200': Math.round(rps * 5) },
    });
  const dropped = amendResult(open(10_000, 4530), { requests: { late: 25_396, dropped: 24_587 } });
  const outcomes = [
    at(0, 1000, open(1000, 1000)),
    at(1, 1000, open(1000, 1000)),
    at(0, 10_000, open(10_000, 9990)),
    at(1, 10_000, dropped),
  ];

  it("shows the plan's columns, flags the figures a caveat affects, on the table and the charts", () => {
    const html = comparisonHtmlReport({ plan, outcomes, status: 'completed' });
    expect(externalRefs(html)).toEqual([]);
    expect(html).not.toContain(HOSTILE);
    expect(html).toContain(`<title>${esc(`cmp ${HOSTILE}`)}</title>`);
    expect(html).toMatch(
      /<thead><tr><th scope="col"><\/th><th scope="col">Target<\/th>.*<th class="num" scope="col">req\/s<\/th><th class="num" scope="col">late<\/th>/,
    );
    // apache at 10000 req/s: the rate was not reached, its req/s and p99 flagged, its bar hatched.
    expect(html).toContain('<td class="num flag" title="The rate was not reached at 10,000 req/s');
    expect(html).toContain('>4,530.00</td>');
    expect(html).toContain('<td class="num">25,396</td><td class="num">24,587</td>');
    expect(html).toContain(
      '<span class="badge bad" data-testid="caveat-word">rate not reached</span> <strong>apache · http · 10000 req/s</strong>',
    );
    expect(html.match(/fill="url\(#hatch-1\)"/g)).toHaveLength(1);
    expect(html).toContain('apache (!)');
    expect(html).toContain('Cells:</strong> 3 clean · 1 rate not reached');
    expect(html.match(/<details class="cell-run">/g)).toHaveLength(4);
  });

  it("shows the workers the plan asked for, each cell's in the matrix, and each run's per-worker CPU", () => {
    const cpu = (mean: number) => ({ cpuPercentMean: mean, cpuPercentMax: mean + 10, saturated: false });
    const twoWorkers = (r: ReturnType<typeof resultWith>) =>
      amendResult(r, { options: { workers: 2 }, generator: { workers: [cpu(40), cpu(35)] } });
    const html = comparisonHtmlReport({
      plan: {
        ...plan,
        options: { ...plan.options, workers: 2 },
        report: { format: 'vegeta', columns: ['rps', 'workers', 'verdict'] },
      },
      outcomes: outcomes.map((o) => ({ ...o, result: twoWorkers(o.result) })),
      status: 'completed',
    });
    expect(html).toMatch(/<h3>Plan<\/h3><dl class="facts">.*<dt>Workers<\/dt><dd>2<\/dd>/);
    expect(html).toContain('<th class="num" scope="col">workers</th>');
    expect(html.match(/<td class="num">2<\/td><td[ >]/g)).toHaveLength(4);
    expect(html.match(/<dt>Generator CPU<\/dt><dd>2 workers: 40%, 35% of a core on average/g)).toHaveLength(
      4,
    );
  });

  it('says why it did not start, with the fixes', () => {
    const html = comparisonHtmlReport({
      plan,
      outcomes: [],
      status: 'failed',
      preflightFailures: [
        {
          url: 'https://127.0.0.1:4431/',
          protocol: 'http1.1',
          targets: ['nginx'],
          kind: 'tls',
          message: 'certificate is self-signed',
          fixes: ['turn-off-verification', 'choose-ca-file'],
        },
      ],
    });
    expect(html).toContain(
      'The comparison did not start:</strong> 1 URL(s) failed the check before any load.',
    );
    expect(html).toContain(
      'Fix: Turn off certificate verification · or · Pick the CA file that signed the server&#39;s certificate',
    );
  });
});

describe('chart ticks', () => {
  it('are round numbers covering the range', () => {
    expect(niceTicks(0, 4530)).toEqual([0, 1000, 2000, 3000, 4000, 5000]);
    expect(niceTicks(0, 0.57)).toEqual([0, 0.2, 0.4, 0.6]);
    expect(niceTicks(1, 2, 6)).toEqual([1, 1.2, 1.4, 1.6, 1.8, 2]);
    expect(niceTicks(0, 0)).toEqual([0, 1]);
  });
});
