/**
 * Debian's Prometheus (2.42) on a free loopback port, for the metrics-out tests: its remote
 * write receiver on (`--web.enable-remote-write-receiver`, POST /api/v1/write), its storage in
 * the server's temp dir (removed at stop), and, when asked, a 1 s scrape of one target (a
 * `--metrics-listen` address, honor_labels so the job label is Trebuchet's). Queries go through
 * its HTTP API.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { launchServer, type LocalServer } from './server-process.ts';

export const PROMETHEUS_BIN = '/usr/bin/prometheus';

export interface TestPrometheus {
  server: LocalServer;
  /** Its remote write receiver. */
  writeUrl: string;
  /** An instant query's result: each series' labels and value. */
  query(expr: string): Promise<{ metric: Record<string, string>; value: number }[]>;
  /** The one value of a query that must give one series (0 when it gives none). */
  scalar(expr: string): Promise<number>;
  stop(): Promise<void>;
}

const vectorAnswer = z.object({
  status: z.literal('success'),
  data: z.object({
    resultType: z.literal('vector'),
    result: z.array(
      z.object({ metric: z.record(z.string(), z.string()), value: z.tuple([z.number(), z.string()]) }),
    ),
  }),
});

export async function startPrometheus(opts: { scrape?: string } = {}): Promise<TestPrometheus> {
  const server = await launchServer({
    name: 'prometheus',
    https: false,
    configure: ({ dir, ports }) => {
      const config = join(dir, 'prometheus.yml');
      const scrape = opts.scrape
        ? `scrape_configs:\n  - job_name: trebuchet\n    honor_labels: true\n    scrape_interval: 1s\n    scrape_timeout: 1s\n    static_configs:\n      - targets: ['${opts.scrape}']\n`
        : 'scrape_configs: []\n';
      writeFileSync(config, `global:\n  scrape_interval: 15s\n${scrape}`);
      return {
        bin: PROMETHEUS_BIN,
        args: [
          `--config.file=${config}`,
          `--storage.tsdb.path=${join(dir, 'data')}`,
          `--web.listen-address=127.0.0.1:${ports.http}`,
          '--web.enable-remote-write-receiver',
          '--log.level=warn',
        ],
      };
    },
  });
  const base = server.httpUrl;
  // Bound to its port before its storage is open: ready is when it says so (at most the launch's wait again).
  const deadline = Date.now() + 15_000;
  while ((await fetch(`${base}-/ready`).catch(() => null))?.status !== 200) {
    if (Date.now() > deadline) {
      await server.stop();
      throw new Error('prometheus did not say ready within 15 s');
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const query = async (expr: string) => {
    const res = await fetch(`${base}api/v1/query?${new URLSearchParams({ query: expr }).toString()}`);
    const body: unknown = await res.json();
    return vectorAnswer.parse(body).data.result.map((r) => ({ metric: r.metric, value: Number(r.value[1]) }));
  };
  return {
    server,
    writeUrl: `${base}api/v1/write`,
    query,
    scalar: async (expr) => {
      const result = await query(expr);
      if (result.length > 1) throw new Error(`${expr} gave ${result.length} series`);
      return result[0]?.value ?? 0;
    },
    stop: () => server.stop(),
  };
}
