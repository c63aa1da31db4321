/**
 * One run in the HTML report: its verdict first, the headline figures, the charts, every
 * table the text reports have (percentiles, Connection Times, status codes, Error Set,
 * thresholds, warnings), the scenario and the facts of the server and the generator, and the
 * run in a tool's text layout.
 */
import { REPORT_PERCENTILES } from '../../model/defaults.ts';
import type { ReportLayout } from '../../comparison/report-settings.ts';
import type { Load, RunOptions } from '../../model/scenario.ts';
import { targetLabel } from '../../model/scenario.ts';
import { formatStagesText } from '../../model/stages.ts';
import { ERROR_KIND_LABELS, PHASES, type LatencyStats, type RunResult } from '../../model/result.ts';
import { runVerdict, verdictTone, verdictWord, type Verdict } from '../../verdict/verdict.ts';
import { summaryCards } from '../cards.ts';
import { generatorCpuText, sendLatenessText, tickPauseText } from '../generator-text.ts';
import { formatRunReport, thresholdActualText, thresholdText } from '../report.ts';
import { errorSet, sortedStatusCodes } from '../../verdict/run-figures.ts';
import { statusLine } from '../../figures/status-text.ts';
import { formatCount, formatGrouped, formatPercent } from '../../figures/units.ts';
import { esc } from './escape.ts';
import { originText } from '../labels.ts';
import { connectionsChart, stagesTable, targetPoints } from './stages-section.ts';
import { urlsTable } from './urls-section.ts';
import { shardsTable } from './shards-section.ts';
import { serverCharts, serverResourcesSection } from './resources-section.ts';
import { machineCharts, machineSection } from './machine-section.ts';
import { LATENCY_SERIES, THROUGHPUT_SERIES } from '../series.ts';
import { lineChart } from './svg.ts';
import { factList, htmlTable } from './table.ts';

const ms = (v: number | null | undefined): string =>
  v === null || v === undefined ? '–' : formatGrouped(v, 3);

/** "closed model: 500 connections x 1, 50,000 requests" / "open model: 10,000 req/s for 5 s". */
export function describeLoad(load: Load): string {
  const stages = load.stages ? `stages ${formatStagesText(load.stages)}` : null;
  if (load.model === 'open') {
    const rate = stages
      ? `${stages} (req/s)`
      : `${formatCount(load.rate)} req/s for ${load.durationSeconds} s`;
    return `open model: ${rate}, at most ${formatCount(load.maxInFlight)} in flight`;
  }
  const limit =
    load.limit.kind === 'duration'
      ? `for ${load.limit.seconds} s`
      : `${formatCount(load.limit.count)} requests`;
  const cap = load.rate === null ? '' : `, capped at ${formatCount(load.rate)} req/s`;
  const level = stages
    ? `${stages} (connections) x ${load.pipelining} in flight`
    : `${formatCount(load.connections)} connection(s) x ${load.pipelining} in flight, ${limit}`;
  return `closed model: ${level}${cap}`;
}

/** The run options as facts. */
export function optionFacts(
  o: Omit<RunOptions, 'protocol'> & { protocol?: RunOptions['protocol'] },
): [string, string][] {
  return [
    ...(o.protocol
      ? ([['Protocol', o.protocol === 'h2' ? 'HTTP/2' : 'HTTP/1.1']] as [string, string][])
      : []),
    ['Keep-alive', o.keepAlive ? 'on' : 'off'],
    ['Engine', o.engine],
    ['Workers', String(o.workers)],
    ['Timeout', `${formatCount(o.timeoutMs)} ms`],
    ['Warm-up', `${o.warmupSeconds} s`],
    ['SLO', o.sloMs === null ? 'none' : `${o.sloMs} ms (slower responses count as failures)`],
    [
      'TLS',
      `${o.tls.verify ? 'certificates verified' : 'certificate verification off'}${o.tls.caFile ? `, CA file ${o.tls.caFile}` : ''}${o.tls.caUpload ? `, CA file ${o.tls.caUpload.name} (picked in the browser)` : ''}${o.tls.servername ? `, SNI ${o.tls.servername}` : ''}`,
    ],
    ['Sample interval', `${formatCount(o.sampleIntervalMs)} ms`],
    ...o.thresholds.map((t): [string, string] => ['Threshold', `${t.metric} ${t.op} ${t.value}`]),
  ];
}

/** The verdict box's colour: the tone the app's banner has (a note is amber). */
export const VERDICT_CLASS = { good: 'good', note: 'warn', bad: 'bad' } as const;

/** The verdict box: the state, its headline, every caveat. */
export function verdictBox(v: Verdict, testId = 'verdict'): string {
  const caveats =
    v.caveats.length === 0
      ? ''
      : `<ul>${v.caveats.map((c) => `<li class="${c.severity}"><span class="badge ${c.severity}">${esc(c.label)}</span> ${esc(c.message)}</li>`).join('')}</ul>`;
  return (
    `<div class="verdict ${VERDICT_CLASS[verdictTone(v)]}" data-testid="${esc(testId)}" data-state="${esc(v.state)}">` +
    `<p><strong>Verdict: ${esc(verdictWord(v))}</strong> — ${esc(v.headline)}</p>${caveats}</div>`
  );
}

/** The headline figures: the same cards, values and details as the report on screen. */
function figures(r: RunResult, verdict: Verdict): string {
  return `<div class="cards">${summaryCards(r, verdict)
    .map(
      (c) =>
        `<div class="card${c.caveat ? ' flag' : ''}" data-figure="${esc(c.label)}"${c.caveat ? ` title="${esc(c.caveat)}"` : ''}><div class="label">${esc(c.label)}${c.caveat ? ' !' : ''}</div><div class="value">${esc(c.value)}</div><div class="detail">${esc(c.detail)}</div></div>`,
    )
    .join('')}</div>`;
}

function charts(r: RunResult, id: string): string {
  const measured = r.samples;
  const time = (pick: (s: RunResult['samples'][number]) => number | null) =>
    measured.map((s) => [s.elapsedSeconds, pick(s)] as const);
  const percentileKeys = REPORT_PERCENTILES.filter((p) => r.latency?.percentiles[String(p)] !== undefined);
  const byPercentile = (stats: LatencyStats | null) =>
    percentileKeys.map((p, i) => [i, stats?.percentiles[String(p)] ?? null] as const);
  return [
    lineChart({
      title: `Throughput over time · ${targetLabel(r.target)}`,
      xLabel: 'seconds since the start (warm-up included)',
      yLabel: 'req/s',
      series: [
        ...THROUGHPUT_SERIES.map((s) => ({ label: s.label, points: time(s.value) })),
        ...(r.load.stages && r.load.model === 'open'
          ? [{ label: 'target (stages)', points: targetPoints(r) }]
          : []),
      ],
      testId: `${id}-chart-throughput`,
      yFormat: (v) => `${formatGrouped(v, 2)} req/s`,
    }),
    lineChart({
      title: `Latency over time · ${targetLabel(r.target)}`,
      xLabel: 'seconds since the start',
      yLabel: 'ms',
      series: LATENCY_SERIES.map((s) => ({ label: s.label, points: time(s.value) })),
      testId: `${id}-chart-latency`,
      yFormat: (v) => `${formatGrouped(v, 3)} ms`,
    }),
    lineChart({
      title: `Latency by percentile · ${targetLabel(r.target)}`,
      xLabel: 'percentile',
      yLabel: 'ms',
      series: [
        { label: 'latency', points: byPercentile(r.latency) },
        ...(r.correctedLatency
          ? [{ label: 'from the scheduled send time', points: byPercentile(r.correctedLatency) }]
          : []),
      ],
      xTicks: percentileKeys.map((p, i) => ({ value: i, label: `${p}%` })),
      testId: `${id}-chart-percentiles`,
      yFormat: (v) => `${formatGrouped(v, 3)} ms`,
    }),
    connectionsChart(r, id),
    ...serverCharts(r, id),
    ...machineCharts(r, id),
  ].join('\n');
}

function tables(r: RunResult, id: string): string {
  const out: string[] = [shardsTable(r, id), stagesTable(r, id), urlsTable(r, id)];
  if (r.latency) {
    const rows = REPORT_PERCENTILES.flatMap((p) => {
      const v = r.latency!.percentiles[String(p)];
      if (v === undefined) return [];
      const corrected = r.correctedLatency?.percentiles[String(p)];
      return [
        [
          p === 100 ? '100% (longest request)' : `${p}%`,
          ms(v),
          ...(r.correctedLatency ? [ms(corrected)] : []),
        ],
      ];
    });
    out.push(
      `<h4>Percentage of the requests served within a certain time (ms)</h4>` +
        htmlTable({
          head: ['percentile', 'latency ms', ...(r.correctedLatency ? ['from the scheduled time ms'] : [])],
          rows,
          numeric: (i) => i > 0,
          rowHeaders: 1,
          testId: `${id}-percentiles`,
        }),
    );
  }
  if (r.phases) {
    const rows = PHASES.flatMap((phase) => {
      const s = r.phases![phase];
      return s ? [[phase, ms(s.min), ms(s.mean), ms(s.stdev), ms(s.median), ms(s.max)]] : [];
    });
    out.push(
      `<h4>Connection Times (ms): setup is ab's Connect</h4>` +
        htmlTable({
          head: ['phase', 'min', 'mean', '[+/-sd]', 'median', 'max'],
          rows,
          numeric: (i) => i > 0,
          rowHeaders: 1,
          testId: `${id}-phases`,
        }),
    );
  }
  const responses = r.requests.responses;
  out.push(
    `<h4>Status codes</h4>` +
      htmlTable({
        head: ['status', 'responses', 'share'],
        rows: [
          ...(r.requests.errors > 0 ? [['no response (0)', formatCount(r.requests.errors), '']] : []),
          ...sortedStatusCodes(r).map((c) => {
            const n = r.statusCodes[c]!;
            return [statusLine(Number(c)), formatCount(n), responses > 0 ? formatPercent(n / responses) : ''];
          }),
        ],
        numeric: (i) => i > 0,
        rowHeaders: 1,
        testId: `${id}-status`,
      }),
  );
  const set = errorSet(r);
  out.push(
    `<h4>Error Set</h4>` +
      (set.length === 0
        ? '<p class="muted">none</p>'
        : htmlTable({
            head: ['error', 'count'],
            rows: set.map((e) => [e.text, formatCount(e.count)]),
            numeric: (i) => i > 0,
            testId: `${id}-errors`,
          })),
  );
  if (r.errors.length > 0) {
    out.push(
      htmlTable({
        head: ['kind', 'count', 'first message'],
        rows: r.errors.map((e) => [ERROR_KIND_LABELS[e.kind], formatCount(e.count), e.message]),
        numeric: (i) => i === 1,
      }),
    );
  }
  if (r.thresholds.length > 0) {
    out.push(
      `<h4>Thresholds</h4>` +
        htmlTable({
          head: ['rule', 'actual', 'outcome'],
          rows: r.thresholds.map((t) => [
            thresholdText(t),
            thresholdActualText(t),
            t.passed ? 'passed' : { text: 'FAILED', className: 'flag' },
          ]),
          numeric: (i) => i === 1,
        }),
    );
  }
  if (r.warnings.length > 0) {
    out.push(
      `<h4>Warnings</h4><ul class="warnings">${r.warnings.map((w) => `<li>${esc(w.message)}</li>`).join('')}</ul>`,
    );
  }
  return out.join('\n');
}

function facts(r: RunResult): string {
  const s = r.server;
  const tls = r.tls;
  const g = r.generator;
  const late = sendLatenessText(r);
  const pause = tickPauseText(r);
  return (
    `<div class="fact-grid"><section><h4>Scenario</h4>` +
    factList([
      ['Scenario', r.scenarioName],
      ['Request', `${r.target.method} ${r.target.url}`],
      ['Headers', r.target.headers.map((h) => `${h.name}: ${h.value}`).join('; ') || 'none'],
      [
        'Body',
        r.target.body.kind === 'none'
          ? 'none'
          : r.target.body.kind === 'text'
            ? `${r.target.body.text.length} characters`
            : r.target.body.kind === 'upload'
              ? `${r.target.body.name} (picked in the browser)`
              : r.target.body.path,
      ],
      ['Load', describeLoad(r.load)],
      ...optionFacts(r.options),
      ['Started', r.startedAt],
      ['Ended', r.endedAt],
      ['Status', r.status + (r.error ? `: ${r.error.message}` : '')],
    ]) +
    `</section><section><h4>Server</h4>` +
    factList([
      ['Server software', s?.software ?? 'not sent'],
      ['Host and port', s ? `${s.hostname}:${s.port}` : 'unknown'],
      ...(s?.connectedTo ? ([['Connected to', s.connectedTo]] as const) : []),
      ...(s?.origins ?? []).map((o) => ['Origin', originText(o)] as const),
      ['Document path', s?.documentPath ?? ''],
      [
        'Document length',
        s?.documentLength === null || s?.documentLength === undefined
          ? 'unknown'
          : `${s.documentLength} bytes`,
      ],
      ['HTTP version', s?.httpVersion ?? 'unknown'],
      ...(tls
        ? ([
            ['TLS', [tls.protocol, tls.cipher].filter((x) => x !== null).join(', ') || 'unknown'],
            ['ALPN', tls.alpn ?? 'none'],
            [
              'Certificate',
              tls.verified
                ? 'verified'
                : `not verified${tls.authorizationError ? ` (${tls.authorizationError})` : ''}`,
            ],
          ] as [string, string][])
        : []),
    ]) +
    `</section><section><h4>Generator</h4>` +
    factList([
      ['Engine', `${g.engine} ${g.engineVersion}`],
      ['Trebuchet', g.appVersion],
      ['Node', g.nodeVersion],
      ['Platform', g.platform],
      ['CPU', `${g.cpuCores} x ${g.cpuModel}`],
      ['Generator CPU', generatorCpuText(r)],
      ...(late === null ? [] : ([['Send lateness', late]] as [string, string][])),
      ...(pause === null ? [] : ([['Tick pause', pause]] as [string, string][])),
      ...(g.cpuScope
        ? ([
            ['CPU measured for', g.cpuScope === 'engine-thread' ? 'the engine thread' : 'the whole process'],
          ] as [string, string][])
        : []),
    ]) +
    `</section></div>`
  );
}

/** A run's section; `id` makes its test ids and anchors unique in the document. */
export function runSection(
  r: RunResult,
  opts: { id: string; heading: string; layout: ReportLayout },
): string {
  const verdict = runVerdict(r);
  return (
    `<section class="run" id="${esc(opts.id)}" data-testid="${esc(opts.id)}">` +
    `<h3>${esc(opts.heading)}</h3><p class="muted">${esc(`${r.target.method} ${r.target.url} · ${r.status} · ${describeLoad(r.load)}`)}</p>` +
    verdictBox(verdict, `${opts.id}-verdict`) +
    figures(r, verdict) +
    `<div class="charts">${charts(r, opts.id)}</div>` +
    tables(r, opts.id) +
    serverResourcesSection(r, verdict, opts.id) +
    machineSection(r, opts.id) +
    facts(r) +
    `<details><summary>The run as ${esc(opts.layout === 'text' ? 'text' : opts.layout)} prints it</summary><pre>${esc(formatRunReport(r, opts.layout))}</pre></details>` +
    `</section>`
  );
}
