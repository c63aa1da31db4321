import type { Agent } from 'node:http';
import https from 'node:https';
import parsePrometheusText, { type PrometheusFamily } from 'parse-prometheus-text-format';
import { DEFAULTS } from '../../shared/model/defaults.ts';
import { exporterCpuCount, exporterFigures, type ExporterScrape } from '../../shared/resources/exporter.ts';
import type { ResourceSource } from '../../shared/model/server-resources.ts';
import { http } from '../engine/node-http.ts';
import { isThisMachine } from './resolve.ts';
import { messageOf, timedCpu, type MonitorSource, type SourceReading } from './source.ts';

/*
 * A Prometheus node_exporter, scraped once per reading. The exporter is assumed hostile:
 * the answer is read up to a size cap under a timeout, only the few families used are kept
 * (a line filter before the parser, so a flood of other series costs a string scan), and
 * their series are counted against a cap. Any failure is a gap with its reason.
 */

export interface ExporterLimits {
  timeoutMs: number;
  maxBytes: number;
  maxSeries: number;
}

export const EXPORTER_LIMITS: ExporterLimits = {
  timeoutMs: DEFAULTS.monitor.exporterTimeoutMs,
  maxBytes: DEFAULTS.monitor.exporterMaxBytes,
  maxSeries: DEFAULTS.monitor.exporterMaxSeries,
};

const FAMILIES = {
  cpu: 'node_cpu_seconds_total',
  load1: 'node_load1',
  load5: 'node_load5',
  load15: 'node_load15',
  memTotal: 'node_memory_MemTotal_bytes',
  memAvailable: 'node_memory_MemAvailable_bytes',
  rx: 'node_network_receive_bytes_total',
  tx: 'node_network_transmit_bytes_total',
} as const;
const WANTED = new Set<string>(Object.values(FAMILIES));

/** The metric name a line is about: a sample's name, or the name after `# HELP` / `# TYPE`; null for other lines. */
function lineFamily(line: string): string | null {
  if (line.startsWith('#')) {
    const m = /^#\s+(?:HELP|TYPE)\s+(\S+)/.exec(line);
    return m ? m[1]! : null;
  }
  const end = line.search(/[{\s]/);
  return end === -1 ? line : line.slice(0, end);
}

/** Only the lines of the families used (their samples, HELP and TYPE), and how many samples that is. */
export function keepUsedFamilies(text: string): { text: string; series: number } {
  const kept: string[] = [];
  let series = 0;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const family = lineFamily(line);
    if (family === null || !WANTED.has(family)) continue;
    kept.push(line);
    if (!line.startsWith('#')) series++;
  }
  // The parser drops a last sample line that has no newline after it.
  return { text: kept.join('\n') + '\n', series };
}

const numberOf = (text: string | undefined): number | null => {
  const n = Number(text);
  return text !== undefined && Number.isFinite(n) ? n : null;
};

function gauge(families: readonly PrometheusFamily[], name: string): number | null {
  const f = families.find((x) => x.name === name);
  return numberOf(f?.metrics[0]?.value);
}

function byDevice(families: readonly PrometheusFamily[], name: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of families.find((x) => x.name === name)?.metrics ?? []) {
    const device = m.labels?.device;
    const v = numberOf(m.value);
    if (device !== undefined && v !== null) out.set(device, v);
  }
  return out;
}

/**
 * The series a sample needs from one exporter answer (text exposition format), or why it
 * cannot be used: too many series, not the format, or not a node_exporter.
 */
export function scrapeFromText(
  text: string,
  at: number,
  maxSeries: number,
): { ok: true; scrape: ExporterScrape } | { ok: false; reason: string } {
  const kept = keepUsedFamilies(text);
  if (kept.series > maxSeries) {
    return {
      ok: false,
      reason: `the exporter sent ${kept.series} series of the families used (at most ${maxSeries} are read)`,
    };
  }
  let families: PrometheusFamily[];
  try {
    families = parsePrometheusText(kept.text);
  } catch (err) {
    return { ok: false, reason: `not in the Prometheus text format: ${messageOf(err).slice(0, 200)}` };
  }
  const cpuSeconds = new Map<string, { cpu: string; mode: string; value: number }>();
  for (const m of families.find((f) => f.name === FAMILIES.cpu)?.metrics ?? []) {
    const cpu = m.labels?.cpu;
    const mode = m.labels?.mode;
    const value = numberOf(m.value);
    if (cpu !== undefined && mode !== undefined && value !== null)
      cpuSeconds.set(`${cpu}|${mode}`, { cpu, mode, value });
  }
  if (cpuSeconds.size === 0) {
    return { ok: false, reason: `no ${FAMILIES.cpu} in the answer: is this a node_exporter's /metrics?` };
  }
  return {
    ok: true,
    scrape: {
      at,
      cpuSeconds,
      load1: gauge(families, FAMILIES.load1),
      load5: gauge(families, FAMILIES.load5),
      load15: gauge(families, FAMILIES.load15),
      memTotalBytes: gauge(families, FAMILIES.memTotal),
      memAvailableBytes: gauge(families, FAMILIES.memAvailable),
      netReceiveBytes: byDevice(families, FAMILIES.rx),
      netTransmitBytes: byDevice(families, FAMILIES.tx),
    },
  };
}

/** Why a request failed, in a few words. */
function requestFailure(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host not found';
  if (code === 'ECONNRESET') return 'connection reset';
  return messageOf(err);
}

type Fetched = { ok: true; text: string } | { ok: false; reason: string };

/**
 * GETs the exporter's page: the text, or why there is none (HTTP error, not a metrics page,
 * too large, timeout). node:http rather than fetch: a third of the CPU per scrape (1.6 ms
 * against 5 ms for node_exporter's 57 KB page, measured here), which keeps a 1 s tick well
 * under 1 % of a core. `agent` keeps the connection between scrapes.
 */
export function fetchMetricsText(url: string, limits: ExporterLimits, agent?: Agent): Promise<Fetched> {
  return new Promise<Fetched>((resolve) => {
    let settled = false;
    // Declared first: done() may run before get() returns.
    const timer = setTimeout(() => {
      done({ ok: false, reason: `no answer within ${limits.timeoutMs / 1000} s` });
      req.destroy();
    }, limits.timeoutMs);
    const done = (outcome: Fetched): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const get = url.startsWith('https:') ? https.get : http.get;
    const req = get(url, { agent, headers: { accept: 'text/plain;version=0.0.4' } }, (res) => {
      const type = res.headers['content-type'] ?? '';
      let refusal: string | null = null;
      if (res.statusCode !== 200) {
        const where = res.headers.location;
        refusal = `HTTP ${res.statusCode}${where ? ` (redirect to ${where.slice(0, 200)})` : ''}`;
      } else if (type !== '' && !/^(text\/plain|application\/openmetrics-text)\b/i.test(type)) {
        refusal = `not a metrics page (Content-Type ${type.slice(0, 100)})`;
      }
      if (refusal !== null) {
        res.resume();
        done({ ok: false, reason: refusal });
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > limits.maxBytes) {
          req.destroy();
          done({ ok: false, reason: `the answer is larger than ${limits.maxBytes / 1024 / 1024} MiB` });
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () => done({ ok: true, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', (err) => done({ ok: false, reason: requestFailure(err) }));
    });
    req.on('error', (err) => done({ ok: false, reason: requestFailure(err) }));
  });
}

/** Starts scraping a node_exporter: the first scrape is the baseline (a failed one is retried at each reading). */
export async function startExporterSource(
  url: string,
  limits: ExporterLimits = EXPORTER_LIMITS,
): Promise<MonitorSource> {
  const source = new ExporterSource(url, limits, await isThisMachine(new URL(url).hostname));
  await source.read();
  return source;
}

class ExporterSource implements MonitorSource {
  readonly #url: string;
  readonly #limits: ExporterLimits;
  readonly #notes: string[] = [];
  readonly #agent: Agent;
  #previous: ExporterScrape | null = null;
  #cpuCount: number | null = null;
  #selfMicros = 0;

  constructor(url: string, limits: ExporterLimits, local: boolean) {
    this.#url = url;
    this.#limits = limits;
    this.#agent = url.startsWith('https:')
      ? new https.Agent({ keepAlive: true })
      : new http.Agent({ keepAlive: true });
    if (local) {
      this.#notes.push(
        "this node_exporter runs on the machine that sends the load: its CPU, memory and network include Trebuchet's own",
      );
    }
  }

  facts(): ResourceSource {
    return { method: 'node-exporter', url: this.#url, cpuCount: this.#cpuCount };
  }

  async read(): Promise<SourceReading> {
    const fetched = await fetchMetricsText(this.#url, this.#limits, this.#agent);
    if (!fetched.ok) return { gap: `node_exporter ${this.#url}: ${fetched.reason}` };
    const at = performance.now();
    const { value: parsed, micros } = timedCpu(() =>
      scrapeFromText(fetched.text, at, this.#limits.maxSeries),
    );
    this.#selfMicros += micros;
    if (!parsed.ok) return { gap: `node_exporter ${this.#url}: ${parsed.reason}` };
    const previous = this.#previous;
    this.#previous = parsed.scrape;
    this.#cpuCount = exporterCpuCount(parsed.scrape);
    if (!previous)
      return { gap: `node_exporter ${this.#url}: first answer; figures start from the next one` };
    return { figures: exporterFigures(previous, parsed.scrape, DEFAULTS.monitor.excludeDevices) };
  }

  notes(): string[] {
    return [...this.#notes];
  }

  rootPid(): null {
    return null;
  }

  selfCpuMicros(): number {
    return this.#selfMicros;
  }

  close(): void {
    this.#previous = null;
    this.#agent.destroy();
  }
}
