/**
 * ApacheBench's report layout (ab 2.3): the same labels, column and number formats, so a
 * reader of the seed articles finds every figure where ab puts it. Two deliberate
 * differences, both stated in the headers: times in the tables carry three decimals
 * (our histograms resolve microseconds; ab rounds to whole ms), and the percentile table
 * adds 99.9% and 99.99%.
 */
import { REPORT_PERCENTILES } from '../model/defaults.ts';
import type { LatencyStats, Phase, PhaseStats, RunResult } from '../model/result.ts';
import { formatStagesText } from '../model/stages.ts';
import {
  abFailedRequests,
  concurrencyLevel,
  failureBreakdown,
  keepAliveRequests,
  timePerRequestAcrossMs,
  timePerRequestMs,
  transferRateKiBps,
} from '../verdict/run-figures.ts';
import { fixed } from '../figures/units.ts';
import { listOrigins, namedList, originText } from './labels.ts';

const LABEL_WIDTH = 24;

type PhaseTimes = Partial<Record<Phase, PhaseStats>>;
const line = (label: string, value: string | number): string =>
  (`${label}:`.padEnd(LABEL_WIDTH) + String(value)).trimEnd();

/** ab's four rows, in ab's order: Connect is our setup (DNS + TCP + TLS). */
const AB_ROWS: readonly [Phase, string][] = [
  ['setup', 'Connect'],
  ['processing', 'Processing'],
  ['waiting', 'Waiting'],
  ['total', 'Total'],
];
/** What ab does not split out: the parts of Connect, and first-to-last-byte transfer. */
const DETAIL_ROWS: readonly [Phase, string][] = [
  ['dns', 'DNS'],
  ['connect', 'TCP'],
  ['tls', 'TLS'],
  ['transfer', 'Transfer'],
];

function serverLines(r: RunResult): string[] {
  const url = new URL(r.target.url);
  const portOf = (u: URL): number => (u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80);
  // A list over several origins: every host and port (each origin's pair on its Origin line below).
  const origins = listOrigins(r.target);
  const distinct = (xs: readonly (string | number)[]): string[] => [...new Set(xs.map(String))];
  const lines = [
    line('Server Software', r.server?.software ?? ''),
    line(
      'Server Hostname',
      origins === null
        ? (r.server?.hostname ?? url.hostname)
        : namedList(distinct(origins.map((u) => u.hostname))),
    ),
    line(
      'Server Port',
      origins === null ? (r.server?.port ?? portOf(url)) : namedList(distinct(origins.map(portOf))),
    ),
  ];
  // A connect-to rule or a unix socket: the sockets went here, the names sent were the URL's.
  if (r.server?.connectedTo) lines.push(line('Connected To', r.server.connectedTo));
  // A list over several origins: each has connections of its own.
  for (const o of r.server?.origins ?? []) lines.push(line('Origin', originText(o)));
  if (r.tls) {
    const facts = [r.tls.protocol, r.tls.cipher].filter((f) => f !== null);
    if (facts.length > 0) lines.push(line('SSL/TLS Protocol', facts.join(',')));
    const key = r.tls.ephemeralKey;
    // ab's wording: an elliptic-curve key is "ECDH <curve>", X25519, X448 (and hybrids) by their names.
    if (key) {
      const name = /^X(25519|448)/.test(key.name) ? key.name : `ECDH ${key.name}`;
      lines.push(line('Server Temp Key', key.bits === null ? name : `${name} ${key.bits} bits`));
    }
    if (r.options.tls.servername) lines.push(line('TLS Server Name', r.options.tls.servername));
  }
  const docLength = r.server?.documentLength;
  const list = r.target.requests;
  // A list has a document per URL, and its Length check is each URL's (ab run on each would).
  lines.push(
    '',
    list !== undefined
      ? line('Document Path', `a list of ${list.length} requests (Per URL below)`)
      : line('Document Path', r.server?.documentPath ?? `${url.pathname}${url.search}`),
    list !== undefined
      ? line('Document Length', "each URL's own (Length: a body unlike its URL's first)")
      : line(
          'Document Length',
          docLength === null || docLength === undefined
            ? 'unknown (no successful response)'
            : `${docLength} bytes`,
        ),
  );
  return lines;
}

function concurrencyText(r: RunResult): string {
  if (r.load.model === 'open') {
    const rate = r.load.stages ? `stages ${formatStagesText(r.load.stages)}` : r.load.rate;
    return `open model, ${rate} req/s (at most ${r.load.maxInFlight} in flight)`;
  }
  return String(concurrencyLevel(r));
}

function totalsLines(r: RunResult): string[] {
  const failed = abFailedRequests(r);
  const lines = [
    line('Concurrency Level', concurrencyText(r)),
    line('Time taken for tests', `${fixed(r.durationSeconds, 3)} seconds`),
    line('Complete requests', r.requests.total),
    line('Failed requests', failed),
  ];
  if (failed > 0) {
    const b = failureBreakdown(r);
    const slo = r.options.sloMs !== null ? `, SLO: ${b.slo}` : '';
    lines.push(
      `   (Connect: ${b.connect}, Receive: ${b.receive}, Length: ${b.length}, Exceptions: ${b.exceptions}${slo})`,
    );
  }
  if (r.requests.non2xx > 0) lines.push(line('Non-2xx responses', r.requests.non2xx));
  // ab prints this line with -k only; here keep-alive is a scenario option, so always (0 when off).
  lines.push(line('Keep-Alive requests', keepAliveRequests(r)));
  if (r.requests.inFlightAtEnd > 0) lines.push(line('Unanswered at end', r.requests.inFlightAtEnd));
  lines.push(line('Total transferred', `${r.bytes.inTotal} bytes`));
  // ab prints this when it posts a body, and counts every byte written, headers included.
  if (r.bytes.outBody > 0) lines.push(line('Total body sent', r.bytes.outTotal));
  lines.push(line('HTML transferred', `${r.bytes.inBody} bytes`));

  const perRequest = timePerRequestMs(r);
  const across = timePerRequestAcrossMs(r);
  if (r.durationSeconds > 0 && r.requests.total > 0 && perRequest !== null && across !== null) {
    lines.push(
      line('Requests per second', `${fixed(r.throughput.requestsPerSecond, 2)} [#/sec] (mean)`),
      line('Time per request', `${fixed(perRequest, 3)} [ms] (mean)`),
      line('Time per request', `${fixed(across, 3)} [ms] (mean, across all concurrent requests)`),
      line('Transfer rate', `${fixed(transferRateKiBps(r), 2)} [Kbytes/sec] received`),
    );
    if (r.bytes.outBody > 0) {
      const sent = r.bytes.outTotal / 1024 / r.durationSeconds;
      const indent = ' '.repeat(LABEL_WIDTH);
      lines.push(
        `${indent}${fixed(sent, 2)} kb/s sent`,
        `${indent}${fixed(sent + transferRateKiBps(r), 2)} kb/s total`,
      );
    }
  }
  return lines;
}

const cell = (ms: number, width: number): string => fixed(ms, 3).padStart(width);

const PHASE_HEADER =
  ' '.repeat(12) + ['min', 'mean', '[+/-sd]', 'median', 'max'].map((h) => h.padStart(10)).join('');

function phaseTable(title: string, rows: readonly [Phase, string][], phases: PhaseTimes): string[] {
  const lines = rows.flatMap(([phase, label]) => {
    const s = phases[phase];
    if (!s) return [];
    return [
      `${label}:`.padEnd(12) + [s.min, s.mean, s.stdev, s.median, s.max].map((v) => cell(v, 10)).join(''),
    ];
  });
  return lines.length === 0 ? [] : ['', title, PHASE_HEADER, ...lines];
}

function connectionTimes(phases: PhaseTimes, open: boolean): string[] {
  // In the open model the latencies count from each request's scheduled time; the phases
  // from the moment it was written, so their Total can be lower. Say which is which.
  const from = open ? ', from the moment each request was written' : '';
  return [
    ...phaseTable(`Connection Times (ms, µs resolution${from})`, AB_ROWS, phases),
    ...phaseTable('Connect and transfer phases (ms, µs resolution)', DETAIL_ROWS, phases),
  ];
}

function percentileTable(title: string, stats: LatencyStats): string[] {
  const rows = REPORT_PERCENTILES.flatMap((p) => {
    const v = stats.percentiles[String(p)];
    if (v === undefined) return [];
    const longest = p === 100 ? ' (longest request)' : '';
    return [`${`${p}%`.padStart(7)}${cell(v, 10)}${longest}`];
  });
  return ['', title, ...rows];
}

export function formatAbReport(r: RunResult): string {
  const lines = [...serverLines(r), '', ...totalsLines(r)];
  if (r.phases && r.requests.responses > 0) lines.push(...connectionTimes(r.phases, r.load.model === 'open'));
  if (r.latency && r.requests.responses > 1) {
    lines.push(
      ...percentileTable(
        'Percentage of the requests served within a certain time (ms, µs resolution)',
        r.latency,
      ),
    );
  }
  if (r.correctedLatency && r.requests.responses > 1) {
    lines.push(
      ...percentileTable(
        "The same, measured from each request's scheduled send time (ms, µs resolution)",
        r.correctedLatency,
      ),
    );
  }
  return lines.join('\n') + '\n';
}
