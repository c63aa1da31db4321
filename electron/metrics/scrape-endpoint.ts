/*
 * `--metrics-listen HOST:PORT`: the metrics served for scraping at http://HOST:PORT/metrics in
 * Prometheus's text format (prom-client's Registry writes it), live: each scrape reads the
 * series as they are at that moment. A scrape does no work a run waits for: it copies the
 * current values and formats them.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Registry, type Metric } from 'prom-client';
import { listenAddressText, type ListenAddress } from '../../shared/metrics/outs.ts';
import { promSamples } from '../../shared/metrics/prometheus-series.ts';
import type { MetricSeries } from '../../shared/metrics/series.ts';

/** The only path served. */
export const METRICS_PATH = '/metrics';

/**
 * The series in Prometheus's text format. Each metric is handed to prom-client as an object of
 * its own with the values already made (a histogram's buckets come from the samples, not from
 * observe() per request), which its Registry formats like its own metrics.
 */
export async function exposition(
  series: readonly MetricSeries[],
): Promise<{ text: string; contentType: string }> {
  const registry = new Registry();
  const byName = new Map<string, MetricSeries[]>();
  for (const s of series) byName.set(s.def.name, [...(byName.get(s.def.name) ?? []), s]);
  for (const [name, list] of byName) {
    const { help, type } = list[0]!.def;
    const values = list
      .flatMap(promSamples)
      .map((p) => ({ metricName: p.name, labels: { ...p.labels }, value: p.value }));
    const made = {
      name,
      help,
      type,
      aggregator: 'sum',
      get: () => Promise.resolve({ name, help, type, aggregator: 'sum', values }),
    };
    // prom-client's Registry reads name, help, type and get() of what it holds (registry.js).
    registry.registerMetric(made as unknown as Metric);
  }
  return { text: await registry.metrics(), contentType: registry.contentType };
}

export class ScrapeEndpoint {
  readonly #server: Server;
  /** The address it listens on (the port picked when 0 was asked). */
  readonly address: ListenAddress;

  private constructor(server: Server, address: ListenAddress) {
    this.#server = server;
    this.address = address;
  }

  /** Where a scraper reads the metrics. */
  get url(): string {
    return `http://${listenAddressText(this.address)}${METRICS_PATH}`;
  }

  /** Listens on the address; rejects with the system's reason (the port is taken, no such host). */
  static open(address: ListenAddress, read: () => readonly MetricSeries[]): Promise<ScrapeEndpoint> {
    const server = createServer((req, res) => {
      const path = (req.url ?? '').split('?')[0];
      if (req.method !== 'GET' || path !== METRICS_PATH) {
        res.writeHead(req.method === 'GET' ? 404 : 405, { 'Content-Type': 'text/plain' });
        res.end(`the metrics are at GET ${METRICS_PATH}\n`);
        return;
      }
      exposition(read()).then(
        ({ text, contentType }) => {
          res.writeHead(200, { 'Content-Type': contentType });
          res.end(text);
        },
        (error: unknown) => {
          res.writeHead(500, { 'Content-Type': 'text/plain' });
          res.end(`${error instanceof Error ? error.message : String(error)}\n`);
        },
      );
    });
    // A scrape's connection never holds the process open after the job.
    server.unref();
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(address.port, address.host, () => {
        server.off('error', reject);
        const bound = server.address() as AddressInfo;
        resolve(new ScrapeEndpoint(server, { host: address.host, port: bound.port }));
      });
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.#server.close(() => resolve());
      this.#server.closeAllConnections();
    });
  }
}
